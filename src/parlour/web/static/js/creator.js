// The table page's panel for the table's creator, shown only in the browser that made the
// table (it keeps the creator's secret, see seatstore.js): give a person's seat a new invite
// link (the old link and the claim of the browser holding the seat end), or close the table.
// Each asks once more, in place, before it acts.

import { h, fill } from "./dom.js";
import { api } from "./api.js";
import { linkRow } from "./links.js";
import { seatLabel } from "./names.js";
import { adminSecret, forgetTable } from "./seatstore.js";

/** A button that, clicked, asks `question` with a `yes` and a Cancel button; yes runs `action`. */
function confirming(label, question, yes, action, cls) {
  const box = h("span", { class: `confirm ${cls}` });
  const reset = () => fill(box, h("button", { type: "button", class: "ask", onclick: ask }, label));
  const ask = () => fill(box, h("span", { class: "question" }, question), " ",
    h("button", { type: "button", class: "yes", onclick: go }, yes), " ",
    h("button", { type: "button", class: "no", onclick: reset }, "Cancel"));
  const go = async () => {
    fill(box, h("span", { class: "dim" }, "…"));
    try {
      await action();
    } finally {
      reset();
    }
  };
  reset();
  return box;
}

export class CreatorPanel {
  constructor(el, tableId) {
    this.el = el;
    this.tableId = tableId;
    this.drawn = false;
    this.closedHere = false; // this page asked to close the table
  }

  get admin() {
    return adminSecret(this.tableId);
  }

  /** Draw the panel from the first state message (the seats never change), if this browser made the table. */
  show(msg) {
    if (this.drawn || !this.admin) return;
    this.drawn = true;
    this.note = h("div", { class: "creator-note error", role: "alert", hidden: true });
    fill(this.el, h("h3", {}, "Your table"),
      h("div", { class: "dim small" }, "This browser made the table. A new invite link for a seat ends the old link, " +
        "and the browser holding the seat loses it."),
      (msg.players || []).filter((p) => p.kind === "human").map((p) => this.seatRow(p)),
      h("div", { class: "creator-close" }, confirming("Close table", "Close it for everyone? The game and its record are " +
        "deleted.", "Close the table", () => this.closeTable(), "close")),
      this.note);
    this.el.hidden = false;
  }

  hide() {
    this.el.hidden = true;
  }

  seatRow(p) {
    const link = h("div", { class: "reissued" });
    const name = `${p.name} (${seatLabel(p.seat)})`;
    return h("div", { class: "creator-seat", "data-seat": p.seat },
      h("div", { class: "creator-seat-head" }, h("span", {}, name),
        confirming("Re-issue invite", `A new link for ${seatLabel(p.seat)}?`, "Re-issue", () => this.reissue(p, name, link),
          "reissue")),
      link);
  }

  request(path, method, json) {
    return api(path, { method, json, headers: { Authorization: `Bearer ${this.admin}` } });
  }

  async reissue(p, name, link) {
    this.say("");
    try {
      const answer = await this.request(`/api/tables/${encodeURIComponent(this.tableId)}/seats/${p.seat}/invite`, "POST", {});
      fill(link, linkRow("New invite", answer.invite, "invite"),
        h("div", { class: "dim small" }, `Send it to ${p.name}: the first browser that opens it takes ${seatLabel(p.seat)}.`));
    } catch (e) {
      this.say(`The invite of ${name} was not re-issued: ${e.message}`);
    }
  }

  async closeTable() {
    this.say("");
    this.closedHere = true; // before the answer: the socket's close may come first
    try {
      await this.request(`/api/tables/${encodeURIComponent(this.tableId)}`, "DELETE");
      forgetTable(this.tableId);
    } catch (e) {
      this.closedHere = false;
      this.say(`The table was not closed: ${e.message}`);
    }
  }

  say(text) {
    fill(this.note, text);
    this.note.hidden = !text;
  }
}
