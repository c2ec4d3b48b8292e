// Quisquilian at the table: the 3x3 yard of trash stacks (every card visible), each seat's
// runs and the ranks A..K they cover, the hand. Click targets: hand cards ("7H"), cards of a
// stack ("7H@3"), a spot itself ("spot:3", for discards), your runs ("run:2", for "add .. to 2").

import { h, plural } from "../dom.js";
import { seatName } from "../names.js";
import { cardSvg } from "../cards.js";

export const deck = "standard";
export const title = "Quisquilian";
/** The notation box's example (its placeholder). */
export const example = "run 5H 6H@3 7H@3 · add 8H@2 · stop";

/** "discard 7H 5" -> ["discard","7H","spot:5"]; "add 8H@2 to 2" -> ["add","8H@2","run:2"]. */
export function tokenize(notation) {
  const w = notation.split(/\s+/).filter(Boolean);
  if (w[0] === "discard") return ["discard", w[1], `spot:${w[2]}`];
  if (w[0] === "add") return w[2] === "to" ? ["add", w[1], `run:${w[3]}`] : ["add", w[1]];
  return w;
}

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const SUITS = "CDHS";

function rank(code) {
  return RANKS.indexOf(code.slice(0, -1)) + 1;
}


/** A stack fanned downwards, the top card last and whole; the card step shrinks as it grows. */
function stackView(stack, spot) {
  const step = stack.length <= 6 ? 24 : Math.max(9, Math.floor(144 / (stack.length - 1)));
  const fan = h("div", { class: "fan", style: `--n:${stack.length};--step:${step}px` },
    stack.map((code, i) => cardSvg(code, deck, { "data-token": `${code}@${spot}`, style: `top:${i * step}px` })));
  return fan;
}

function spotView(obs, spot) {
  const stack = obs.spots[spot - 1];
  const used = (obs.used_spots || []).includes(spot);
  return h("div", { class: `spot${used ? " used" : ""}`, "data-token": `spot:${spot}`, "data-spot": spot,
    "data-place": `spot:${spot}`,
    title: used ? `spot ${spot} took a discard this turn: one card per spot` : `spot ${spot}` },
    h("div", { class: "spot-head" }, h("b", {}, `Spot ${spot}`),
      h("span", { class: "dim" }, stack.length ? plural(stack.length, "card") : "empty")),
    stack.length ? stackView(stack, spot) : h("div", { class: "spot-empty" }, "empty"),
    // a tag, not the gold frame of a thing to click: this spot takes no more discards
    used ? h("div", { class: "spot-used" }, h("span", {}, "used this turn")) : null);
}

/** The strip A..K, covered ranks lit. */
export function coverageStrip(covered) {
  const set = new Set(covered);
  return h("div", { class: "coverage", title: `covers ${set.size} of 13 ranks` },
    RANKS.map((r, i) => h("span", { class: set.has(i + 1) ? "on" : "off" }, r)),
    h("span", { class: "count" }, `${set.size}/13`));
}

function seatRow(msg, seat) {
  const obs = msg.observation;
  const toPlay = obs.end === null && seat === obs.player;
  const mine = seat === msg.seat;
  const runs = obs.runs[seat].map((run, i) => h("div", { class: "run", ...(mine ? { "data-token": `run:${i + 1}` } : {}),
    "data-place": `run:${seat}:${i}`,
    title: `run ${i + 1}: ${run[0]} to ${run[run.length - 1]}` },
    h("span", { class: "run-no" }, String(i + 1)), run.map((c) => cardSvg(c, deck)),
    h("span", { class: "run-label" }, `${run[0]}–${run[run.length - 1]}`)));
  return h("div", { class: `quis-seat${toPlay ? " to-play" : ""}${obs.winner === seat ? " winner" : ""}`, "data-seat": seat },
    h("div", { class: "seat-head" }, toPlay ? h("span", { class: "turn-mark" }, "▶") : null,
      h("b", {}, seatName(msg, seat)), mine ? h("span", { class: "tag you" }, "you") : null,
      h("span", { class: "dim" }, plural(obs.hand_sizes[seat], "card") + " in hand"),
      obs.winner === seat ? h("span", { class: "tag out" }, "won") : null),
    coverageStrip(obs.coverage[seat]),
    h("div", { class: "runs" }, runs.length ? runs : h("span", { class: "dim" }, "no runs yet")));
}

function sortedHand(hand) {
  return [...hand].sort((a, b) => SUITS.indexOf(a.slice(-1)) - SUITS.indexOf(b.slice(-1)) || rank(a) - rank(b));
}

/** Pips of a die face. */
function die(n) {
  const pips = { 1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8] }[n] || [];
  return h("div", { class: "die", title: `the die shows ${n}` },
    [...Array(9).keys()].map((i) => h("span", { class: pips.includes(i) ? "pip" : "" })));
}

export function board(msg) {
  const obs = msg.observation;
  const spots = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((s) => spotView(obs, s));
  const seats = obs.runs.map((_, s) => seatRow(msg, s));
  const info = h("div", { class: "quis-info" },
    obs.end === null ? die(obs.roll) : null,
    h("div", {}, h("div", {}, h("b", {}, `Turn ${obs.turns + (obs.end === null ? 1 : 0)}`),
      obs.end === null ? ` · die ${obs.roll} · ${obs.phase === "discard" ? `discard ${plural(obs.to_discard, "more card")}` : "dig"}` : " · game over"),
      h("div", { class: "dim" }, `Draw pile ${plural(obs.draw_pile_size, "card")} · yard cleared ${plural(obs.clearings, "time")}` +
        (obs.quiet_turns ? ` · ${plural(obs.quiet_turns, "quiet turn")}` : ""))));
  const parts = [info, h("div", { class: "quis-main" },
    h("div", { class: "yard" }, spots),
    h("div", { class: "quis-seats" }, seats))];
  if (msg.seat !== null && msg.seat !== undefined && obs.hand) {
    parts.push(h("section", { class: "zone" }, h("h3", {}, "Your hand ", h("span", { class: "dim" }, plural(obs.hand.length, "card"))),
      h("div", { class: "hand" }, obs.hand.length ? sortedHand(obs.hand).map((c) => cardSvg(c, deck, { "data-token": c }))
        : h("span", { class: "dim" }, "(empty)"))));
  }
  return h("div", { class: "board quis" }, parts);
}

/** Clearings of the yard (QU-7) and bare ones (QU-8). */
export function events(before, after) {
  if (after.clearings > before.clearings) {
    return [`The yard was cleared: each spot keeps its top card, the ${after.draw_pile_size} cards beneath make a new draw pile.`];
  }
  if (after.barren && !before.barren) return ["The yard was due for clearing, but no card lay beneath any top."];
  return [];
}

export function situation(msg) {
  const obs = msg.observation;
  if (obs.end !== null) {
    return obs.end === "complete" ? `${seatName(msg, obs.winner)} covered Ace to King.` : `The game ended: ${obs.end}.`;
  }
  const mine = msg.seat !== null && msg.seat === obs.player;
  if (!mine) return `${seatName(msg, obs.player)} to play (die ${obs.roll}, ${obs.phase}).`;
  if (obs.phase === "discard") {
    return `Discard ${plural(obs.to_discard, "more card")}: click a card in your hand, then a spot (one card per spot).`;
  }
  return digWords(msg.legal || []);
}

/** The dig, from the legal actions: a run, an addition, or only Stop. */
function digWords(legal) {
  const kinds = new Set(legal.map((n) => n.split(/\s+/)[0]));
  const ways = [];
  if (kinds.has("run")) ways.push("click hand cards and stack cards (a spot's top, then the card beneath) to make a run of 3+ in one suit");
  if (kinds.has("add")) ways.push("click one card to add to a run of yours");
  if (!ways.length) return "Nothing to dig this turn: click Stop.";
  return `Dig: ${ways.join(", or ")}; or Stop.`;
}

export function scoreText(msg, seat) {
  return `${msg.observation.coverage[seat].length}/13`;
}
