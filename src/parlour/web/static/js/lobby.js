// The lobby: the new-table form (game, seats, options from /api/games), the invite links of
// a table just made, and the lists of open and finished tables. A bot seat is one of the
// game's levels (from /api/games, with its one line), or any agent spec typed in.

import { h, fill, plural } from "./dom.js";
import { api } from "./api.js";
import { cardSvg } from "./cards.js";
import { linkRow } from "./links.js";
import { adminSecret, keepAdmin } from "./seatstore.js";

const $ = (id) => document.getElementById(id);
const HUMAN = ["human", "a person (invite link)"];
const CUSTOM = ["custom", "bot: another agent spec…"];
const DEFAULT_BOT = "level:casual";
let games = [];

function currentGame() {
  return games.find((g) => g.name === $("game").value);
}

// ---- the form ----------------------------------------------------------------------------

/** A seat's choices: a person, each of the game's levels (weakest first), or a spec typed in. */
function seatKinds(game) {
  return [HUMAN, ...(game.levels || []).map((l) => [l.spec, `bot: ${l.name}`]), CUSTOM];
}

function seatRow(i) {
  const game = currentGame();
  const kinds = seatKinds(game);
  const kind = h("select", { class: "kind", "data-seat": i, "aria-label": `seat ${i + 1}` },
    kinds.map(([v, label]) => h("option", { value: v }, label)));
  kind.value = i === 0 ? "human" : kinds.some(([v]) => v === DEFAULT_BOT) ? DEFAULT_BOT : kinds[1][0];
  const spec = h("input", { type: "text", class: "spec", placeholder: "e.g. ismcts:iterations=500", hidden: true,
    "aria-label": `seat ${i + 1} agent spec` });
  const line = h("div", { class: "level-line dim small" });
  const show = () => {
    spec.hidden = kind.value !== "custom";
    const level = (game.levels || []).find((l) => l.spec === kind.value);
    fill(line, level ? `${level.name}: ${level.summary}` : "");
    line.title = level ? `in ${game.title}: ${level.agent}` : "";
  };
  kind.addEventListener("change", show);
  show();
  const name = h("input", { type: "text", class: "name", placeholder: i === 0 ? "your name" : "name (optional)",
    "aria-label": `seat ${i + 1} name` });
  return h("div", { class: "seat-row" }, h("span", { class: "seat-no" }, `Seat ${i + 1}`), kind, spec, name, line);
}

function drawSeats() {
  const n = Number($("seat-count").value);
  const box = $("seats");
  const rows = [...box.children];
  while (rows.length > n) rows.pop().remove();
  for (let i = rows.length; i < n; i++) box.append(seatRow(i));
}

function optionInput(opt) {
  const id = `opt-${opt.name}`;
  let input;
  if (opt.kind === "bool") {
    input = h("input", { type: "checkbox", id, name: opt.name });
    input.checked = Boolean(opt.default);
  } else if (opt.kind === "choice" && opt.choices) {
    const choices = opt.default === null ? [null, ...opt.choices.filter((c) => c !== null)] : opt.choices;
    input = h("select", { id, name: opt.name },
      choices.map((c) => h("option", { value: c === null ? "" : String(c) }, c === null ? "default" : String(c))));
    input.value = opt.default === null ? "" : String(opt.default);
  } else {
    const number = opt.kind === "int" || opt.kind === "float";
    input = h("input", { type: number ? "number" : "text", id, name: opt.name, step: opt.kind === "float" ? "any" : null,
      placeholder: opt.default === null ? "none" : String(opt.default) });
  }
  input.dataset.option = opt.name;
  return h("div", { class: "form-row" }, h("label", { for: id }, opt.name.replace(/_/g, " ")), input,
    h("span", { class: "dim small" }, opt.allowed), h("div", { class: "doc" }, opt.doc));
}

function drawGame() {
  const game = currentGame();
  const players = game.options.find((o) => o.name === "players");
  const count = $("seat-count");
  fill(count, Array.from({ length: game.max_players - game.min_players + 1 }, (_, i) => {
    const n = game.min_players + i;
    return h("option", { value: n }, plural(n, "player"));
  }));
  count.value = String(players ? players.default : game.min_players);
  fill($("seats"));
  drawSeats();
  // the number of seats sets "players": no separate field for it
  fill($("options"), game.options.filter((o) => o.name !== "players").map(optionInput));
  fill($("game-doc"), `${game.title}: ${game.min_players === game.max_players ? plural(game.min_players, "player")
    : `${game.min_players}-${game.max_players} players`}.`);
}

/** The options the player changed from their defaults, typed as the API wants them. */
function readOptions(game) {
  const out = {};
  for (const opt of game.options) {
    const input = document.querySelector(`[data-option="${opt.name}"]`);
    if (!input) continue;
    let value;
    if (opt.kind === "bool") value = input.checked;
    else if (opt.kind === "choice" && opt.choices) {
      if (input.value === "") continue; // "default"
      value = opt.choices.find((c) => String(c) === input.value);
    }
    else if (input.value.trim() === "") continue;
    else if (opt.kind === "int") value = Number.parseInt(input.value, 10);
    else if (opt.kind === "float") value = Number.parseFloat(input.value);
    else value = input.value.trim();
    if (value !== opt.default) out[opt.name] = value;
  }
  return out;
}

function readSeats() {
  const seats = [], names = [];
  for (const row of $("seats").children) {
    const kind = row.querySelector(".kind").value;
    seats.push(kind === "custom" ? row.querySelector(".spec").value.trim() : kind);
    names.push(row.querySelector(".name").value.trim() || null);
  }
  return { seats, names };
}

/** Show the form's error (or clear it with no text). */
function formError(text) {
  const err = $("form-error");
  fill(err, text || "");
  err.hidden = !text;
}

/** A custom seat whose spec is blank: what to say about it, or null when every seat is filled. */
function blankSpec() {
  const rows = [...$("seats").children];
  const i = rows.findIndex((row) => row.querySelector(".kind").value === "custom" && !row.querySelector(".spec").value.trim());
  return i < 0 ? null : `Seat ${i + 1}: type an agent spec (e.g. ismcts:iterations=500 or heuristic), or choose another kind of seat.`;
}

async function createTable(ev) {
  ev.preventDefault();
  const game = currentGame();
  const { seats, names } = readSeats();
  formError("");
  const blank = blankSpec();
  if (blank) {
    formError(blank);
    return;
  }
  const err = $("form-error");
  try {
    const hints = $("hints").checked;
    const table = await api("/api/tables", { json: { game: game.name, options: readOptions(game), seats, names, hints } });
    keepAdmin(table.id, table.admin); // this browser made it: at the table it may re-issue invites and close it
    showCreated(table);
    refreshTables();
  } catch (e) {
    fill(err, `The table was not made: ${e.message}`);
    err.hidden = false;
  }
}

function showCreated(table) {
  const box = $("created");
  const humans = table.seats.filter((s) => s.kind === "human");
  fill(box, h("h2", {}, `Table ${table.id}: ${table.title || table.game}`),
    h("div", { class: "dim" }, "Each invite link is a seat: send each person their own link. The first browser that opens a link " +
      "takes its seat and keeps it; the link then seats nobody else (so open only your own here). This browser made the table: " +
      "if a link is lost or went to the wrong person, re-issue it from the table page (the old link stops working), or " +
      "close the table there."),
    humans.map((s) => linkRow(`Seat ${s.seat + 1} · ${s.name}`, s.invite, "invite")),
    table.seats.filter((s) => s.kind !== "human").map((s) => h("div", { class: "dim small" },
      `Seat ${s.seat + 1}: ${s.name === s.spec ? s.name : `${s.name} (${s.spec})`}`)), // a bot named by its spec says it once
    linkRow("Spectators", table.spectate, "spectate"),
    humans.length ? h("p", {}, h("a", { href: humans[0].invite, class: "play-now" }, `Play seat ${humans[0].seat + 1} now →`)) : null);
  box.hidden = false;
  box.scrollIntoView({ behavior: "smooth", block: "nearest" });
}

// ---- the lists of tables ------------------------------------------------------------------

function seatChips(t) {
  return t.seats.map((s) => h("span", { class: `seat-chip ${s.kind === "agent" ? "bot" : s.connected ? "on" : ""}`,
    title: s.kind === "agent" ? s.spec : s.connected ? "connected" : "not connected" }, s.name));
}

/** "yours" beside a table this browser made. */
function mineTag(t) {
  return adminSecret(t.id) ? h("span", { class: "tag mine", title: "this browser made this table" }, "yours") : null;
}

function tableList(tables, finished) {
  if (!tables.length) return h("div", { class: "dim" }, finished ? "No finished games yet." : "No open tables: make one.");
  const title = (name) => (games.find((g) => g.name === name) || { title: name }).title;
  return h("table", { class: "tables" },
    h("tr", {}, h("th", {}, "Game"), h("th", {}, "Seats"), h("th", {}, "Status"), h("th", {}, "")),
    tables.map((t) => h("tr", { "data-table": t.id },
      h("td", {}, h("b", {}, title(t.game)), mineTag(t), h("div", { class: "dim small" }, t.id)),
      h("td", {}, seatChips(t)),
      h("td", {}, t.status, h("div", { class: "dim small" }, plural(t.actions, "action"))),
      h("td", {}, finished ? h("a", { href: `/t/${t.id}/replay` }, "replay") : h("a", { href: `/t/${t.id}` }, "watch")))));
}

async function refreshTables() {
  try {
    const [open, done] = await Promise.all([api("/api/tables"), api("/api/tables?status=finished")]);
    fill($("open-tables"), tableList(open.tables, false));
    fill($("open-count"), `(${open.tables.length})`);
    fill($("finished-tables"), tableList(done.tables.slice(0, 15), true));
  } catch (e) {
    fill($("open-tables"), h("div", { class: "error" }, e.message));
  }
}

async function main() {
  const hero = ["QS", "7H", "AC", "10D"].map((c, i) => {
    const svg = cardSvg(c, "standard");
    svg.style.setProperty("--r", `${(i - 1.5) * 8}deg`);
    return svg;
  });
  ["2MK", "XW"].forEach((c) => hero.push(cardSvg(c, "decktet")));
  hero.slice(4).forEach((svg, i) => svg.style.setProperty("--r", `${18 + i * 8}deg`));
  fill($("hero-cards"), hero);
  try {
    games = (await api("/api/games")).games;
  } catch (e) {
    fill($("form-error"), e.message);
    $("form-error").hidden = false;
    return;
  }
  fill($("game"), games.map((g) => h("option", { value: g.name }, g.title)));
  $("game").addEventListener("change", drawGame);
  $("seat-count").addEventListener("change", drawSeats);
  $("new-table").addEventListener("submit", createTable);
  // a new attempt clears the last error, also one the browser blocks (a value out of range)
  $("create").addEventListener("click", () => formError(""));
  $("new-table").addEventListener("invalid", () => formError(""), true);
  drawGame();
  refreshTables();
  setInterval(refreshTables, 5000);
}

main();
