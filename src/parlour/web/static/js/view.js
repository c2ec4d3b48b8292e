// Drawing a state message: the game's board, whose turn it is, the players and scores,
// the log, the end-of-game breakdown. Shared by the live table and the replay.

import { h, fill, plural } from "./dom.js";
import { seatLabel, seatName } from "./names.js";

export { seatName };
import * as psalter from "./games/psalter-row.js";
import * as golf from "./games/decktet-golf.js";
import * as quis from "./games/quisquilian.js";

export const GAMES = { "psalter-row": psalter, "decktet-golf": golf, quisquilian: quis };

export function gameModule(name) {
  const game = GAMES[name];
  if (!game) throw new Error(`this page cannot draw the game ${name}`);
  return game;
}


const END_TEXT = {
  complete: "complete",
  exhausted: "the draw pile ran out",
  target: "a seat reached the target",
  rounds: "all rounds played",
  stalemate: "stalemate",
  max_turns: "turn limit reached",
  action_limit: "the table's action limit reached",
};

/** The big line: your turn / who is to play / the game is over and who won. */
export function turnLine(msg) {
  if (msg.end) {
    const winners = msg.winners || [];
    if ((msg.players || []).length === 1) {
      const score = (msg.scores || [])[0];
      return { cls: "over", text: `Game over (${END_TEXT[msg.end] || msg.end}) · score ${score}` };
    }
    const who = winners.length ? winners.map((s) => seatName(msg, s)).join(" and ") : "nobody";
    const yours = msg.seat !== null && msg.seat !== undefined && winners.includes(msg.seat);
    return { cls: "over", text: `Game over (${END_TEXT[msg.end] || msg.end}) · ${yours ? "you won!" : `winner: ${who}`}` };
  }
  if (msg.current_player === null || msg.current_player === undefined) return { cls: "", text: "" };
  // (a replay seen from a seat has no legal actions: there it names the seat as for anyone)
  if (msg.seat !== null && msg.seat !== undefined && msg.current_player === msg.seat && (msg.legal || []).length) {
    return { cls: "yours", text: "Your turn" };
  }
  return { cls: "theirs", text: `${seatName(msg, msg.current_player)} to play` };
}

/** The players panel: who sits where, bot or human, connected (and by how many tabs), score;
 * how many watch. */
export function playersPanel(msg, game) {
  const rows = (msg.players || []).map((p) => {
    const toPlay = !msg.end && p.seat === msg.current_player;
    const won = msg.end && (msg.winners || []).includes(p.seat);
    const conn = p.kind === "agent" ? h("span", { class: "conn-dot bot", title: "a bot" }, "bot")
      : p.connected === null || p.connected === undefined ? h("span", { class: "conn-dot person" }, "person")
      : h("span", { class: `conn-dot ${p.connected ? "on" : "off"}`, title: p.connected ? "connected" : "not connected" },
        p.connected ? "online" : "away");
    // several connections hold the seat: the tabs (or windows) of the browser that claimed it
    const tabs = p.connections > 1 ? h("span", { class: "tabs", title: `${p.connections} connections hold this seat` },
      `${p.connections} tabs`) : null;
    return h("tr", { class: `${toPlay ? "to-play" : ""}${won ? " won" : ""}`, "data-seat": p.seat },
      h("td", { class: "mark" }, toPlay ? "▶" : won ? "★" : ""),
      h("td", {}, h("b", {}, p.name || `Seat ${p.seat + 1}`), p.seat === msg.seat ? h("span", { class: "tag you" }, "you") : null,
        h("div", { class: "dim small" }, seatLabel(p.seat))),
      h("td", {}, conn, tabs),
      h("td", { class: "score" }, game.scoreText(msg, p.seat)));
  });
  const watching = msg.spectators > 0 ? h("div", { class: "spectators dim small" },
    `${plural(msg.spectators, "spectator")} watching`) : null;
  return [h("table", { class: "players" },
    h("tr", {}, h("th", {}), h("th", {}, "Player"), h("th", {}), h("th", { class: "score" }, "Score")), rows), watching];
}

/** The game log in notation, newest last; an entry's `text` (the action told with its public
 * cards, where the page saw it happen) under it. */
export function logList(msg) {
  return (msg.log || []).map((e) => h("li", { "data-n": e.n },
    h("span", { class: "log-seat" }, e.seat === null || e.seat === undefined ? "·" : seatName(msg, e.seat)),
    " ", h("code", {}, e.action), e.text ? h("div", { class: "log-text" }, e.text) : null));
}

/** The end-of-game breakdown: per seat its summary and the parts of its score. */
export function breakdownView(msg) {
  const rows = msg.breakdown || [];
  if (!rows.length) return null;
  return h("div", { class: "breakdown" }, h("h3", {}, "Final scores"),
    rows.map((b) => h("div", { class: `bd-seat${(msg.winners || []).includes(b.seat) ? " won" : ""}`, "data-seat": b.seat },
      h("div", { class: "bd-head" }, h("b", {}, seatName(msg, b.seat)), h("span", { class: "bd-score" }, String(b.score))),
      h("div", { class: "bd-summary" }, b.summary),
      h("table", {}, (b.parts || []).map((p) => h("tr", {},
        h("td", { class: "bd-label" }, p.label),
        h("td", { class: "bd-points" }, p.points === null || p.points === undefined ? "" : (p.points > 0 ? `+${p.points}` : String(p.points))),
        h("td", { class: "bd-detail" }, p.detail)))))));
}


/** What each place on the board ([data-place]) holds: its cards' codes, "back" for a back. */
function signatures(board) {
  const out = new Map();
  for (const el of board.querySelectorAll("[data-place]")) {
    const cards = [...el.querySelectorAll("[data-code], [data-back]")].map((c) => c.dataset.code || "back");
    out.set(el.dataset.place, cards.join(","));
  }
  return out;
}

/** Mark the places whose cards changed since the board drawn before (none on a first drawing). */
function markChanged(board, before) {
  if (!before.size) return;
  for (const [place, sig] of signatures(board)) {
    if (before.get(place) !== sig) board.querySelector(`[data-place="${place}"]`).classList.add("changed");
  }
}

/** Fill the parts of a page (any missing element is skipped) from a state message. */
export function drawState(els, msg, game) {
  const turn = turnLine(msg);
  if (els.turn) {
    els.turn.className = `turn ${turn.cls}`;
    fill(els.turn, turn.text);
  }
  if (els.situation) fill(els.situation, msg.end ? "" : game.situation(msg));
  if (els.board) {
    const before = signatures(els.board);
    fill(els.board, game.board(msg));
    markChanged(els.board, before);
  }
  if (els.players) fill(els.players, playersPanel(msg, game));
  if (els.log) {
    fill(els.log, logList(msg));
    els.log.scrollTop = els.log.scrollHeight;
  }
  if (els.logCount) fill(els.logCount, plural((msg.log || []).length, "action"));
  if (els.breakdown) {
    const bd = msg.end ? breakdownView(msg) : null;
    fill(els.breakdown, bd);
    els.breakdown.hidden = !bd;
  }
  if (els.text) fill(els.text, msg.text || ""); // the server sends it as plain text
}
