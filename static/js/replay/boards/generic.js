// Fallback drawing for a game without its own board module: the view as nested lists.

import { el } from "../dom.js";

function describeValue(value) {
  if (value === null || value === undefined) return el("span", { class: "muted" }, "—");
  if (Array.isArray(value)) {
    if (value.every((item) => typeof item !== "object" || item === null)) return value.join(", ") || "—";
    return el("ol", {}, value.map((item) => el("li", {}, describeValue(item))));
  }
  if (typeof value === "object") {
    const list = el("dl", { class: "view-tree" });
    for (const [key, item] of Object.entries(value)) list.append(el("dt", {}, key), el("dd", {}, describeValue(item)));
    return list;
  }
  return String(value);
}

export function mount(root) {
  const body = el("div", { class: "board-generic" });
  root.append(body);
  return {
    update(frame) {
      body.replaceChildren(describeValue(frame.view));
    },
  };
}
