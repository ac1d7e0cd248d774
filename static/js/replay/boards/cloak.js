// Cloak & Dagger: the 20 envelopes. All-seeing: their true contents. A seat: its check
// sheet — what it last saw in each envelope and when, and what it learnt happened since.

import { el, htmlChips, legendMark, panel, seatColors, svg, svgChips, tip } from "./common.js";
import { gettext, interpolate, ngettext } from "../../i18n.js";

//: envelopes per row: five on a wide screen; three on a phone, so that the numbers and
//: cards inside stay big enough to read (five to a row drew them 5 px high at 390 px)
const WIDE_COLUMNS = 5;
const PHONE_COLUMNS = 3;
const CELL_W = 196;
const CELL_H = 150;
const PAD = 4;
const DOCUMENTS = new Set(["X", "Y", "Z"]);
const DOUBLE_AGENTS = new Set(["a", "b", "c"]);

function cardColor(card, colors, ownerOf) {
  if (DOCUMENTS.has(card)) return "#b8860b";
  if (ownerOf[card] && colors[ownerOf[card]]) return colors[ownerOf[card]];
  if (DOUBLE_AGENTS.has(card)) return "#5b2a86";
  return "#777"; // hazards, and the spies of pairs out of the game
}

function cardCount(count) {
  return interpolate(ngettext("%(count)s card", "%(count)s cards", count), { count });
}

// What a seat did at an envelope since this sheet last saw inside it, short enough for
// the envelope's cell: "t5 p2 took D" (turn, seat id, what, the card shown).
/** ``t6 alice placed a card``: an event in an envelope since it was seen; ``who(seat)``
 * names the seat as the table does (its player). */
function describeEvent(event, who) {
  const what = ({ place: gettext("placed a card"), take: gettext("took"), drop: gettext("dropped its hand"),
    hazard: gettext("hazard") })[event.type] || event.type;
  const parts = [interpolate(gettext("t%(turn)s"), { turn: event.turn }), who(event.seat), what];
  if (event.spy) parts.push(event.spy);
  if (event.card) parts.push(event.card);
  return parts.join(" ");
}

const LEGEND_MARKS = {
  "envelope.current": () => svg("rect", { x: 2, y: 2, width: 20, height: 12, rx: 2, fill: "none", stroke: "#b45309", "stroke-width": 2.5 }),
  "envelope.won": () => svg("rect", { x: 2, y: 2, width: 20, height: 12, rx: 2, fill: "#fff4cc", stroke: "#b8860b", "stroke-width": 2.5 }),
  "envelope.unknown": () => svg("text", { x: 12, y: 14, "text-anchor": "middle", "font-size": 14, "font-weight": 700, fill: "#888" }, "?"),
};

/** The drawing of a legend mark (``engine`` legend keys), or null for a text-only entry. */
export function swatch(mark) {
  const draw = LEGEND_MARKS[mark];
  return draw ? legendMark(draw()) : null;
}

export function mount(root, payload) {
  const colors = seatColors(payload.seats);
  // The engine's static view names each seat's spy pair (CD-1.3) and the envelope count.
  const ownerOf = {};
  for (const [seat, pair] of Object.entries(payload.static.spies)) for (const spy of pair) ownerOf[spy] = seat;
  const envelopeCount = payload.static.envelopes;
  // A seat as players call it, in the reader's language (the frames' seat_labels).
  const seatLabel = (seat) => payload.seat_labels?.[seat] || seat;
  // A seat in a short note: its player ("alice"), else as the table calls it.
  const playerOf = (seat) => (payload.seats || []).find((s) => s.seat === seat)?.player || seatLabel(seat);
  const eventText = (event) => describeEvent(event, playerOf);
  const chipColor = (card) => cardColor(card, colors, ownerOf);
  const COLUMNS = (root.getBoundingClientRect().width || 1000) < 560 ? PHONE_COLUMNS : WIDE_COLUMNS;
  const rows = Math.ceil(envelopeCount / COLUMNS);
  const drawing = svg("svg", {
    viewBox: `0 0 ${COLUMNS * CELL_W + PAD * 2} ${rows * CELL_H + PAD * 2}`,
    class: "cloak-board",
    role: "img",
    "aria-label": payload.viewer === "all" ? interpolate(gettext("The %(count)s envelopes and their contents"), { count: envelopeCount })
      : interpolate(gettext("%(seat)s's check sheet"), { seat: payload.seat_labels?.[payload.viewer] || payload.viewer }),
  });
  const panels = el("div", { class: "board-panels" });
  const sheet = el("div", { class: "cloak-sheet" });
  root.append(drawing, panels, sheet);

  function envelopeCell(n, frame) {
    const view = frame.view;
    const i = n - 1;
    const x = PAD + (i % COLUMNS) * CELL_W;
    const y = PAD + Math.floor(i / COLUMNS) * CELL_H;
    const acted = frame.action && frame.action.envelope === n;
    const won = view.win && view.win.envelope === n;
    const cls = ["envelope", acted ? "env-current" : "", won ? "env-won" : ""].join(" ").trim();
    const group = svg("g", { class: cls, "data-envelope": n });
    group.append(
      svg("rect", { x: x + 3, y: y + 3, width: CELL_W - 6, height: CELL_H - 6, rx: 8, class: "env-box" }),
      svg("text", { x: x + 12, y: y + 28, class: "env-number" }, String(n)),
    );
    if (view.envelopes) {
      const contents = view.envelopes[i].contents;
      group.setAttribute("data-contents", contents.join(","));
      group.append(svgChips(contents, x + 12, y + 42, { colorOf: chipColor }));
      if (!contents.length) group.append(svg("text", { x: x + 12, y: y + 62, class: "env-note" }, gettext("empty")));
      return group;
    }
    const entry = view.check_sheet[i];
    group.setAttribute("data-seen", entry.seen === null ? "never" : entry.seen.join(","));
    group.setAttribute("data-since", String(entry.since.length));
    if (entry.seen === null) {
      group.append(svg("text", { x: x + CELL_W / 2, y: y + 80, class: "env-unknown", "text-anchor": "middle" }, "?"));
    } else {
      group.append(svg("text", { x: x + CELL_W - 12, y: y + 28, class: "env-note", "text-anchor": "end" }, interpolate(gettext("seen t%(turn)s"), { turn: entry.seen_turn })));
      group.append(svgChips(entry.seen, x + 12, y + 42, { colorOf: chipColor }));
      if (!entry.seen.length) group.append(svg("text", { x: x + 12, y: y + 62, class: "env-note" }, gettext("empty")));
    }
    if (entry.since.length) {
      const lines = entry.since.map(eventText);
      const shown = lines.slice(-2);
      const more = lines.length - shown.length;
      const since = svg("g", { class: "env-since" }, tip(interpolate(gettext("Since: %(events)s"), { events: lines.join("; ") })));
      shown.forEach((line, k) => since.append(svg("text", { x: x + 12, y: y + 112 + k * 18, class: "env-event" }, line)));
      if (more) since.append(svg("text", { x: x + CELL_W - 12, y: y + 28 + 18, class: "env-note", "text-anchor": "end" }, interpolate(gettext("+%(count)s more"), { count: more })));
      group.append(since);
    }
    return group;
  }

  function renderPanels(frame) {
    const view = frame.view;
    const boxes = [];
    boxes.push(panel(gettext("To act"), view.winner ? el("strong", {}, frame.result_sentence || interpolate(gettext("%(seat)s won"), { seat: seatLabel(view.winner) }))
      : (view.to_act ? seatLabel(view.to_act) : "—")));
    // A live game: the envelope the seat to act has picked up and looked into (CD-3).
    for (const [seat, opened] of Object.entries(view.opened || {})) {
      boxes.push(panel(interpolate(gettext("%(seat)s opened envelope %(envelope)s"), { seat: seatLabel(seat), envelope: opened.envelope }),
        el("span", { "data-opened": String(opened.envelope) }, ...(opened.contents.length ? htmlChips(opened.contents) : [gettext("empty")]))));
    }
    if (view.hands) {
      const list = el("ul", {});
      for (const [seat, cards] of Object.entries(view.hands)) {
        list.append(el("li", { "data-hand": seat }, el("span", { style: `color:${colors[seat]}` }, `${seatLabel(seat)} `), ...htmlChips(cards)));
      }
      boxes.push(panel(gettext("Hands"), list));
      boxes.push(panel(gettext("Pile"), view.pile ? htmlChips(view.pile) : cardCount(view.pile_size)));
    } else {
      if (view.viewer !== "public") {
        boxes.push(panel(interpolate(gettext("%(seat)s's hand"), { seat: seatLabel(view.viewer) }), el("span", { "data-hand": view.viewer }, ...htmlChips(view.hand))));
      }
      const sizes = el("ul", {});
      for (const [seat, size] of Object.entries(view.hand_sizes)) {
        if (seat !== view.viewer) sizes.append(el("li", {}, `${seatLabel(seat)}: ${cardCount(size)}`));
      }
      boxes.push(panel(gettext("Others' hands"), sizes));
      boxes.push(panel(gettext("Pile"), cardCount(view.pile_size)));
      if (view.spies_shown.length) {
        const shown = view.spies_shown.slice(-4).map((e) => el("li", {}, interpolate(gettext("turn %(turn)s: %(seat)s showed %(spy)s"), { turn: e.turn, seat: seatLabel(e.seat), spy: e.spy })));
        boxes.push(panel(gettext("Spies shown"), el("ul", {}, ...shown)));
      }
    }
    const owed = Object.entries(view.must_tell || {});
    if (owed.length) boxes.push(panel(gettext("Must tell"), el("ul", {}, ...owed.map(([s, to]) => el("li", {}, `${seatLabel(s)} → ${to.map(seatLabel).join(", ")}`)))));
    if (view.win) boxes.push(panel(gettext("Win"), interpolate(gettext("%(seat)s: envelope %(envelope)s holds %(contents)s"),
      { seat: seatLabel(view.win.seat), envelope: view.win.envelope, contents: view.win.contents.join(" ") })));
    panels.replaceChildren(...boxes);
  }

  function renderSheet(frame) {
    const view = frame.view;
    if (!view.check_sheet) {
      sheet.replaceChildren();
      return;
    }
    const body = el("tbody", {});
    for (const entry of view.check_sheet) {
      body.append(
        el("tr", { "data-envelope": entry.envelope },
          el("td", {}, String(entry.envelope)),
          el("td", {}, entry.seen === null ? el("span", { class: "muted" }, gettext("never opened")) : entry.seen.join(" ") || gettext("empty")),
          el("td", {}, entry.seen_turn === null ? "" : interpolate(gettext("turn %(turn)s"), { turn: entry.seen_turn })),
          el("td", {}, entry.since.map(eventText).join("; ")),
        ),
      );
    }
    sheet.replaceChildren(
      el("details", { class: "cloak-sheet-table" },
        el("summary", {}, interpolate(gettext("%(seat)s's check sheet as a table"), { seat: seatLabel(view.viewer) })),
        el("table", { class: "table" },
          el("thead", {}, el("tr", {}, el("th", {}, gettext("Envelope")), el("th", {}, gettext("Last seen")), el("th", {}, gettext("When")), el("th", {}, gettext("Since then")))),
          body)),
    );
  }

  return {
    update(frame) {
      const cells = [];
      for (let n = 1; n <= envelopeCount; n += 1) cells.push(envelopeCell(n, frame));
      drawing.replaceChildren(...cells);
      renderPanels(frame);
      renderSheet(frame);
    },
  };
}

// The recorder's entry: at the table a player picks up an envelope first, then decides
// what to do in it.
export function entryHints() {
  return { order: ["envelope", "type"] };
}
