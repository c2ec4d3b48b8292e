// The table page: connect, draw every state message, offer the legal actions by clicking, and
// (at a table with hints on) a Hint button for the seat to move, its answer shown under the table.

import { h, fill } from "./dom.js";
import { Connection } from "./connection.js";
import { CreatorPanel } from "./creator.js";
import { Picker, tokensAt } from "./picker.js";
import * as store from "./seatstore.js";
import { drawState, gameModule, seatName } from "./view.js";
import { seatLabel } from "./names.js";

const $ = (id) => document.getElementById(id);
const els = {
  turn: $("turn"), situation: $("situation"), board: $("board"), players: $("players"), log: $("log"),
  logCount: $("log-count"), breakdown: $("breakdown"), text: $("text"),
};

const tableId = decodeURIComponent((location.pathname.match(/\/t\/([^/]+)/) || [])[1] ||
  new URLSearchParams(location.search).get("id") || "");

/** What to join with: the link's invite (with the secret this browser got for it, if it
 * claimed that seat before), else the secret of the seat this browser last held here, else
 * an invite kept by an older page; nothing: watch. A secret is kept only once the server has
 * seated it (see onMessage): a mistyped link changes nothing kept. */
function readCredentials() {
  const m = location.hash.match(/token=([^&]+)/);
  if (m) {
    const invite = decodeURIComponent(m[1]);
    const held = store.seatForInvite(tableId, invite);
    return { token: invite, secret: held ? held.secret : null, seat: held ? held.seat : undefined, from: "link" };
  }
  const [latest] = store.heldSeats(tableId);
  if (latest) return { token: null, secret: latest.secret, seat: latest.seat, from: "storage" };
  const legacy = store.legacyInvite(tableId);
  if (legacy) return { token: legacy, secret: null, from: "legacy" };
  return { token: null, secret: null, from: null };
}

let creds = readCredentials();
const creator = new CreatorPanel($("creator"), tableId);
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
  const shown = ["choices", "error", "notation-form", "undo-row", "hint-row"].some((id) => !$(id).hidden) ||
    $("pending").textContent !== "";
  document.querySelector(".actionbar").hidden = !shown;
}

const ERROR_TITLES = {
  bad_message: "Bad message", bad_token: "Seat token refused", unknown_table: "No such table",
  not_your_turn: "Not your turn", stale: "The table moved on", notation: "Not understood",
  illegal: "Not legal", finished: "The game is over", server_error: "The server failed (nothing changed)",
  damaged_table: "This table cannot be rebuilt", seat_claimed: "Seat taken", seat_reissued: "Seat handed on",
  table_closed: "Table closed", table_full: "Table full", no_undo: "Cannot undo", nothing_to_undo: "Nothing to undo",
  hints_off: "Hints are off", hint_busy: "A hint is on its way", hint_failed: "No hint came",
};
const HINT_ERRORS = new Set(["hints_off", "hint_busy", "hint_failed"]);

/** Whether this page may take back the last action: the seat of a one-seat table whose game
 * goes on, after an action (the server checks it again: docs/web.md "undo"). */
function canUndo(msg) {
  return Boolean(msg) && msg.seat === 0 && (msg.players || []).length === 1 && !msg.end && msg.state_id > 0;
}

function undo() {
  if (!canUndo(last) || waiting) return;
  if (!conn.send({ type: "undo", state_id: last.state_id })) {
    showError("Not connected: the undo was not sent. The page reconnects by itself; try again then.");
    return;
  }
  waiting = true;
  showError("");
  const entry = (last.log || [])[last.state_id - 1];
  fill($("pending"), `Taking back ${entry ? entry.action : "your last move"}…`);
  drawChoices();
}

// ---- hints: the strongest level's move for the seat to move, told to this page alone ----------
let hintAsked = null; // the state_id of the hint asked for and not answered yet
let hintShown = null; // the state_id of the hint (or hint error) on show

/** The seat to move at a table made with hints on may ask (the server checks it again). */
function canHint(msg) {
  return Boolean(msg) && msg.hints === true && (msg.legal || []).length > 0 && !msg.end;
}

function drawHintRow() {
  $("hint-row").hidden = !canHint(last);
  $("hint").disabled = hintAsked !== null || waiting;
  updateBar();
}

function showHint(stateId, ...content) {
  const box = $("hint-answer");
  hintShown = content.length ? stateId : null;
  fill(box, ...content);
  box.hidden = !content.length;
}

function askHint() {
  if (!canHint(last) || hintAsked !== null || waiting) return;
  if (!conn.send({ type: "hint", state_id: last.state_id })) {
    showError("Not connected: the hint was not asked. The page reconnects by itself; try again then.");
    return;
  }
  hintAsked = last.state_id;
  showHint(last.state_id, h("span", { class: "dim" }, "Thinking about a hint…"));
  drawHintRow();
}

function onHint(msg) {
  if (!last || msg.state_id !== last.state_id) return; // the table moved on: that hint is stale
  hintAsked = null;
  showHint(msg.state_id, h("b", {}, "Hint: "), h("code", { "data-hint": msg.action }, msg.action),
    msg.reason ? h("span", { class: "reason" }, ` · ${msg.reason}`) : null);
  drawHintRow();
}

function onHintError(msg) {
  if (msg.code !== "hint_busy") hintAsked = null;
  showHint(last ? last.state_id : null, h("b", {}, `${ERROR_TITLES[msg.code]}: `), msg.message);
  drawHintRow();
}

let lastError = null; // the last error message: a refused join's says which seat

/** The server seated this browser: keep the seat's secret, and join with it from now on. */
function seated(msg) {
  const secret = msg.secret || creds.secret;
  const invite = creds.token || (store.heldSeats(tableId).find((e) => e.seat === msg.seat) || {}).invite;
  store.keepSeat(tableId, msg.seat, secret, invite);
  if (creds.from === "legacy") store.forgetLegacyInvite(tableId);
  creds = { ...creds, secret, seat: msg.seat }; // a reconnection rejoins with the secret
}

function onMessage(msg) {
  if (msg.type === "joined") {
    const isSeated = msg.seat !== null && msg.seat !== undefined;
    // seats are numbered from 1 on the page (the protocol's seat 0 is "seat 1")
    fill($("you"), isSeated ? `you are ${seatLabel(msg.seat)}` : "watching");
    if (isSeated) seated(msg);
    if (msg.table) setGame(msg.table.game, msg.table);
  } else if (msg.type === "log") {
    mergeLog(msg.entries);
    if (last) {
      completeLog(last);
      drawState(els, last, game);
    }
  } else if (msg.type === "state") {
    mergeLog(msg.log || []);
    describeLast(last, msg);
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
    $("undo-row").hidden = !canUndo(msg);
    if (hintAsked !== null && hintAsked !== msg.state_id) hintAsked = null; // its answer will be stale
    if (hintShown !== null && hintShown !== msg.state_id) showHint(null);
    drawHintRow();
    creator.show(msg);
  } else if (msg.type === "hint") {
    onHint(msg);
  } else if (msg.type === "error" && HINT_ERRORS.has(msg.code)) {
    onHintError(msg);
  } else if (msg.type === "error") {
    lastError = msg;
    waiting = false;
    fill($("pending"));
    showError(`${ERROR_TITLES[msg.code] || msg.code}: ${msg.message}`);
    drawChoices();
  }
}

// The server sends each state with the log's last entries, and the rest when asked (the
// join's log_from, or a log message): the page keeps the whole log and hands it on in msg.log.
const fullLog = []; // fullLog[n - 1] is action n
// Action n in words with its public cards (games whose notation names none: Decktet Golf),
// made from this page's observations before and after it: it names only what this seat knows.
const described = new Map();

function mergeLog(entries) {
  for (const e of entries) fullLog[e.n - 1] = e;
}

/** Describe the action between two consecutive states this page saw (none for states it
 * missed: a log entry from before the page joined stays notation alone). */
function describeLast(before, msg) {
  if (!game || !game.describe || !before || msg.state_id !== before.state_id + 1) return;
  const entry = fullLog[msg.state_id - 1];
  if (!entry || before.observation.game !== msg.observation.game) return;
  const text = game.describe(before.observation, msg.observation, entry.action);
  if (text) described.set(entry.n, text);
  else described.delete(entry.n);
}

/** Put the whole log in a state message; ask for what is missing (only after a gap). */
function completeLog(msg) {
  mergeLog(msg.log || []);
  fullLog.length = Math.min(fullLog.length, msg.state_id); // shorter after an undo
  for (const n of described.keys()) if (n > msg.state_id) described.delete(n);
  const known = fullLog.findIndex((e) => !e);
  const have = known < 0 ? fullLog.length : known;
  if (have < msg.state_id) conn.send({ type: "log", from: have + 1 });
  msg.log = fullLog.slice(0, have).map((e) => (described.has(e.n) ? { ...e, text: described.get(e.n) } : e));
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
  } else if (before && msg.state_id < before.state_id) {
    const undone = (before.log || []).slice(msg.state_id).map((e) => e.action);
    noticeEvents = [`You took back ${undone.join(", ") || "your last move"}.`];
  }
  const theirs = log.slice(from).filter((e) => e.seat !== msg.seat).slice(-16);
  const groups = [];
  for (const e of theirs) {
    const previous = groups[groups.length - 1];
    if (previous && previous.seat === e.seat) previous.actions.push(e);
    else groups.push({ seat: e.seat, actions: [e] });
  }
  // an action told in words where this page saw it happen (its cards named), else its notation
  const told = (actions) => actions.map((e, i) => [i ? ", " : "", e.text ? e.text : h("code", {}, e.action)]);
  fill($("notice"),
    groups.length ? h("div", {}, h("span", { class: "lead" }, seated ? "Since your last move: " : "Last moves: "),
      groups.map((g, i) => [i ? " · " : "", h("b", {}, seatName(msg, g.seat)), " ", told(g.actions)])) : null,
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
  $("undo").disabled = waiting;
  $("hint").disabled = hintAsked !== null || waiting;
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
  // one action left that waits for a second click: the Play button confirms it
  const confirm = left.length === 1;
  fill(box,
    h("span", { class: "chosen" }, "Chosen: ", picker.selected.map((t) => h("code", {}, t.replace(/^(spot|run|row):/, "$1 ")))),
    h("button", { class: "clear", title: "or press Esc, or click the chosen card again", onclick: () => { picker.clear(); drawChoices(); } }, "✕ clear"),
    h("span", { class: "dim" }, confirm ? " " : ` ${left.length} possible: `),
    shown.map((a) => h("button", { class: confirm ? "act big confirm" : "act", "data-action": a.notation,
      onclick: () => play(a.notation) }, confirm ? ["Play ", h("code", {}, a.notation)] : a.notation)),
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

const bare = `/t/${encodeURIComponent(tableId)}`;

/** A refusal or an ending: `headline` and the rest said in the error box, with what to do
 * next as links. A table drawn before stays as it was last seen, but nothing on it can be
 * played any more, and the turn line says what happened. */
function sayFinal(headline, ...parts) {
  if (last) {
    last = { ...last, legal: [] };
    picker.setLegal([], []);
    drawState(els, last, game);
    drawLegal();
    drawChoices();
    fill(els.turn, headline);
    els.turn.className = "turn over";
    fill(els.situation); // what to do: nothing now
    fill($("you"), "no seat");
    document.body.dataset.toPlay = "";
  }
  showError(h("span", {}, h("b", {}, `${headline} `), ...parts));
  $("notation-form").hidden = true;
  $("undo-row").hidden = true;
  $("hint-row").hidden = true;
  showHint(null);
  updateBar();
}

const watchLink = (text) => h("a", { href: bare, id: "spectate-link" }, text);

function onFinal(code, reason) {
  const error = lastError || {};
  const seat = Number.isInteger(error.seat) ? error.seat : creds.seat;
  const which = Number.isInteger(seat) ? `Seat ${seat + 1}` : "This seat";
  if (code === 4001 && creds.secret) store.forgetSeat(tableId, creds.seat); // its claim ended with the old invite
  if (code === 4001 && creds.from === "legacy") store.forgetLegacyInvite(tableId);
  if (code === 4001 && creds.from !== "link") {
    sayFinal(`${which} is no longer this browser's.`, "The table's creator re-issued its invite. Ask " +
      "the creator for the new link to play, or ", watchLink("watch the table"), ".");
    return;
  }
  if (code === 4003) {
    if (creds.from === "legacy") store.forgetLegacyInvite(tableId);
    const held = store.seatForInvite(tableId, creds.token);
    if (held && !creds.secret) { // another tab of this browser claimed it a moment ago: join as that tab did
      creds = { ...creds, secret: held.secret };
      conn.open();
      return;
    }
    sayFinal(`${which} is taken.`, "Another browser opened this invite link first, and the seat stays with " +
      "that browser. If that was you, open the link in that browser. Otherwise ask the table's creator to re-issue " +
      "the invite, and open the new link. Meanwhile you can ", watchLink("watch the table"), ".");
    return;
  }
  if (code === 4005) {
    store.forgetSeat(tableId, seat);
    sayFinal(`${which} was handed on.`, "The table's creator re-issued its invite, so this browser no " +
      "longer holds the seat. Ask the creator for the new link to play again, or ", watchLink("watch the table"), ".");
    return;
  }
  if (code === 4006) {
    store.forgetTable(tableId);
    creator.hide();
    sayFinal("This table was closed.", creator.closedHere ? "You closed it: " : "Its creator closed it: ",
      "the game is gone from this server. ",
      h("a", { href: "/" }, "Back to the lobby"), ".");
    return;
  }
  if (code === 4029) {
    sayFinal("This table is full.", "It has as many connections (tabs and spectators) as it takes at once: close a " +
      "tab you do not need, or ", h("a", { href: location.href, onclick: () => location.reload() }, "try again"),
      " later.");
    return;
  }
  if (code === 4004) {
    showError(`No table ${tableId}: it does not exist on this server.`);
    return;
  }
  refusedLink(reason);
}

/** The link's invite was refused: say so, and offer the seat kept in this browser (if any)
 * or the spectator's view, as links. */
function refusedLink(reason) {
  const offer = store.heldSeats(tableId).length
    ? ["This browser holds a seat at this table: ", h("a", { href: bare, id: "saved-seat" }, "back to your seat"), "."]
    : ["Ask for a new invite link, or ", watchLink("watch as a spectator"), "."];
  sayFinal("The seat token in this link was refused:", `${reason || "bad token"}. `, offer);
}

const wsUrl = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/tables/${encodeURIComponent(tableId)}`;
const textPanel = $("text").closest("details");
const joinFields = () => ({ log_from: fullLog.length + 1, text: Boolean(textPanel && textPanel.open) });
const conn = new Connection(wsUrl, () => ({ token: creds.token, secret: creds.secret }),
  { message: onMessage, status: onStatus, final: onFinal, joinFields });
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
  const typing = ev.target && ["INPUT", "TEXTAREA", "SELECT"].includes(ev.target.tagName);
  if ((ev.ctrlKey || ev.metaKey) && ev.key.toLowerCase() === "z" && !typing && canUndo(last)) {
    ev.preventDefault();
    undo();
  }
  if (ev.key === "h" && !ev.ctrlKey && !ev.metaKey && !ev.altKey && !typing && canHint(last)) askHint();
});
$("undo").addEventListener("click", undo);
$("hint").addEventListener("click", askHint);
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
