// Decktet Golf at the table: every seat's plus-shaped layout, the discard pile, the draw pile
// and the card in hand. Click targets: your own cells ("B2"), the draw pile ("draw"), the
// discard pile ("take"), the drawn card ("discard"). The discard pile's note opens the list of
// every card in it (public, DG-12). `describe` tells a move with the public cards it moved.

import { h, plural, s } from "../dom.js";
import { seatName } from "../names.js";
import { backSvg, cardSvg, decktetCard, DECKTET_SUITS, slotSvg, symbol } from "../cards.js";

export const deck = "decktet";
export const title = "Decktet Golf";
/** The notation box's example (its placeholder). */
export const example = "draw · replace C3 · flip B1";

export function tokenize(notation) {
  return notation.split(/\s+/).filter(Boolean);
}

const GRID = [["", "B1", "C1", ""], ["A2", "B2", "C2", "D2"], ["A3", "B3", "C3", "D3"], ["", "B4", "C4", ""]];
const CORE = new Set(["B2", "C2", "B3", "C3"]);

/** Golf value of a card (DG-9): Court -2, Pawn -1, Ace 1, numerals their rank, Crown 10, Excuse 15. */
export function golfValue(code) {
  const c = decktetCard(code);
  return { A: 1, X: 10, P: -1, C: -2, EX: 15 }[c.rank] ?? Number(c.rank);
}

const LINES = [["row 2", ["A2", "B2", "C2", "D2"]], ["row 3", ["A3", "B3", "C3", "D3"]],
  ["column B", ["B1", "B2", "B3", "B4"]], ["column C", ["C1", "C2", "C3", "C4"]]];
const LETTERS = "MSWLYK";

function suitMask(code) {
  return [...decktetCard(code).suits].reduce((m, suit) => m | (1 << LETTERS.indexOf(suit.letter)), 0);
}

/**
 * Lines one card from discarding (as the terminal's ◆): all four cells hold a card, three
 * face-up ones share a suit, the fourth is face down or lacks it. [{name, suits, cell}]
 */
export function nearLines(layout) {
  const found = [];
  for (const [name, cells] of LINES) {
    const codes = cells.map((c) => layout[c]);
    if (codes.some((c) => c === undefined || c === null)) continue;
    for (let odd = 0; odd < 4; odd++) {
      const others = codes.filter((c, i) => i !== odd && c !== "?");
      if (others.length !== 3) continue;
      let common = suitMask(others[0]) & suitMask(others[1]) & suitMask(others[2]);
      if (codes[odd] !== "?") common &= ~suitMask(codes[odd]);
      if (common) {
        found.push({ name, suits: common, cell: cells[odd] });
        break;
      }
    }
  }
  return found;
}

function suitIcons(mask) {
  return DECKTET_SUITS.filter((_, i) => mask >> i & 1).map((suit) =>
    s("svg", { viewBox: "0 0 10 10", class: "suit-icon", role: "img", "aria-label": suit.name },
      s("title", {}, suit.name), symbol(suit.draw, suit.colour, 0, 0, 10)));
}

function showing(layout) {
  return Object.values(layout).filter((c) => c !== "?").reduce((t, c) => t + golfValue(c), 0);
}


/** One seat's plus sign with column letters and row numbers; own cells carry click tokens. */
function layoutView(seat, layout, mine, near = []) {
  const targets = new Set(near.map((n) => n.cell));
  const grid = [h("div", { class: "gl-corner" })];
  for (const letter of "ABCD") grid.push(h("div", { class: "gl-head" }, letter));
  GRID.forEach((row, r) => {
    grid.push(h("div", { class: "gl-head" }, String(r + 1)));
    for (const cell of row) {
      if (!cell) {
        grid.push(h("div", { class: "gl-cell none" }));
        continue;
      }
      const code = layout[cell];
      const token = mine ? { "data-token": cell } : {};
      let card;
      if (code === undefined || code === null) card = slotSvg("", token, `${cell}: empty`);
      else if (code === "?") card = backSvg(token, `${cell}: face down`);
      else card = cardSvg(code, deck, token);
      const value = code && code !== "?" ? h("span", { class: "gl-value", title: "golf value" }, String(golfValue(code))) : null;
      grid.push(h("div", { class: `gl-cell${CORE.has(cell) ? " core" : ""}${targets.has(cell) ? " near" : ""}`, title: cell,
        "data-place": `cell:${seat}:${cell}` },
        card, value));
    }
  });
  return h("div", { class: "golf-layout" }, grid);
}

function seatView(msg, seat) {
  const obs = msg.observation;
  const layout = obs.layouts[seat];
  const toPlay = obs.end === null && seat === obs.current_player;
  const near = obs.end === null ? nearLines(layout) : [];
  const marks = [
    seat === msg.seat ? h("span", { class: "tag you" }, "you") : null,
    seat === obs.dealer ? h("span", { class: "tag" }, "dealer") : null,
    obs.ender === seat && obs.end === null ? h("span", { class: "tag out" }, "out") : null,
  ];
  return h("div", { class: `golf-seat${toPlay ? " to-play" : ""}`, "data-seat": seat },
    h("div", { class: "seat-head" }, toPlay ? h("span", { class: "turn-mark" }, "▶") : null,
      h("b", {}, seatName(msg, seat)), ...marks),
    h("div", { class: "seat-sub" }, `showing ${showing(layout)} · match ${obs.totals[seat]}`),
    layoutView(seat, layout, seat === msg.seat, near),
    near.map((n) => h("div", { class: "near-line" }, h("span", { class: "near-mark" }, "◆"),
      ` ${n.name} needs `, suitIcons(n.suits), ` at ${n.cell}`)));
}

/** Whether the list of the discard pile's cards is open: kept across the boards of new states. */
let discardListOpen = false;

/** The discard pile's cards, bottom to top (the top one last), shown under the piles while open. */
function discardList(discard) {
  const list = h("div", { class: "discard-list", id: "discard-list", hidden: !discardListOpen },
    h("div", { class: "discard-list-head" },
      h("b", {}, `The discard pile, bottom to top: ${plural(discard.length, "card")}`),
      h("button", { class: "clear", type: "button", onclick: () => toggleDiscardList(false) }, "✕ close")),
    discard.length
      ? h("ol", { class: "discard-cards" }, discard.map((code, i) => h("li", { "data-code": code },
        cardSvg(code, deck), h("span", { class: "dim small" }, i === discard.length - 1 ? "top" : String(i + 1)))))
      : h("div", { class: "dim" }, "The pile is empty."));
  return list;
}

function toggleDiscardList(open) {
  discardListOpen = open;
  const list = document.getElementById("discard-list");
  if (list) list.hidden = !open;
  const button = document.getElementById("discard-look");
  if (button) button.setAttribute("aria-expanded", String(open));
}

function middle(msg) {
  const obs = msg.observation;
  const discard = obs.discard || [];
  const top = discard.length ? cardSvg(discard[discard.length - 1], deck, { "data-token": "take" })
    : slotSvg("", { "data-token": "take" }, "the empty discard pile");
  const pile = obs.draw_pile_size ? backSvg({ "data-token": "draw" }, `draw pile: ${obs.draw_pile_size} cards`)
    : slotSvg("0", { "data-token": "draw" }, "the empty draw pile");
  const parts = [
    h("div", { class: "pile" }, h("div", { class: "pile-label" }, "Draw pile"), pile,
      h("div", { class: "pile-note" }, plural(obs.draw_pile_size, "card") + (obs.reshuffles ? ` · reshuffled ${obs.reshuffles}×` : ""))),
    h("div", { class: "pile", "data-place": "discard" }, h("div", { class: "pile-label" }, "Discard"), top,
      h("button", { class: "pile-note pile-look", id: "discard-look", type: "button", "aria-expanded": String(discardListOpen),
        "aria-controls": "discard-list", title: "every card of the discard pile, bottom to top",
        onclick: () => toggleDiscardList(!discardListOpen) }, `${plural(discard.length, "card")} · look through`)),
  ];
  if (obs.drawn_from) {
    const held = obs.drawn ? cardSvg(obs.drawn, deck, { "data-token": "discard" })
      : backSvg({}, "a card drawn from the pile, seen by its drawer alone");
    parts.push(h("div", { class: "pile drawn" }, h("div", { class: "pile-label" }, `In hand (from the ${obs.drawn_from})`),
      held, h("div", { class: "pile-note" }, obs.drawn ? `value ${golfValue(obs.drawn)}` : "hidden")));
  }
  return h("div", { class: "zone golf-middle" }, h("div", { class: "piles golf-piles" }, parts), discardList(discard));
}

function scoreSheet(msg) {
  const obs = msg.observation;
  if (!obs.round_scores.length) return null;
  const n = obs.totals.length;
  const head = h("tr", {}, h("th", {}, "Round"), [...Array(n).keys()].map((s) => h("th", {}, seatName(msg, s))));
  const rows = obs.round_scores.map((r, i) => h("tr", {}, h("td", {}, String(i + 1)), r.map((x) => h("td", {}, String(x)))));
  const total = h("tr", { class: "total" }, h("td", {}, "Total"), obs.totals.map((x) => h("td", {}, String(x))));
  return h("table", { class: "sheet" }, head, rows, total);
}

export function board(msg) {
  const obs = msg.observation;
  const seats = obs.layouts.map((_, seat) => seat);
  // your own layout first, then the others in seat order
  if (msg.seat !== null && msg.seat !== undefined) seats.sort((a, b) => (b === msg.seat) - (a === msg.seat));
  const rounds = obs.options.rounds;
  const head = obs.end !== null
    ? `Match over after ${plural(obs.round_scores.length, "round")} · lowest total wins`
    : `Round ${obs.round}${rounds ? ` of ${rounds}` : ""} · ${rounds ? `${rounds}-round match` : `match to ${obs.options.target} points`}, lowest total wins`;
  return h("div", { class: "board golf" },
    h("h3", {}, head),
    middle(msg),
    h("div", { class: "golf-seats" }, seats.map((seat) => seatView(msg, seat))),
    scoreSheet(msg),
    lastRound(msg, seats));
}

/** The layouts of the round just ended, as they were scored (open while the new round opens). */
function lastRound(msg, seats) {
  const obs = msg.observation;
  if (!obs.last_round_layouts) return null;
  const opening = obs.face_up.every((up) => up.length <= obs.options.opening_flips);
  const scores = obs.round_scores[obs.round_scores.length - 1] || [];
  return h("details", { class: "last-round", open: opening && obs.end === null },
    h("summary", {}, `Round ${obs.round_scores.length} as scored: ${scores.join(" / ")}`),
    h("div", { class: "golf-seats" }, seats.map((seat) => h("div", { class: "golf-seat" },
      h("div", { class: "seat-head" }, h("b", {}, seatName(msg, seat)), h("span", { class: "dim" }, ` scored ${scores[seat]}`)),
      layoutView(seat, obs.last_round_layouts[seat], false)))));
}

/** What happened between two observations beyond the actions themselves (DG-7, DG-8). */
export function events(before, after, msg) {
  const out = [];
  if (after.ender !== null && before.ender === null) {
    out.push(`${seatName(msg, after.ender)} has no face-down card left: everyone else has one last turn.`);
  }
  if (after.reshuffles > before.reshuffles && after.round === before.round) {
    out.push("The draw pile ran out: the discard pile was shuffled into a new one, its top card turned up.");
  }
  after.round_scores.slice(before.round_scores.length).forEach((scores, i) => {
    out.push(`Round ${before.round_scores.length + i + 1} is over: it scored ${scores.join(" / ")}.`);
  });
  return out;
}

// ---- a move told with its cards, from one seat's observations (as events.py in Python) ----
const HIDDEN = "?";
const OUTER = [["row 2", "A2", "D2"], ["row 3", "A3", "D3"], ["column B", "B1", "B4"], ["column C", "C1", "C4"]];

/** A card as the log names it: "5 Soldier", "Ace of Moons", "Crown Huntress", "the Excuse". */
export function cardShort(code) {
  const c = decktetCard(code);
  if (c.rank === "EX" || c.rank === "A") return c.name;
  return `${c.rankName} ${c.name.replace(/^the /, "")}`;
}

const roundEnded = (b, a) => a.round_scores.length > b.round_scores.length;

/** The face-up card at `cell` of `seat` after the move (in the layouts as scored when the move
 * ended the round), or null. */
function nowAt(b, a, seat, cell) {
  const layout = roundEnded(b, a) ? (a.last_round_layouts || [])[seat] || {} : a.layouts[seat];
  const code = layout[cell];
  return code && code !== HIDDEN ? code : null;
}

/** The cards the move put onto the discard pile, in order; null when the observation after
 * cannot tell (a reshuffle or a new deal took the pile away). */
function discarded(b, a) {
  if (a.round !== b.round || a.reshuffles !== b.reshuffles) return null;
  const old = b.discard, now = a.discard;
  const same = (from) => old.every((code, i) => now[from + i] === code);
  if (same(0)) return now.slice(old.length);
  if (now[0] === "EX" && same(1)) return ["EX", ...now.slice(old.length + 1)]; // DG-11: the Excuse goes under
  return null;
}

function move(b, a, action) {
  const [verb, ...cells] = action.split(/\s+/);
  const seat = b.player;
  const thrown = discarded(b, a);
  const layout = b.layouts[seat] || {};
  const named = (code) => (code && code !== HIDDEN ? cardShort(code) : null);
  switch (verb) {
    case "take":
      return `took ${cardShort(b.discard[b.discard.length - 1])} from the discard pile`;
    case "draw":
      return a.drawn && a.drawn_from === "pile" ? `drew ${cardShort(a.drawn)}` : "drew a card (only they see it)";
    case "flip": {
      const card = named(nowAt(b, a, seat, cells[0]));
      return `turned up ${cells[0]}${card ? `: ${card}` : ""}`;
    }
    case "replace": {
      const faceDown = layout[cells[0]] === HIDDEN;
      const old = faceDown ? named(thrown && thrown[0]) : named(layout[cells[0]]);
      const placed = named(b.drawn || nowAt(b, a, seat, cells[0]));
      return `replaced ${cells[0]}${faceDown ? " (face down)" : ""}${placed ? ` with ${placed}` : ""}: ` +
        `${old || "the face-down card"} to the discard`;
    }
    case "discard": {
      const card = named(b.drawn || (thrown && thrown[0]));
      return `discarded ${card || "the card drawn"}`;
    }
    case "ontop": {
      const card = named(layout[cells[0]]);
      return `put ${cells[0]}${card ? ` (${card})` : ""} on top of the discard`;
    }
    case "swap":
      return `swapped ${cells.map((c) => `${c}${named(layout[c]) ? ` ${named(layout[c])}` : " (face down)"}`).join(" and ")}`;
    default:
      return null;
  }
}

/** The outer cards a suited line of the moving seat shed (DG-6), or null. */
function shed(b, a, action) {
  const seat = b.turn;
  if (roundEnded(b, a) || !a.layouts[seat]) return null; // the round's end tells of it
  const emptied = Object.keys(b.layouts[seat]).filter((cell) => !(cell in a.layouts[seat]));
  if (!emptied.length) return null;
  const lines = OUTER.filter(([, x, y]) => emptied.includes(x) && emptied.includes(y)).map(([name]) => name);
  let added = discarded(b, a);
  if (added && ["replace", "discard"].includes(action.split(/\s+/)[0])) added = added.slice(1); // the move's own card went first
  const cards = added && added.length ? `: ${added.map(cardShort).join(", then ")} on top` : "";
  return `the suited ${lines.join(" and ") || "line"} shed ${emptied.join(" and ")}${cards}`;
}

/**
 * One action in words with the public cards it moved, as the seat (or spectator) whose two
 * observations these are may know them: "took 5 Soldier from the discard pile", "replaced
 * B4 with 5 Soldier: 9 Pact to the discard". A card drawn from the pile is named to its
 * drawer alone until it is placed or discarded; a card the observation after no longer
 * shows (a new deal, a reshuffle) is left out.
 */
export function describe(before, after, action) {
  const text = move(before, after, action);
  if (!text) return null;
  const lines = shed(before, after, action);
  return lines ? `${text}; ${lines}` : text;
}

/** The start of a turn, from the legal actions: take, draw, or both. */
function startWords(legal) {
  const take = legal.includes("take"), draw = legal.includes("draw");
  if (take && draw) return "Click the discard pile to take its top card, or the draw pile to draw.";
  if (take) return "The draw pile is empty: click the discard pile to take its top card.";
  return "The discard pile is empty: click the draw pile to draw.";
}

export function situation(msg) {
  const obs = msg.observation;
  if (obs.end !== null) return "The match is over.";
  const mine = msg.seat !== null && msg.seat === obs.current_player;
  const who = mine ? "You" : seatName(msg, obs.current_player);
  const lines = [];
  if (obs.ender !== null) lines.push(`${seatName(msg, obs.ender)} has no face-down card left: everyone else has one last turn.`);
  switch (obs.phase) {
    case "opening":
      lines.push(`Opening: ${mine ? "you turn" : `${who} turns`} up ${plural(obs.flips_left, "more card")} outside the core` +
        (mine ? ": click a face-down card of yours." : "."));
      break;
    case "start":
      lines.push(mine ? startWords(msg.legal || []) : `${who} takes or draws.`);
      break;
    case "taken":
      lines.push(mine ? "Click one of your cells to replace it with the card taken." : `${who} places the card taken.`);
      break;
    case "drawn":
      lines.push(mine ? "Click one of your cells to replace it with the drawn card, or click the drawn card to discard it."
        : `${who} places or discards the drawn card.`);
      break;
    case "flip":
      lines.push(mine ? "Click one of your face-down cards to turn it up." : `${who} turns up a face-down card.`);
      break;
    case "ontop":
      lines.push(mine ? "A suited line discards its outer cards: click the one to end on top of the discard."
        : `${who} chooses which outer card of a suited line ends on top.`);
      break;
    case "swap": {
      // DG-11: a discarded Excuse goes under the pile; one turned up at the deal or a reshuffle gets covered
      const why = obs.after_swaps === "lines" ? "The Excuse went under the discard pile"
        : "The Excuse was turned up to start the discard pile (a card from the pile covers it next)";
      lines.push(mine ? `${why}: click two of your cards to swap them.` : `${why}: ${who} swaps two cards.`);
      break;
    }
    default:
      lines.push(`${who} to play.`);
  }
  return lines.join(" ");
}

export function scoreText(msg, seat) {
  const obs = msg.observation;
  return `${obs.totals[seat]}`;
}
