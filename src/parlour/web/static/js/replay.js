// The replay of a finished game: step through it back and forth, as a spectator or as a seat,
// and download its record.

import { fill, h } from "./dom.js";
import { api } from "./api.js";
import { drawState, gameModule } from "./view.js";

const $ = (id) => document.getElementById(id);
const els = { turn: $("turn"), board: $("board"), players: $("players"), log: $("log"), logCount: $("log-count"),
  breakdown: $("breakdown"), text: $("text") };
const tableId = decodeURIComponent((location.pathname.match(/\/t\/([^/]+)/) || [])[1] ||
  new URLSearchParams(location.search).get("id") || "");

// The server sends a replay in pages of steps and the log in pages of entries (each bounded,
// docs/web.md "Limits and security"): the log is fetched whole at the start, a page of steps
// when the step shown needs it.
let replay = null, table = null, game = null, at = 0, timer = null, seatShown = "";
let pages = new Map(); // first step of a page -> that page's steps
let log = []; // every action: {n, seat, action}
let shown = 0; // the number of the latest show() call: an older one that finishes later draws nothing

function showError(text) {
  fill($("error"), text);
  $("error").hidden = !text;
}

const lastIndex = () => replay.total - 1;
const base = () => `/api/tables/${encodeURIComponent(tableId)}`;

/** The step `i`, fetching its page if it is not here yet. */
async function step(i) {
  const first = Math.floor(i / replay.page) * replay.page;
  if (!pages.has(first)) {
    const seat = seatShown === "" ? "" : `&seat=${encodeURIComponent(seatShown)}`;
    const page = await api(`${base()}/replay?start=${first}&text=1${seat}`);
    pages.set(first, page.steps);
  }
  return pages.get(first)[i - first];
}

/** A state message for step `i`, as the live table would have sent it then. */
function message(i, s) {
  const obs = s.observation;
  const lastStep = i === lastIndex();
  return {
    type: "state", state_id: s.n, seat: replay.seat, current_player: lastStep ? null : obs.current_player ?? null,
    observation: obs, text: s.text, legal: [], log: log.slice(0, i),
    players: table.seats.map((p) => ({ seat: p.seat, name: p.name, kind: p.kind, connected: null })),
    // the final scores come with the replay (a Psalter Row observation has none of its own)
    scores: lastStep ? replay.scores : obs.scores ?? null, winners: lastStep ? replay.winners : [],
    end: lastStep ? replay.end : null,
    breakdown: lastStep ? replay.breakdown : null,
  };
}

async function show(i) {
  const call = ++shown;
  const target = Math.max(0, Math.min(i, lastIndex()));
  let s, before;
  try {
    s = await step(target);
    before = target > 0 && game.describe ? await step(target - 1) : null; // to tell the action with its cards
  } catch (e) {
    showError(e.message);
    return;
  }
  if (call !== shown) return;
  at = target;
  const msg = message(at, s);
  drawState(els, msg, game);
  fill($("step-no"), `step ${at} / ${lastIndex()}`);
  const told = before ? game.describe(before.observation, s.observation, s.action) : null;
  fill($("step-action"), s.action ? `${msg.players[s.seat] ? msg.players[s.seat].name : `Seat ${s.seat + 1}`}: ${s.action}` : "the deal",
    told ? h("span", { class: "step-told" }, ` · ${told}`) : null);
  $("slider").value = String(at);
  const items = els.log.children;
  if (items.length) items[items.length - 1].classList.add("current");
  document.body.dataset.step = String(at);
}

function toggleAuto() {
  if (timer) {
    clearInterval(timer);
    timer = null;
    fill($("auto"), "play");
    return;
  }
  if (at >= lastIndex()) show(0);
  fill($("auto"), "pause");
  timer = setInterval(() => {
    if (at >= lastIndex()) return toggleAuto();
    show(at + 1);
  }, 700);
}

/** The whole log, page by page. */
async function loadLog(total) {
  const entries = [];
  while (entries.length < total) {
    const page = await api(`${base()}/log?start=${entries.length + 1}`);
    if (!page.entries.length) break;
    entries.push(...page.entries);
  }
  return entries;
}

async function load(seat) {
  seatShown = seat;
  pages = new Map();
  const query = seat === "" ? "" : `&seat=${encodeURIComponent(seat)}`;
  const first = await api(`${base()}/replay?start=0&text=1${query}`);
  replay = { ...first, page: first.steps.length };
  pages.set(0, first.steps);
  if (log.length < lastIndex()) log = await loadLog(lastIndex());
  $("slider").max = String(lastIndex());
  await show(Math.min(at, lastIndex()));
}

async function main() {
  fill($("table-id"), `table ${tableId}`);
  $("download").href = `/api/tables/${encodeURIComponent(tableId)}/record`;
  try {
    table = await api(`/api/tables/${encodeURIComponent(tableId)}`);
    game = gameModule(table.game);
    fill($("game-title"), `${game.title} · replay`);
    document.title = `${game.title} replay · parlour`;
    for (const s of table.seats) $("view-as").append(new Option(`seat ${s.seat + 1}: ${s.name}`, String(s.seat)));
    // a game of one seat is best seen from that seat (its hand); others from the spectator's place
    const first = table.seats.length === 1 ? "0" : "";
    $("view-as").value = first;
    await load(first);
    await show(lastIndex());
  } catch (e) {
    showError(`${e.message}${e.code === "not_finished" ? ` · watch it live at /t/${tableId}` : ""}`);
    return;
  }
  $("first").onclick = () => show(0);
  $("prev").onclick = () => show(at - 1);
  $("next").onclick = () => show(at + 1);
  $("last").onclick = () => show(lastIndex());
  $("auto").onclick = toggleAuto;
  $("slider").oninput = (e) => show(Number(e.target.value));
  $("view-as").onchange = (e) => load(e.target.value).catch((err) => showError(err.message));
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    if (e.key === "ArrowLeft") show(at - 1);
    else if (e.key === "ArrowRight") show(at + 1);
    else if (e.key === "Home") show(0);
    else if (e.key === "End") show(lastIndex());
  });
  window.parlour = { get replay() { return replay; }, show, get at() { return at; } };
}

main();
