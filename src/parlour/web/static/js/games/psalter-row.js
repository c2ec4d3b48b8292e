// Psalter Row at the table: the Row of Pages 2-10 with its Quires, the hand, the piles.
// Click targets: hand cards and Row cards (their codes), the empty places left and right of
// the Row ("low", "high"), and, while the Row is empty, its places by value ("row:7").

import { h, plural } from "../dom.js";
import { backSvg, cardSvg, slotSvg, standardCard } from "../cards.js";

export const deck = "standard";
export const title = "Psalter Row";
/** The notation box's example (its placeholder). */
export const example = "place 7H high pay 4C";

/** "place 9C high pay 4D" -> ["place", "9C", "high", "4D"] (the word "pay" names nothing);
 * the first Page, "place 7H", goes to the empty Row's place of its value: "row:7". */
export function tokenize(notation) {
  const words = notation.split(/\s+/).filter((w) => w && w !== "pay");
  if (words[0] === "place" && words.length > 1 && !words.includes("low") && !words.includes("high")) {
    words.push(`row:${value(words[1])}`);
  }
  return words;
}

const VALUES = [2, 3, 4, 5, 6, 7, 8, 9, 10];

function value(code) {
  return { A: 1, J: 11, Q: 12, K: 13 }[code.slice(0, -1)] || Number(code.slice(0, -1));
}

/** The Quires: runs of 2+ consecutive values, as lists of codes. */
export function quires(row) {
  const found = [];
  let run = [];
  for (const code of row) {
    if (run.length && value(code) !== value(run[run.length - 1]) + 1) {
      if (run.length >= 2) found.push(run);
      run = [];
    }
    run.push(code);
  }
  if (run.length >= 2) found.push(run);
  return found;
}

function quireNote(quire) {
  const suits = new Set(quire.map((c) => c.slice(-1)));
  const colours = new Set(quire.map((c) => standardCard(c).red));
  const kind = suits.size === 1 ? "one suit" : colours.size === 1 ? "one colour" : "mixed";
  return `Quire of ${quire.length}, ${kind}`;
}

function rowView(obs) {
  const row = obs.row;
  const at = new Map(row.map((c) => [value(c), c]));
  const low = row.length ? value(row[0]) : null;
  const high = row.length ? value(row[row.length - 1]) : null;
  const inQuire = new Map();
  quires(row).forEach((q, i) => q.forEach((c) => inQuire.set(c, i)));
  const cells = VALUES.map((v) => {
    const code = at.get(v);
    let body;
    if (code) {
      body = cardSvg(code, deck, { "data-token": code });
    } else {
      // the two ends are the places next to the Row; a Page for a farther value still
      // goes "low" or "high" (paying the gap), so only those two places say so
      const side = low === null ? null : v === low - 1 ? "low" : v === high + 1 ? "high" : null;
      const why = side ? `the ${side} end of the Row` : low === null ? `the empty Row: a first Page ${v} goes here`
        : v < low || v > high ? "beyond the Row's end" : "a gap: no Page can go here";
      const token = side || (low === null ? `row:${v}` : null);
      body = slotSvg(side || "", token ? { "data-token": token, class: `card slot${side ? ` end-${side}` : ""}` } : {}, why);
    }
    const q = code !== undefined && inQuire.has(code);
    const cls = ["row-cell", q ? "in-quire" : "", q && quireStart(row, code) ? "quire-start" : "",
      q && quireEnd(row, code) ? "quire-end" : ""].join(" ");
    return h("div", { class: cls, title: q ? quireNote(quireOf(row, code)) : null, "data-place": `row:${v}` },
      h("div", { class: "row-value" }, String(v)), body);
  });
  return h("div", { class: "psalter-row" }, cells);
}

function quireOf(row, code) {
  return quires(row).find((q) => q.includes(code));
}
function quireStart(row, code) {
  return quireOf(row, code)[0] === code;
}
function quireEnd(row, code) {
  const q = quireOf(row, code);
  return q[q.length - 1] === code;
}

function pile(label, card, note, place = null) {
  return h("div", { class: "pile", "data-place": place }, h("div", { class: "pile-label" }, label), card, h("div", { class: "pile-note" }, note));
}

/** The board for a state message. */
export function board(msg) {
  const obs = msg.observation;
  const discard = obs.discard || [];
  const hand = obs.hand || [];
  const parts = [
    h("section", { class: "zone" }, h("h3", {}, "The Row ", h("span", { class: "dim" }, "Pages 2 to 10, low to high")),
      rowView(obs),
      h("div", { class: "quire-list" }, quires(obs.row).map((q) => h("span", { class: "quire-tag" }, quireNote(q))))),
    h("div", { class: "zone piles" },
      pile("Draw pile", obs.draw_pile_size ? backSvg({}, `${obs.draw_pile_size} cards face down`) : slotSvg("0"),
        `${plural(obs.draw_pile_size, "card")} · ${obs.reshuffled ? "reshuffle used" : "one reshuffle left"}`),
      pile("Discard", discard.length ? cardSvg(discard[discard.length - 1], deck) : slotSvg(""),
        plural(discard.length, "card"), "discard"),
      h("div", { class: "pile removed" }, h("div", { class: "pile-label" }, "Removed from the game"),
        h("div", { class: "mini-cards" }, obs.removed.length ? obs.removed.map((c) => cardSvg(c, deck)) : h("span", { class: "dim" }, "none")))),
  ];
  if (msg.seat !== null && msg.seat !== undefined) {
    parts.push(h("section", { class: "zone" }, h("h3", {}, `Your hand `, h("span", { class: "dim" }, plural(hand.length, "card"))),
      h("div", { class: "hand" }, hand.length ? hand.map((c) => cardSvg(c, deck, { "data-token": c })) : h("span", { class: "dim" }, "(empty)"))));
  } else {
    // a spectator sees how many cards the hand holds, not which
    const n = obs.hand_size ?? 0;
    parts.push(h("section", { class: "zone" }, h("h3", {}, "The hand ", h("span", { class: "dim" }, plural(n, "card") + ", hidden")),
      h("div", { class: "hand" }, Array.from({ length: n }, () => backSvg({}, "a card in the player's hand")))));
  }
  return h("div", { class: "board psalter" }, parts);
}

/** The one reshuffle, when it happens (PR-11). */
export function events(before, after) {
  return after.reshuffled && !before.reshuffled
    ? [`The draw pile ran out: the discard pile was shuffled into a new draw pile of ${after.draw_pile_size} cards, the one reshuffle of the game.`]
    : [];
}

/** The verbs of the legal actions, and the Row ends that a place names: {place, swap, ..., ends}. */
function legalKinds(legal) {
  const kinds = new Set(legal.map((n) => n.split(/\s+/)[0]));
  const ends = ["low", "high"].filter((end) => legal.some((n) => n.startsWith("place ") && n.split(/\s+/).includes(end)));
  return { kinds, ends };
}

/** What the seat to play may do now, as one sentence built from its legal actions. */
function whatToDo(obs, legal) {
  const { kinds, ends } = legalKinds(legal);
  if (kinds.has("discard")) {
    const why = obs.pending === "revision_discard" ? "Revision" : "Supply Errand";
    const n = obs.pending_discards || 1;
    const owed = n === 1 ? "a discard" : `${plural(n, "discard")}, one at a time`;
    return `The ${why} owes ${owed}: click a card in your hand, then Play to discard it.`;
  }
  const ways = [];
  if (kinds.has("place")) {
    if (!obs.row.length) ways.push("click a Page (2-10) in your hand, then its place in the Row (or Play), to start the Row");
    else {
      const where = ends.length === 2 ? "the low or high end of the Row" : `the ${ends[0]} end of the Row`;
      ways.push(`place a Page: click it in your hand, then ${where} (and the cards that pay a gap)`);
    }
  }
  if (kinds.has("swap")) ways.push("Abbot's Directive: click a hand Page and a King to swap it for the Row's Page of that value");
  if (kinds.has("errand")) ways.push("an Ace in your hand runs a Supply Errand: click it, then Play");
  if (kinds.has("revise")) ways.push("no Page can be placed: click a Row Page to remove it (a Revision)");
  if (!ways.length) return "";
  const text = ways.length === 1 ? ways[0] : `${ways.slice(0, -1).join("; ")}; or ${ways[ways.length - 1]}`;
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
}

/** One line: what is going on and what to do. */
export function situation(msg) {
  const obs = msg.observation;
  const mine = msg.seat !== null && msg.seat !== undefined && msg.seat === msg.current_player;
  if (!mine) {
    const who = ((msg.players || [])[0] || {}).name || "The player";
    return obs.pending ? `${who} owes a discard.` : "";
  }
  return whatToDo(obs, msg.legal || []);
}

/** The score panel's numbers for each seat. */
export function scoreText(msg, seat) {
  return `${msg.observation.score ?? (msg.scores || [])[seat] ?? ""}`;
}
