// Choosing an action by clicking: every clickable thing on the table carries a token
// (a card code, "7H@3", "spot:5", a cell "B2", "high", "take" ...); each legal action's
// notation is turned into tokens by the game's tokenizer. The tokens clicked so far keep the
// legal actions that contain all of them; when exactly one is left it is played, but only
// once a hand card of it is chosen and by a second click: a click on a Row end or a spot
// alone never plays a card the player did not pick, and a click on a hand card alone only
// selects it (the one action left waits as a Play button, or for a click on its place).

/** Does `have` (a list of tokens) contain every token of `want`, counting repeats? */
export function containsAll(have, want) {
  const left = new Map();
  for (const t of have) left.set(t, (left.get(t) || 0) + 1);
  for (const t of want) {
    const n = left.get(t) || 0;
    if (!n) return false;
    left.set(t, n - 1);
  }
  return true;
}

export class Picker {
  /**
   * @param {(notation: string) => string[]} tokenize  the game's tokenizer
   * @param {(notation: string) => void} play  called with the chosen action's notation
   */
  constructor(tokenize, play) {
    this.tokenize = tokenize;
    this.play = play;
    this.legal = [];
    this.selected = [];
    this.hand = new Set();
  }

  /** New legal actions (a new state) and the seat's hand cards: forget the selection. */
  setLegal(legal, hand = []) {
    this.legal = legal.map((notation) => ({ notation, tokens: this.tokenize(notation) }));
    this.selected = [];
    this.hand = new Set(hand);
  }

  /** May `action` be played on the current selection? Not when it uses a hand card and
   * none of its hand cards was chosen, nor on one click alone: a newcomer clicks a card to
   * choose it, and the second click (its place, another card, the Play button) plays. */
  ready(action) {
    const cards = action.tokens.filter((t) => this.hand.has(t));
    return !cards.length || (cards.some((t) => this.selected.includes(t)) && this.selected.length >= 2);
  }

  /** The legal actions that contain every selected token (plus `extra`). */
  candidates(extra = []) {
    const want = [...this.selected, ...extra];
    return this.legal.filter((a) => containsAll(a.tokens, want));
  }

  /** Would clicking `token` lead anywhere? */
  useful(token) {
    return !this.selected.includes(token) && this.candidates([token]).length > 0;
  }

  /**
   * A click on a thing carrying `tokens` (innermost first, e.g. a card then its spot):
   * unselect it if selected, else select the first that keeps a legal action.
   * Returns "played", "selected", "unselected" or "useless".
   */
  click(tokens) {
    for (const token of tokens) {
      const at = this.selected.indexOf(token);
      if (at >= 0) {
        this.selected.splice(at, 1);
        return "unselected";
      }
    }
    for (const token of tokens) {
      if (!this.useful(token)) continue;
      this.selected.push(token);
      const left = this.candidates();
      if (left.length === 1 && this.ready(left[0])) {
        const notation = left[0].notation;
        this.selected = [];
        this.play(notation);
        return "played";
      }
      return "selected";
    }
    return "useless";
  }

  clear() {
    this.selected = [];
  }

  /** Mark every [data-token] under `root`: .clickable when useful, .selected when chosen. */
  decorate(root) {
    for (const el of root.querySelectorAll("[data-token]")) {
      const token = el.dataset.token;
      el.classList.toggle("selected", this.selected.includes(token));
      const useful = this.useful(token);
      el.classList.toggle("clickable", useful);
      // reachable with Tab, played with Enter or Space, like a button
      if (useful) el.setAttribute("tabindex", "0");
      else el.removeAttribute("tabindex");
    }
  }
}

/** The tokens of an element and its ancestors with data-token, innermost first. */
export function tokensAt(target, root) {
  const out = [];
  for (let el = target; el && el !== root.parentNode; el = el.parentElement || el.parentNode) {
    if (el.dataset && el.dataset.token) out.push(el.dataset.token);
    if (el === root) break;
  }
  return out;
}
