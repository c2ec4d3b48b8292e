// The table page: connect, draw every state message, offer the legal actions by clicking.

import { h, fill } from "./dom.js";
import { Connection } from "./connection.js";
import { Picker, tokensAt } from "./picker.js";
import { drawState, gameModule, seatName } from "./view.js";

const $ = (id) => document.getElementById(id);
const els = {
  turn: $("turn"), situation: $("situation"), board: $("board"), players: $("players"), log: $("log"),
  logCount: $("log-count"), breakdown: $("breakdown"), text: $("text"),
};

const tableId = decodeURIComponent((location.pathname.match(/\/t\/([^/]+)/) || [])[1] ||
  new URLSearchParams(location.search).get("id") || "");
const storeKey = `parlour-token-${tableId}`;

/** The token remembered in this browser for this table, or null. */
function savedToken() {
  try {
    return localStorage.getItem(storeKey);
  } catch {
    return null; // no storage
  }
}

/** The seat token: the link's fragment's, else the remembered one. A link's token is
 * remembered only once the server seats it (see onMessage): a mistyped link must not
 * replace the good token saved before. */
function readToken() {
  const m = location.hash.match(/token=([^&]+)/);
  if (m) return { token: decodeURIComponent(m[1]), from: "link" };
  const saved = savedToken();
  return { token: saved, from: saved ? "storage" : null };
}

/** Remember a token the server has just seated. */
function saveToken(token) {
  try {
    localStorage.setItem(storeKey, token);
  } catch { /* private mode: the link still works */ }
}

let seatToken = readToken();
let game = null;
let last = null; // the last state message
let waiting = false; // an action was sent, its state has not come yet
const picker = new Picker((n) => (game ? game.tokenize(n) : n.split(" ")), play);

function play(notation) {
  if (!last) return;
  const sent = conn.send({ type: "act", action: notation, state_id: last.state_id });
  if (!sent) {
    showError("Not connected: the action was not sent. The page reconnects by itself; try again then.");
    return;
  }
  waiting = true;
  showError("");
  fill($("pending"), `Sent: ${notation}`);
  drawChoices();
}

function showError(text) {
  const box = $("error");
  fill(box, text);
  box.hidden = !text;
  updateBar();
}

/** The action bar only while something in it shows. */
function updateBar() {
  const shown = ["choices", "error", "notation-form"].some((id) => !$(id).hidden) || $("pending").textContent !== "";
  document.querySelector(".actionbar").hidden = !shown;
}

const ERROR_TITLES = {
  bad_message: "Bad message", bad_token: "Seat token refused", unknown_table: "No such table",
  not_your_turn: "Not your turn", stale: "The table moved on", notation: "Not understood",
  illegal: "Not legal", finished: "The game is over", server_error: "The server failed (nothing changed)",
  damaged_table: "This table cannot be rebuilt",
};

function onMessage(msg) {
  if (msg.type === "joined") {
    const seated = msg.seat !== null && msg.seat !== undefined;
    // seats are numbered from 1 on the page (the protocol's seat 0 is "seat 1")
    fill($("you"), seated ? `you are seat ${msg.seat + 1}` : "watching");
    if (seated && seatToken.from === "link" && seatToken.token) saveToken(seatToken.token);
    if (msg.table) setGame(msg.table.game, msg.table);
  } else if (msg.type === "log") {
    mergeLog(msg.entries);
    if (last) {
      completeLog(last);
      drawState(els, last, game);
    }
  } else if (msg.type === "state") {
    completeLog(msg);
    if (!game && msg.observation) setGame(msg.observation.game);
    showNotices(last, msg);
    last = msg;
    waiting = false;
    fill($("pending"));
    showError("");
    const hand = msg.observation && Array.isArray(msg.observation.hand) ? msg.observation.hand : [];
    picker.setLegal(msg.legal || [], hand);
    drawState(els, msg, game);
    drawLegal();
    drawChoices();
    document.body.dataset.stateId = String(msg.state_id);
    document.body.dataset.toPlay = msg.legal && msg.legal.length ? "me" : "";
    document.body.dataset.end = msg.end || "";
    // the notation box is for a seat whose game goes on
    $("notation-form").hidden = msg.seat === null || msg.seat === undefined || Boolean(msg.end);
    updateBar();
  } else if (msg.type === "error") {
    waiting = false;
    fill($("pending"));
    showError(`${ERROR_TITLES[msg.code] || msg.code}: ${msg.message}`);
    drawChoices();
  }
}

// The server sends each state with the log's last entries, and the rest when asked (the
// join's log_from, or a log message): the page keeps the whole log and hands it on in msg.log.
const fullLog = []; // fullLog[n - 1] is action n

function mergeLog(entries) {
  for (const e of entries) fullLog[e.n - 1] = e;
}

/** Put the whole log in a state message; ask for what is missing (only after a gap). */
function completeLog(msg) {
  mergeLog(msg.log || []);
  fullLog.length = Math.min(fullLog.length, msg.state_id); // a table rebuilt shorter (never, but safe)
  const known = fullLog.findIndex((e) => !e);
  const have = known < 0 ? fullLog.length : known;
  if (have < msg.state_id) conn.send({ type: "log", from: have + 1 });
  msg.log = fullLog.slice(0, have);
}

let noticeEvents = []; // the game's events since this seat last acted

/** Under the turn line: what the others did since this seat last acted (a spectator: the
 * last few actions), and the game's events meanwhile (a reshuffle, a round's end, a clearing). */
function showNotices(before, msg) {
  const log = msg.log || [];
  const seated = msg.seat !== null && msg.seat !== undefined;
  let from = Math.max(0, log.length - 6);
  if (seated) {
    const mine = log.map((e) => e.seat).lastIndexOf(msg.seat);
    from = mine + 1;
  }
  if (before && before.observation.game === msg.observation.game && msg.state_id > before.state_id) {
    const fresh = log.filter((e) => e.n > before.state_id);
    if (seated && fresh.some((e) => e.seat === msg.seat)) noticeEvents = [];
    if (game.events) noticeEvents.push(...game.events(before.observation, msg.observation, msg));
  }
  const theirs = log.slice(from).filter((e) => e.seat !== msg.seat).slice(-16);
  const groups = [];
  for (const e of theirs) {
    const previous = groups[groups.length - 1];
    if (previous && previous.seat === e.seat) previous.actions.push(e.action);
    else groups.push({ seat: e.seat, actions: [e.action] });
  }
  fill($("notice"),
    groups.length ? h("div", {}, h("span", { class: "lead" }, seated ? "Since your last move: " : "Last moves: "),
      groups.map((g, i) => [i ? " · " : "", h("b", {}, seatName(msg, g.seat)), " ", h("code", {}, g.actions.join(", "))])) : null,
    noticeEvents.map((text) => h("div", { class: "event" }, text)));
}

function setGame(name, table) {
  game = gameModule(name);
  fill($("game-title"), game.title);
  document.title = `${game.title} · parlour`;
  $("notation").placeholder = `type an action, e.g. ${game.example}`;
  if (table && table.status === "finished") showReplayLink();
}

function showReplayLink() {
  $("replay-link").hidden = false;
}

/** The plain list of every legal action as buttons. */
function drawLegal() {
  const legal = (last && last.legal) || [];
  fill($("legal-count"), String(legal.length));
  fill($("legal"), legal.map((n) => h("button", { class: "act", "data-action": n, onclick: () => play(n) }, n)));
  $("legal-box").hidden = !legal.length;
  if (last && last.end) showReplayLink();
}

/** The candidates of the current selection, or the one-word actions when nothing is selected. */
function drawChoices() {
  const box = $("choices");
  if (!last) return;
  if (els.board) picker.decorate(els.board);
  const legal = last.legal || [];
  if (!legal.length || waiting) {
    fill(box);
    box.hidden = true;
    updateBar();
    return;
  }
  box.hidden = false;
  updateBar();
  if (!picker.selected.length) {
    const single = legal.filter((n) => !n.includes(" "));
    fill(box, h("span", { class: "dim" }, single.length ? "Click a highlighted card or place, or choose: " : "Click a highlighted card or place."),
      single.map((n) => h("button", { class: "act big", "data-action": n, onclick: () => play(n) }, n)));
    return;
  }
  const left = picker.candidates();
  const shown = left.slice(0, 40);
  fill(box,
    h("span", { class: "chosen" }, "Chosen: ", picker.selected.map((t) => h("code", {}, t.replace(/^(spot|run):/, "$1 ")))),
    h("button", { class: "clear", onclick: () => { picker.clear(); drawChoices(); } }, "✕ clear"),
    h("span", { class: "dim" }, ` ${left.length} possible: `),
    shown.map((a) => h("button", { class: "act", "data-action": a.notation, onclick: () => play(a.notation) }, a.notation)),
    left.length > shown.length ? h("span", { class: "dim" }, ` … and ${left.length - shown.length} more: click more cards`) : null);
}

function onBoardClick(ev) {
  if (!last || !(last.legal || []).length) return;
  if (waiting) {
    showError("Waiting for the server to answer the last action.");
    return;
  }
  const tokens = tokensAt(ev.target, els.board);
  if (!tokens.length) return;
  const result = picker.click(tokens);
  if (result === "useless") showError("Nothing you can do with that now: click a highlighted card or place.");
  else if (result !== "played") showError("");
  drawChoices();
}

function onStatus(status, detail) {
  const el = $("conn");
  el.className = `conn ${status}`;
  el.dataset.status = status;
  const words = { connecting: "connecting…", connected: "connected", reconnecting: "reconnecting", closed: "closed" };
  fill(el, words[status] + (detail ? ` ${detail}` : ""));
}

function onFinal(code, reason) {
  if (code === 4001 && seatToken.from === "storage") {
    // a remembered token that no longer fits: forget it and watch instead
    try {
      localStorage.removeItem(storeKey);
    } catch { /* nothing to forget */ }
    seatToken = { token: null, from: null };
    showError(`The saved seat token was refused (${reason || "bad token"}); you are watching as a spectator.`);
    conn.open();
    return;
  }
  if (code === 4004) {
    showError(`No table ${tableId}: it does not exist on this server.`);
    return;
  }
  refusedLink(reason);
}

/** The link's token was refused: say so, and offer the seat saved in this browser (if any)
 * or the spectator's view, as links. */
function refusedLink(reason) {
  const bare = `/t/${encodeURIComponent(tableId)}`;
  const saved = savedToken();
  const offer = saved && saved !== seatToken.token
    ? ["This browser holds a seat at this table: ", h("a", { href: bare, id: "saved-seat" }, "back to your seat"), "."]
    : ["Ask for a new invite link, or ", h("a", { href: bare, id: "spectate-link" }, "watch as a spectator"), "."];
  showError(h("span", {}, `The seat token in this link was refused: ${reason || "bad token"}. `, offer));
  $("notation-form").hidden = true;
  updateBar();
}

const wsUrl = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/tables/${encodeURIComponent(tableId)}`;
const textPanel = $("text").closest("details");
const joinFields = () => ({ log_from: fullLog.length + 1, text: Boolean(textPanel && textPanel.open) });
const conn = new Connection(wsUrl, () => seatToken.token, { message: onMessage, status: onStatus, final: onFinal, joinFields });
// the plain-text drawing costs the server as much as the rest of a state: sent only while its panel is open
if (textPanel) textPanel.addEventListener("toggle", () => conn.send({ type: "text", on: textPanel.open }));

$("board").addEventListener("click", onBoardClick);
$("board").addEventListener("keydown", (ev) => {
  if ((ev.key === "Enter" || ev.key === " ") && ev.target.dataset && ev.target.dataset.token) {
    ev.preventDefault();
    onBoardClick(ev);
  }
});
$("notation-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const input = $("notation");
  const text = input.value.trim();
  showError("");
  if (!text) return;
  if (!last) return showError("Not connected yet.");
  if (!conn.send({ type: "act", action: text, state_id: last.state_id })) {
    return showError("Not connected: the action was not sent. Try again once reconnected.");
  }
  waiting = true;
  fill($("pending"), `Sent: ${text}`);
  input.value = "";
});
document.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape") {
    picker.clear();
    drawChoices();
  }
});
fill($("table-id"), `table ${tableId}`);
$("replay-link").href = `/t/${encodeURIComponent(tableId)}/replay`;


// for the browser tests and the curious: the page's state, read-only use
window.parlour = { get state() { return last; }, get waiting() { return waiting; }, picker, tokenize: (n) => picker.tokenize(n), conn };

// another invite link typed over this one changes only the fragment, which reloads
// nothing by itself: start again with the new link's token
window.addEventListener("hashchange", () => {
  if (/token=/.test(location.hash)) location.reload();
});

if (!tableId) showError("No table id in this address: open a table from the lobby.");
else conn.open();
