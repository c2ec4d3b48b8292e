// Playing cards drawn as SVG, built in JS: the standard 52-card deck, the Decktet, backs.
//
// Every suit symbol is a path (no font needed), so a card looks the same in every browser.
// cardSvg(code, deck) draws one face-up card; deck is "standard" or "decktet" (the codes
// overlap: "AS" is the Ace of Spades or the Ace of Suns).

import { s } from "./dom.js";

const W = 60, H = 84; // card units; CSS sizes the element
const FONT = "DejaVu Sans, Verdana, system-ui, sans-serif";

// ---- suit symbols, each in a 100x100 box ----------------------------------------------------

const SYMBOLS = {
  // standard deck
  C: (c) => [
    s("circle", { cx: 50, cy: 28, r: 21, fill: c }),
    s("circle", { cx: 27, cy: 58, r: 21, fill: c }),
    s("circle", { cx: 73, cy: 58, r: 21, fill: c }),
    s("circle", { cx: 50, cy: 50, r: 12, fill: c }),
    s("path", { d: "M45 55 C45 76 41 88 32 96 L68 96 C59 88 55 76 55 55Z", fill: c }),
  ],
  D: (c) => [s("path", { d: "M50 2 L88 50 L50 98 L12 50Z", fill: c })],
  H: (c) => [s("path", {
    d: "M50 92 C20 66 4 50 4 30 C4 14 16 5 29 5 C39 5 46 11 50 20 C54 11 61 5 71 5 C84 5 96 14 96 30 C96 50 80 66 50 92Z",
    fill: c,
  })],
  S: (c) => [s("path", {
    d: "M50 4 C64 24 95 40 95 61 C95 75 84 82 73 82 C64 82 57 78 54 72 C55 83 59 90 67 96 L33 96 " +
       "C41 90 45 83 46 72 C43 78 36 82 27 82 C16 82 5 75 5 61 C5 40 36 24 50 4Z",
    fill: c,
  })],
  // Decktet suits: Moons Suns Waves Leaves Wyrms Knots
  M: (c) => [s("path", { d: "M68 4 A46 46 0 0 0 68 96 A62 62 0 0 1 68 4Z", fill: c })],
  Su: (c) => {
    const rays = [];
    for (let i = 0; i < 8; i++) {
      const a = (i * Math.PI) / 4;
      const x1 = 50 + 31 * Math.cos(a), y1 = 50 + 31 * Math.sin(a);
      const x2 = 50 + 47 * Math.cos(a), y2 = 50 + 47 * Math.sin(a);
      rays.push(s("line", { x1, y1, x2, y2, stroke: c, "stroke-width": 10, "stroke-linecap": "round" }));
    }
    return [s("circle", { cx: 50, cy: 50, r: 23, fill: c }), ...rays];
  },
  W: (c) => [20, 50, 80].map((y) => s("path", {
    d: `M6 ${y} Q17 ${y - 14} 28 ${y} T50 ${y} T72 ${y} T94 ${y}`,
    fill: "none", stroke: c, "stroke-width": 11, "stroke-linecap": "round",
  })),
  L: (c) => [
    s("path", { d: "M50 3 C88 24 88 68 50 88 C12 68 12 24 50 3Z", fill: c }),
    s("path", { d: "M50 18 L50 98", stroke: c, "stroke-width": 7, "stroke-linecap": "round" }),
    s("path", { d: "M50 24 L50 80 M50 45 L34 33 M50 45 L66 33 M50 63 L32 50 M50 63 L68 50",
      stroke: "#fbf7ec", "stroke-width": 4, fill: "none", "stroke-linecap": "round" }),
  ],
  Y: (c) => [
    s("path", { d: "M14 92 C2 66 46 70 50 50 C54 30 14 30 24 16 C30 8 46 6 56 10",
      fill: "none", stroke: c, "stroke-width": 13, "stroke-linecap": "round" }),
    s("path", { d: "M52 2 L86 8 L62 28 Z", fill: c }),
    s("circle", { cx: 66, cy: 12, r: 3.5, fill: "#fbf7ec" }),
  ],
  K: (c) => [s("path", {
    d: "M50 50 C36 24 8 24 8 50 C8 76 36 76 50 50 C64 24 92 24 92 50 C92 76 64 76 50 50Z",
    fill: "none", stroke: c, "stroke-width": 11, "stroke-linejoin": "round",
  })],
};

/** One suit symbol as an SVG group at (x, y) of size `size` (card units). */
export function symbol(letter, colour, x, y, size) {
  const draw = SYMBOLS[letter];
  return s("g", { transform: `translate(${x} ${y}) scale(${size / 100})` }, draw(colour));
}

// ---- the standard deck ------------------------------------------------------------------

export const STANDARD_SUITS = { C: "Clubs", D: "Diamonds", H: "Hearts", S: "Spades" };
const RANK_NAMES = { A: "Ace", J: "Jack", Q: "Queen", K: "King" };
const RED = "#c0262d", BLACK = "#1d1d24";

/** {rank, suit, red, name} of a standard code such as "10H" or "QS". */
export function standardCard(code) {
  const suit = code.slice(-1), rank = code.slice(0, -1);
  if (!(suit in STANDARD_SUITS) || !/^(A|[2-9]|10|J|Q|K)$/.test(rank)) throw new Error(`not a card: ${code}`);
  const red = suit === "H" || suit === "D";
  return { code, rank, suit, red, name: `${RANK_NAMES[rank] || rank} of ${STANDARD_SUITS[suit]}` };
}

function frame(fill, stroke, children, title, extra = {}) {
  return s("svg", { viewBox: `0 0 ${W} ${H}`, class: "card", role: "img", "aria-label": title, ...extra },
    s("title", {}, title),
    s("rect", { x: 0.75, y: 0.75, width: W - 1.5, height: H - 1.5, rx: 5, fill, stroke, "stroke-width": 1.5 }),
    children);
}

function corner(label, colour, sym) {
  const size = label.length > 1 ? 11 : 13;
  return s("g", {},
    s("text", { x: 7.5, y: 15, "text-anchor": "middle", "font-family": FONT, "font-weight": "bold",
      "font-size": size, fill: colour, "letter-spacing": label.length > 1 ? -1 : 0 }, label),
    sym);
}

function standardFace(card) {
  const colour = card.red ? RED : BLACK;
  const top = corner(card.rank, colour, symbol(card.suit, colour, 3, 18, 9));
  const bottom = s("g", { transform: `rotate(180 ${W / 2} ${H / 2})` },
    corner(card.rank, colour, symbol(card.suit, colour, 3, 18, 9)));
  let middle;
  if ("JQK".includes(card.rank)) {
    middle = s("g", {},
      s("rect", { x: 14, y: 16, width: 32, height: 52, rx: 3, fill: card.red ? "#fbe3e3" : "#e3e6f2",
        stroke: colour, "stroke-width": 1 }),
      s("text", { x: 30, y: 44, "text-anchor": "middle", "font-family": "DejaVu Serif, Georgia, serif",
        "font-weight": "bold", "font-size": 22, fill: colour }, card.rank),
      symbol(card.suit, colour, 23, 48, 14));
  } else {
    const size = card.rank === "A" ? 30 : 24;
    middle = symbol(card.suit, colour, 30 - size / 2, 42 - size / 2, size);
  }
  return [top, bottom, middle];
}

// ---- the Decktet ------------------------------------------------------------------------

export const DECKTET_SUITS = [
  { letter: "M", name: "Moons", colour: "#3d55c4", draw: "M" },
  { letter: "S", name: "Suns", colour: "#d89a00", draw: "Su" },
  { letter: "W", name: "Waves", colour: "#0b8a92", draw: "W" },
  { letter: "L", name: "Leaves", colour: "#2f8a3a", draw: "L" },
  { letter: "Y", name: "Wyrms", colour: "#b8282e", draw: "Y" },
  { letter: "K", name: "Knots", colour: "#a0521c", draw: "K" },
];
const SUIT_BY_LETTER = Object.fromEntries(DECKTET_SUITS.map((x) => [x.letter, x]));

/** Card names by code, as in shared/decktet.md (a test checks them against the engine). */
export const DECKTET_NAMES = {
  AM: "Ace of Moons", AS: "Ace of Suns", AW: "Ace of Waves", AL: "Ace of Leaves", AY: "Ace of Wyrms",
  AK: "Ace of Knots",
  "2MK": "the Author", "2SY": "the Desert", "2WL": "the Origin",
  "3MW": "the Journey", "3SK": "the Painter", "3LY": "the Savage",
  "4MS": "the Mountain", "4WL": "the Sailor", "4YK": "the Battle",
  "5ML": "the Forest", "5SW": "the Discovery", "5YK": "the Soldier",
  "6MW": "the Lunatic", "6SY": "the Penitent", "6LK": "the Market",
  "7ML": "the Chance Meeting", "7SK": "the Castle", "7WY": "the Cave",
  "8MS": "the Diplomat", "8WL": "the Mill", "8YK": "the Betrayal",
  "9MS": "the Pact", "9WY": "the Darkness", "9LK": "the Merchant",
  XM: "the Huntress", XS: "the Bard", XW: "the Sea", XL: "the End", XY: "the Calamity", XK: "the Windfall",
  PMYK: "the Watchman", PSWK: "the Light Keeper", PMSL: "the Harvest", PWLY: "the Borderland",
  CMWK: "the Consul", CSWY: "the Island", CSLK: "the Window", CMLY: "the Rite",
  EX: "the Excuse",
};

const DECKTET_RANKS = { A: "Ace", X: "Crown", P: "Pawn", C: "Court" };

/** {code, rank ("A","2".."9","X","P","C","EX"), rankName, suits: [suit], name} of a Decktet code. */
export function decktetCard(code) {
  const name = DECKTET_NAMES[code];
  if (!name) throw new Error(`not a Decktet card: ${code}`);
  if (code === "EX") return { code, rank: "EX", rankName: "Excuse", suits: [], name };
  const rank = code[0];
  const suits = [...code.slice(1)].map((l) => SUIT_BY_LETTER[l]);
  return { code, rank, rankName: DECKTET_RANKS[rank] || rank, suits, name };
}

const CROWN = "M8 84 L8 30 L28 56 L50 14 L72 56 L92 30 L92 84Z";

function decktetFace(card) {
  const ink = "#3a3226";
  const parts = [];
  // the rank, top left, and the suits beneath it
  if (card.rank === "X") {
    parts.push(s("path", { d: CROWN, fill: ink, transform: "translate(2.5 4) scale(0.11)" }));
  } else if (card.rank !== "EX") {
    parts.push(s("text", { x: 7.5, y: 13.5, "text-anchor": "middle", "font-family": FONT, "font-weight": "bold",
      "font-size": 12, fill: ink }, card.rank));
  }
  card.suits.forEach((suit, i) => parts.push(symbol(suit.draw, suit.colour, 3, 17 + i * 10, 9)));
  parts.push(s("text", { x: W - 4, y: 9, "text-anchor": "end", "font-family": FONT, "font-size": 6.5,
    fill: "#8a7d66" }, card.code));
  // the big symbols in the middle
  const n = card.suits.length;
  const spots = n === 1 ? [[35, 37, 30]] : n === 2 ? [[27, 20, 22], [43, 46, 22]] :
    [[35, 17, 17], [25, 37, 17], [45, 37, 17]];
  if (n === 3) spots[0][1] = 18, spots[1][1] = 39, spots[2][1] = 39;
  card.suits.forEach((suit, i) => {
    const [cx, cy, size] = spots[i];
    parts.push(symbol(suit.draw, suit.colour, cx - size / 2, cy - size / 2 + 10, size));
  });
  if (card.rank === "EX") {
    parts.push(s("text", { x: W / 2, y: 44, "text-anchor": "middle", "font-family": "DejaVu Serif, Georgia, serif",
      "font-style": "italic", "font-size": 12, fill: ink }, "Excuse"));
  }
  // the name at the foot
  const label = card.name.replace(/^the /, "");
  const attrs = { x: W / 2, y: H - 6, "text-anchor": "middle", "font-family": "DejaVu Serif, Georgia, serif",
    "font-size": 7.5, fill: ink };
  if (label.length > 11) Object.assign(attrs, { textLength: W - 8, lengthAdjust: "spacingAndGlyphs" });
  parts.push(s("text", attrs, label));
  return parts;
}

// ---- public API ----------------------------------------------------------------------------

/** The full name of a card, for titles and the log: "Seven of Hearts", "the Author (2: Moons, Knots)". */
export function cardTitle(code, deck) {
  if (deck === "decktet") {
    const c = decktetCard(code);
    const suits = c.suits.map((x) => x.name).join(", ");
    return c.rank === "EX" ? "the Excuse" : `${c.name} (${c.rankName}: ${suits})`;
  }
  return standardCard(code).name;
}

/** A face-up card as an <svg class="card">; `extra` are more attributes (e.g. data-token). */
export function cardSvg(code, deck, extra = {}) {
  if (deck === "decktet") {
    const card = decktetCard(code);
    return frame("#fbf7ec", "#8a7a5a", decktetFace(card), cardTitle(code, deck),
      { "data-code": code, ...extra });
  }
  const card = standardCard(code);
  return frame("#ffffff", "#7a7a80", standardFace(card), card.name, { "data-code": code, ...extra });
}

/** A face-down card. */
export function backSvg(extra = {}, title = "a face-down card") {
  const lines = [];
  for (let i = -8; i <= 16; i++) {
    lines.push(s("line", { x1: i * 6, y1: 0, x2: i * 6 + 60, y2: 84, stroke: "#5d79c7", "stroke-width": 1 }));
    lines.push(s("line", { x1: i * 6, y1: 84, x2: i * 6 + 60, y2: 0, stroke: "#5d79c7", "stroke-width": 1 }));
  }
  return frame("#ffffff", "#7a7a80", [
    s("rect", { x: 4, y: 4, width: W - 8, height: H - 8, rx: 3, fill: "#23408e" }),
    s("svg", { x: 4, y: 4, width: W - 8, height: H - 8, viewBox: "4 4 52 76" }, lines),
    s("rect", { x: 4, y: 4, width: W - 8, height: H - 8, rx: 3, fill: "none", stroke: "#c9d3f0", "stroke-width": 1 }),
    s("path", { d: "M30 30 L40 42 L30 54 L20 42Z", fill: "#f4d77a", stroke: "#23408e", "stroke-width": 1.5 }),
  ], title, { "data-back": "1", ...extra });
}

/** An empty place for a card (a dashed outline with an optional label). */
export function slotSvg(label = "", extra = {}, title = "an empty place") {
  return frame("none", "#9aa39a", [
    s("text", { x: W / 2, y: H / 2 + 4, "text-anchor": "middle", "font-family": FONT, "font-size": 10,
      fill: "#c9d1c9" }, label),
  ], title, { class: "card slot", ...extra });
}
