// Pieces every board module uses: seat colours, card chips, side panels.

import { el, svg, tip } from "../dom.js";
import { gettext } from "../../i18n.js";

/** One colour per seat in seat order, distinguishable on light and dark backgrounds. */
export const SEAT_PALETTE = ["#d1495b", "#2e86ab", "#3a9d5d", "#e0a100", "#7b4fa0", "#6b6b6b"];

export function seatColors(seats) {
  const colors = {};
  seats.forEach((entry, i) => {
    colors[entry.seat] = SEAT_PALETTE[i % SEAT_PALETTE.length];
  });
  return colors;
}

/** A row of SVG chips, one per card, starting at (x, y); wraps after ``perRow``. */
export function svgChips(cards, x, y, { colorOf, width = 30, height = 26, gap = 4, perRow = 5, font = 16 } = {}) {
  const group = svg("g", { class: "chips" });
  cards.forEach((card, i) => {
    const cx = x + (i % perRow) * (width + gap);
    const cy = y + Math.floor(i / perRow) * (height + gap);
    const fillColor = colorOf ? colorOf(card) : "#eee";
    group.append(
      svg("g", { class: "chip", "data-card": card },
        svg("rect", { x: cx, y: cy, width, height, rx: 4, fill: fillColor, stroke: "#0003" }),
        svg("text", { x: cx + width / 2, y: cy + height / 2 + font * 0.35, "text-anchor": "middle", "font-size": font, fill: "#fff", "font-weight": 700 }, card),
      ),
    );
  });
  return group;
}

/** An HTML panel: a heading and a body. */
export function panel(title, ...body) {
  return el("section", { class: "board-panel" }, el("h3", {}, title), ...body);
}

/** HTML chips for a list of cards; ``hiddenCount`` adds that many face-down chips. A card
 * reads as ``words`` names it (the payload's ``card_words``: "car (double move)"), its log
 * id (``car/double``, what the notation writes) on hover. */
export function htmlChips(cards, hiddenCount = 0, words = null) {
  const named = words || {};
  const chips = cards.map((card) => named[card]
    ? el("span", { class: "card-chip", "data-card": card, title: card }, named[card])
    : el("span", { class: "card-chip", "data-card": card }, card));
  for (let i = 0; i < hiddenCount; i += 1) chips.push(el("span", { class: "card-chip hidden-card" }, "?"));
  return chips.length ? chips : [el("span", { class: "muted" }, gettext("none"))];
}

export { el, svg, tip };

/** A small inline drawing for a legend entry: ``parts`` are SVG shapes in a 24×16 box. */
export function legendMark(...parts) {
  return svg("svg", { class: "legend-mark", viewBox: "0 0 24 16", width: 24, height: 16, "aria-hidden": "true" }, ...parts);
}
