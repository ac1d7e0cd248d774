// Cryptid: Urban Legends: the two staggered rows of blocks as a checkerboard (the
// scientist's row on top, the cryptid's below), sensors as coloured discs in their
// spaces, presence and evidence markers, the active row highlighted, the declared
// trace with its matching blocks outlined, and each seat's hand, deck and wild card.

import { el, htmlChips, legendMark, panel, svg, tip } from "./common.js";
import { gettext, interpolate, ngettext } from "../../i18n.js";

const CELL = 80;
const WIDTH_CELLS = 9; // 4 + 3 blocks and their spaces: the widest the table gets (CUL-4.1)

/** Narrows an SVG ``text`` wider than ``room`` (user units) to fit it, but never below
 * ``least`` of its own width (past that it would be unreadable). */
function narrow(text, room, least = 0) {
  const width = text.getComputedTextLength?.() ?? 0;
  if (width <= room) return;
  text.setAttribute("textLength", String(Math.max(room, least * width)));
  text.setAttribute("lengthAdjust", "spacingAndGlyphs");
}

const ROW_Y = { scientist: 40, cryptid: 40 + CELL };
const SENSOR_FILL = { red: "#e05a79", white: "#ffffff", black: "#1f2328" };
const COLOR_ORDER = ["red", "white", "black"];
const TRACE_PHASES = new Set(["hiding", "blockade", "relocate", "expansion", "over"]);

function sensorText(group) {
  return COLOR_ORDER.filter((c) => group[c]).map((c) => `${c[0]}${group[c]}`).join("");
}

function colourName(colour) {
  return ({ red: gettext("red"), white: gettext("white"), black: gettext("black") })[colour] || colour;
}

function traceText(trace) {
  if (!trace) return gettext("none yet");
  return trace.count !== undefined ? interpolate(ngettext("%(count)s sensor", "%(count)s sensors", trace.count), { count: trace.count })
    : interpolate(gettext("colours %(colours)s"), { colours: trace.colors.map(colourName).join(" + ") });
}

// Legend marks are drawn with their own attributes, never the board's classes, so that
// nothing that selects the board's shapes finds them.
const LEGEND_MARKS = {
  "sensor.red": () => svg("circle", { cx: 12, cy: 8, r: 6, fill: SENSOR_FILL.red, stroke: "#1f2328" }),
  "sensor.white": () => svg("circle", { cx: 12, cy: 8, r: 6, fill: SENSOR_FILL.white, stroke: "#1f2328" }),
  "sensor.black": () => svg("circle", { cx: 12, cy: 8, r: 6, fill: SENSOR_FILL.black, stroke: "#1f2328" }),
  presence: () => svg("circle", { cx: 12, cy: 8, r: 6, fill: "#f97316", stroke: "#fff" }),
  evidence: () => svg("rect", { x: 7, y: 3, width: 10, height: 10, transform: "rotate(45 12 8)", fill: "#facc15", stroke: "#854d0e" }),
  mysterious: () => svg("rect", { x: 4, y: 1, width: 16, height: 14, rx: 2, fill: "#5b3f8c", stroke: "#4b463f" }),
  active: () => svg("rect", { x: 1, y: 2, width: 22, height: 12, fill: "#f59e0b22", stroke: "#f59e0b", "stroke-width": 1.5 }),
  match: () => svg("rect", { x: 5, y: 2, width: 14, height: 12, rx: 2, fill: "#8b8172", stroke: "#f59e0b", "stroke-width": 3 }),
  last: () => svg("rect", { x: 3, y: 2, width: 18, height: 12, rx: 3, fill: "none", stroke: "#b45309", "stroke-width": 2.5 }),
};

/** The drawing of a legend mark (``engine`` legend keys), or null for a text-only entry. */
export function swatch(mark) {
  const draw = LEGEND_MARKS[mark];
  return draw ? legendMark(draw()) : null;
}

export function mount(root, payload) {
  const drawing = svg("svg", { viewBox: `0 0 ${WIDTH_CELLS * CELL} ${2 * CELL + 80}`, class: "cul-board", role: "img", "aria-label": gettext("The two rows of city blocks") });
  const panels = el("div", { class: "board-panels" });
  root.append(drawing, panels);
  // A seat as players call it, in the reader's language (the frames' seat_labels).
  const seatLabel = (seat) => payload.seat_labels?.[seat] || seat;
  // A movement card as the editions name it (Split, 分散, Разделение): the frames' card_words.
  const cardName = (card) => payload.card_words?.[card] || card;

  // What the last move changed: spaces whose sensors differ from the frame before, and
  // blocks that were not on the table then (an expansion).
  function changes(view, before) {
    const spaces = new Set();
    const blocks = new Set();
    if (!before) return { spaces, blocks };
    const had = new Set();
    for (const seat of ["scientist", "cryptid"]) for (const b of before.rows[seat].blocks) had.add(b.id);
    for (const seat of ["scientist", "cryptid"]) {
      const now = view.rows[seat].spaces;
      const then = before.rows[seat].spaces;
      now.forEach((group, i) => {
        if (sensorText(group) !== sensorText(then[i] || {})) spaces.add(`${seat}:${i}`);
      });
      for (const b of view.rows[seat].blocks) if (!had.has(b.id)) blocks.add(b.id);
    }
    return { spaces, blocks };
  }

  function drawRows(view, before) {
    const changed = changes(view, before);
    const rows = view.rows;
    const longest = Math.max(rows.scientist.blocks.length, rows.cryptid.blocks.length);
    const used = 2 * longest + 1;
    // x in half-block units (CUL-2.1): the longer row's blocks at even x, its spaces at odd x.
    const left = ((WIDTH_CELLS - used) / 2 + 1) * CELL;
    const showTrace = view.trace && TRACE_PHASES.has(view.phase);
    const matching = new Set(showTrace ? view.trace.matching || [] : []);
    const parts = [];
    for (const seat of ["scientist", "cryptid"]) {
      const row = rows[seat];
      const longer = row.blocks.length === longest;
      const y = ROW_Y[seat];
      const active = view.active_row === seat;
      parts.push(svg("rect", { x: 0, y, width: WIDTH_CELLS * CELL, height: CELL, class: `cul-row-band${active ? " cul-active" : ""}`, "data-row": seat, "data-role": row.role }));
      // Where the row's first space or block begins: its label should end before it.
      const rowStart = left + (longer ? -CELL : 0);
      parts.push(svg("text", { x: 6, y: y + 14, class: "cul-row-label", "data-room": rowStart - 10 }, active ? interpolate(gettext("%(seat)s · active"), { seat: seatLabel(seat) }) : seatLabel(seat)));
      row.blocks.forEach((block, j) => {
        const x = left + (longer ? 2 * j : 2 * j + 1) * CELL;
        const cls = ["cul-block", `cul-${block.kind}`, matching.has(block.id) ? "cul-match" : "", changed.blocks.has(block.id) ? "cul-last" : ""].join(" ").trim();
        const g = svg("g", { class: cls, "data-block": block.id, "data-kind": block.kind, "data-presence": String(block.presence), "data-evidence": String(block.evidence) },
          svg("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 4 }),
          svg("text", { x: x + 8, y: y + 20, class: "cul-block-id" }, block.id),
          tip(`${block.id} (${block.kind === "mysterious" ? gettext("mysterious block") : gettext("normal block")})${block.presence ? gettext(", presence marker") : ""}${block.evidence ? gettext(", evidence marker") : ""}`));
        if (block.kind === "mysterious") g.append(svg("text", { x: x + CELL - 10, y: y + 22, class: "cul-mystery", "text-anchor": "end" }, "?"));
        if (block.presence) g.append(svg("circle", { cx: x + CELL / 2 - 12, cy: y + CELL / 2 + 12, r: 12, class: "cul-presence" }));
        if (block.evidence) g.append(svg("rect", { x: x + CELL / 2 + 2, y: y + CELL / 2 + 2, width: 20, height: 20, class: "cul-evidence", transform: `rotate(45 ${x + CELL / 2 + 12} ${y + CELL / 2 + 12})` }));
        parts.push(g);
      });
      row.spaces.forEach((group, i) => {
        const x = left + (longer ? 2 * i - 1 : 2 * i) * CELL;
        const last = changed.spaces.has(`${seat}:${i}`);
        // Spaces are numbered from 1 on the left, as the move sentences count them.
        const g = svg("g", { class: `cul-space${last ? " cul-last" : ""}`, "data-row": seat, "data-index": i, "data-sensors": sensorText(group) },
          svg("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 4, class: last ? "cul-space-box cul-last-space" : "cul-space-box" }),
          svg("text", { x: x + CELL - 8, y: y + CELL - 8, class: "cul-space-number", "text-anchor": "end" }, String(i + 1)));
        let k = 0;
        for (const color of COLOR_ORDER) {
          for (let n = 0; n < (group[color] || 0); n += 1) {
            const cx = x + 18 + (k % 3) * 22;
            const cy = y + 18 + Math.floor(k / 3) * 22;
            g.append(svg("circle", { cx, cy, r: 9, fill: SENSOR_FILL[color], class: "cul-sensor", "data-color": color }));
            k += 1;
          }
        }
        if (k) g.append(tip(`${interpolate(ngettext("%(count)s sensor", "%(count)s sensors", k), { count: k })}: ${COLOR_ORDER.filter((c) => group[c]).map((c) => `${group[c]} ${colourName(c)}`).join(", ")}`));
        parts.push(g);
      });
    }
    const caption = showTrace
      ? (view.trace.matching?.length
        ? interpolate(gettext("Trace: %(trace)s — matching %(blocks)s"), { trace: traceText(view.trace), blocks: view.trace.matching.join(", ") })
        // Its own sentence: "matching no block" does not translate word for word.
        : interpolate(gettext("Trace: %(trace)s — no block matches"), { trace: traceText(view.trace) }))
      : interpolate(gettext("Round %(round)s"), { round: view.round });
    const captionText = svg("text", { x: 6, y: 2 * CELL + 68, class: "cul-caption", "data-trace": showTrace ? "shown" : "" }, caption);
    parts.push(captionText);
    drawing.replaceChildren(...parts);
    // SVG text does not wrap: a long caption (a trace said in Russian, in a phone's larger
    // type) is narrowed to the board's width rather than cut off at its edge.
    narrow(captionText, WIDTH_CELLS * CELL - 12);
    // A row's label (Japanese at a phone's size) likewise, down to 70 % of its width.
    for (const label of drawing.querySelectorAll(".cul-row-label")) narrow(label, Number(label.dataset.room), 0.7);
  }

  function seatPanel(view, seat) {
    const hand = view.hands[seat];
    const deck = view.decks[seat];
    const held = view.evidence_held[seat];
    return panel(seatLabel(seat),
      el("div", { "data-hand": seat }, gettext("Hand:"), " ", ...(hand.cards ? htmlChips(hand.cards, 0, payload.card_words) : htmlChips([], hand.size))),
      el("div", {}, interpolate(gettext("Deck: %(count)s"), { count: deck.size }), deck.cards ? el("span", { class: "muted" }, ` (${deck.cards.map(cardName).join(", ") || gettext("empty")})`) : ""),
      el("div", {}, gettext("Discards:"), " ", ...htmlChips(view.discards[seat], 0, payload.card_words)),
      el("div", { "data-wild": seat }, interpolate(gettext("Wild card: %(card)s"), { card: ({ up: gettext("face up"), down: gettext("face down") })[view.wild[seat]] || view.wild[seat] })),
      el("div", {}, interpolate(gettext("Evidence held: %(count)s"), { count: held })));
  }

  function renderPanels(frame) {
    const view = frame.view;
    const boxes = [];
    const status = view.result
      ? frame.result_sentence || interpolate(gettext("%(seat)s won"), { seat: seatLabel(view.result.winner) })
      : interpolate(gettext("Round %(round)s, %(phase)s; to act: %(seats)s"), { round: view.round, phase: payload.phases?.[view.phase] || view.phase,
        seats: view.to_act.map(seatLabel).join(", ") || gettext("nobody") });
    boxes.push(panel(gettext("Game"), el("span", {}, status)));
    boxes.push(seatPanel(view, "cryptid"), seatPanel(view, "scientist"));
    const blocks = view.block_deck;
    boxes.push(panel(gettext("Supply"),
      el("div", {}, interpolate(gettext("Block deck: %(count)s (%(normal)s normal on top)"), { count: blocks.size, normal: blocks.normal_on_top })),
      blocks.blocks ? el("div", { class: "muted" }, blocks.blocks.join(" ")) : "",
      view.drawn_blocks ? el("div", {}, interpolate(gettext("Drawn: %(blocks)s"), { blocks: view.drawn_blocks.join(", ") })) : "",
      el("div", {}, interpolate(gettext("Presence markers in supply: %(count)s"), { count: view.presence_supply })),
      view.displaced ? el("div", {}, interpolate(gettext("To relocate: %(sensors)s"), { sensors: sensorText(view.displaced) })) : "",
      el("div", {}, interpolate(gettext("Last trace: %(trace)s"), { trace: traceText(view.trace) }))));
    panels.replaceChildren(...boxes);
  }

  return {
    update(frame, { frames, ply } = {}) {
      drawRows(frame.view, frames && ply > 0 ? frames[ply - 1].view : null);
      renderPanels(frame);
    },
  };
}

// The recorder's entry: a card, then where it acts.
export function entryHints() {
  return { order: ["type", "card", "as", "space", "color", "dir"] };
}
