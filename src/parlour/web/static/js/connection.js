// The table's WebSocket: join with the seat's invite and/or secret, reconnect with back-off
// when it drops, keep-alive pings. The close codes of docs/web.md are final: 4001 (bad token),
// 4003 (seat held by another browser), 4004 (unknown table), 4005 (seat re-issued),
// 4006 (table closed), 4029 (table full).

const FINAL = new Set([4001, 4003, 4004, 4005, 4006, 4029]);
const PING_MS = 20000;

export class Connection {
  /**
   * @param {string} url  ws://host/ws/tables/{id}
   * @param {() => {token: string|null, secret: string|null}} join  what to join with (both null: spectator)
   * @param {{message: (m: object) => void, status: (s: string, detail?: string) => void,
   *          final?: (code: number, reason: string) => void, joinFields?: () => object}} on
   *        joinFields: more fields of the join message (e.g. log_from)
   */
  constructor(url, join, on) {
    this.url = url;
    this.join = join;
    this.on = on;
    this.tries = 0;
    this.stopped = false;
    this.ws = null;
    this.timer = null;
  }

  open() {
    this.stopped = false;
    this.on.status(this.tries ? "reconnecting" : "connecting");
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => {
      ws.send(JSON.stringify({ type: "join", ...this.join(), ...(this.on.joinFields ? this.on.joinFields() : {}) }));
      this.pinger = setInterval(() => this.send({ type: "ping" }), PING_MS);
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (msg.type === "joined") {
        this.tries = 0;
        this.on.status("connected");
      }
      this.on.message(msg);
    };
    ws.onclose = (ev) => {
      clearInterval(this.pinger);
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.stopped) return;
      if (FINAL.has(ev.code)) {
        this.on.status("closed", ev.reason);
        if (this.on.final) this.on.final(ev.code, ev.reason);
        return;
      }
      this.retry();
    };
  }

  retry() {
    this.tries += 1;
    const wait = Math.min(500 * 1.5 ** (this.tries - 1), 5000); // 0.5 s, 0.75 s, ... at most 5 s
    this.on.status("reconnecting", `in ${(wait / 1000).toFixed(1)} s`);
    this.timer = setTimeout(() => this.open(), wait);
  }

  /** Send a message; false when the socket is not open (the caller says so). */
  send(obj) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(obj));
    return true;
  }

  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }
}
