// A link to hand on: the full address in a read-only field, a copy button and an open link
// (the lobby's invite links, the table page's re-issued invite).

import { h } from "./dom.js";

export function absolute(path) {
  return new URL(path, location.href).href;
}

/** A row: who the link is for, the address, "copy", "open". */
export function linkRow(who, path, cls) {
  const url = absolute(path);
  const input = h("input", { type: "text", class: "link", value: url, readonly: true, onclick: (e) => e.target.select() });
  const copy = h("button", { type: "button", onclick: async () => {
    try {
      await navigator.clipboard.writeText(url);
      copy.textContent = "copied";
    } catch {
      input.select();
    }
  } }, "copy");
  return h("div", { class: `link-row ${cls}` }, h("span", { class: "who" }, who), input, copy,
    h("a", { href: path, target: "_blank", rel: "noopener" }, "open"));
}
