// The replay of a finished game: step through it back and forth, as a spectator or as a seat,
// and download its record.

import { fill } from "./dom.js";
import { api } from "./api.js";
import { drawState, gameModule } from "./view.js";

const $ = (id) => document.getElementById(id);
const els = { turn: $("turn"), board: $("board"), players: $("players"), log: $("log"), logCount: $("log-count"),
  breakdown: $("breakdown"), text: $("text") };
const tableId = decodeURIComponent((location.pathname.match(/\/t\/([^/]+)/) || [])[1] ||
  new URLSearchParams(location.search).get("id") || "");

let replay = null, table = null, game = null, at = 0, timer = null;

function showError(text) {
  fill($("error"), text);
  $("error").hidden = !text;
}

/** A state message for step `i`, as the live table would have sent it then. */
function message(i) {
  const step = replay.steps[i];
  const obs = step.observation;
  const lastStep = i === replay.steps.length - 1;
  const log = replay.steps.slice(1, i + 1).map((s) => ({ n: s.n, seat: s.seat, action: s.action }));
  return {
    type: "state", state_id: step.n, seat: replay.seat, current_player: lastStep ? null : obs.current_player ?? null,
    observation: obs, text: step.text, legal: [], log,
    players: table.seats.map((s) => ({ seat: s.seat, name: s.name, kind: s.kind, connected: null })),
    scores: obs.scores, winners: lastStep ? replay.winners : [], end: lastStep ? replay.end : null,
    breakdown: lastStep ? replay.breakdown : null,
  };
}

function show(i) {
  at = Math.max(0, Math.min(i, replay.steps.length - 1));
  const msg = message(at);
  drawState(els, msg, game);
  const step = replay.steps[at];
  fill($("step-no"), `step ${at} / ${replay.steps.length - 1}`);
  fill($("step-action"), step.action ? `${msg.players[step.seat] ? msg.players[step.seat].name : `Seat ${step.seat + 1}`}: ${step.action}` : "the deal");
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
  if (at >= replay.steps.length - 1) show(0);
  fill($("auto"), "pause");
  timer = setInterval(() => {
    if (at >= replay.steps.length - 1) return toggleAuto();
    show(at + 1);
  }, 700);
}

async function load(seat) {
  const query = seat === "" ? "" : `?seat=${encodeURIComponent(seat)}`;
  replay = await api(`/api/tables/${encodeURIComponent(tableId)}/replay${query}`);
  show(Math.min(at, replay.steps.length - 1));
  $("slider").max = String(replay.steps.length - 1);
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
    show(replay.steps.length - 1);
  } catch (e) {
    showError(`${e.message}${e.code === "not_finished" ? ` · watch it live at /t/${tableId}` : ""}`);
    return;
  }
  $("first").onclick = () => show(0);
  $("prev").onclick = () => show(at - 1);
  $("next").onclick = () => show(at + 1);
  $("last").onclick = () => show(replay.steps.length - 1);
  $("auto").onclick = toggleAuto;
  $("slider").oninput = (e) => show(Number(e.target.value));
  $("view-as").onchange = (e) => load(e.target.value).catch((err) => showError(err.message));
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    if (e.key === "ArrowLeft") show(at - 1);
    else if (e.key === "ArrowRight") show(at + 1);
    else if (e.key === "Home") show(0);
    else if (e.key === "End") show(replay.steps.length - 1);
  });
  window.parlour = { get replay() { return replay; }, show, get at() { return at; } };
}

main();
