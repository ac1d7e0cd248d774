// Mister X: the board's cities and coloured connections at their coordinates, the
// pawns, Mister X's true path (all-seeing, his own view) or only his revealed positions
// (detectives), the cities he could be in given what the detectives know, the ticket
// board and the racks the perspective may see.

import { el, htmlChips, legendMark, panel, svg, tip } from "./common.js";
import { panZoom } from "./panzoom.js";
import { gettext, interpolate, ngettext, pageLanguage } from "../../i18n.js";

//: City names are this many screen pixels high at every zoom; more of them show as the
//: map is zoomed in, largest cities first, never two overlapping.
const LABEL_PX = 12;
//: A map narrower than this many screen pixels (a phone) follows the action: it frames
//: the last move and the pieces near it instead of the whole board.
const FOLLOW_BELOW_PX = 640;

/** A name's width in ems, letter by letter: kana and kanji are a whole em wide, Cyrillic
 * letters wider than Latin ones. */
function nameEms(name) {
  let width = 0;
  for (const ch of name) {
    if (/[\u3000-\u9fff\uff00-\uffef]/.test(ch)) width += 1.0;
    else if (/[\u0400-\u04ff]/.test(ch)) width += 0.64;
    else width += 0.58;
  }
  return width;
}

const TRANSPORT_COLORS = { car: "#9aa0a6", train: "#d1495b", plane: "#2e86ab" };
const PAWN_COLORS = { red: "#d62828", blue: "#1d4ed8", green: "#15803d", yellow: "#eab308", black: "#111827" };

function octagon(x, y, r) {
  const points = [];
  for (let k = 0; k < 8; k += 1) {
    const a = Math.PI / 8 + (k * Math.PI) / 4;
    points.push(`${(x + r * Math.cos(a)).toFixed(1)},${(y + r * Math.sin(a)).toFixed(1)}`);
  }
  return points.join(" ");
}

// Legend marks are drawn with their own attributes, never the board's classes, so that
// nothing that selects the board's shapes finds them.
const LEGEND_MARKS = {
  "line.car": () => svg("line", { x1: 1, y1: 8, x2: 23, y2: 8, stroke: TRANSPORT_COLORS.car, "stroke-width": 2 }),
  "line.train": () => svg("line", { x1: 1, y1: 8, x2: 23, y2: 8, stroke: TRANSPORT_COLORS.train, "stroke-width": 2.5 }),
  "line.plane": () => svg("line", { x1: 1, y1: 8, x2: 23, y2: 8, stroke: TRANSPORT_COLORS.plane, "stroke-width": 2.5, "stroke-dasharray": "5 3" }),
  "line.dashed": () => svg("line", { x1: 1, y1: 8, x2: 23, y2: 8, stroke: TRANSPORT_COLORS.plane, "stroke-width": 2.5, "stroke-dasharray": "5 3" }),
  "halo.possible": () => svg("circle", { cx: 12, cy: 8, r: 7, fill: "#f59e0b", opacity: 0.5 }),
  "city.destination": () => svg("polygon", { points: octagon(12, 8, 6.5), fill: "none", stroke: "#b42318", "stroke-width": 2 }),
  "city.start": () => svg("circle", { cx: 12, cy: 8, r: 6, fill: "none", stroke: "#1a7f37", "stroke-width": 1.5, "stroke-dasharray": "3 2" }),
  pawn: () => svg("circle", { cx: 12, cy: 8, r: 6, fill: PAWN_COLORS.red, stroke: "#000", "stroke-width": 1.5 }),
  mrx: () => svg("rect", { x: 7, y: 3, width: 10, height: 10, transform: "rotate(45 12 8)", fill: "#111", stroke: "#f59e0b", "stroke-width": 1.5 }),
  path: () => svg("line", { x1: 1, y1: 8, x2: 23, y2: 8, stroke: "#111", "stroke-width": 2.5, "stroke-dasharray": "5 3" }),
  last: () => svg("path", { d: "M2 8 H18 M14 4 L20 8 L14 12", fill: "none", stroke: "#b45309", "stroke-width": 2.5 }),
};

/** The drawing of a legend mark (``engine`` legend keys), or null for a text-only entry. */
export function swatch(mark) {
  const draw = LEGEND_MARKS[mark];
  return draw ? legendMark(draw()) : null;
}

export function mount(root, payload) {
  // Each city by its name in the page's language where the board has one (GeoNames').
  const language = pageLanguage();
  // The board's own name too: a shipped board's in the page's language.
  const board = { ...payload.static.board, name: payload.static.board.names?.[language] || payload.static.board.name,
    cities: payload.static.board.cities.map((c) => ({ ...c, name: c.names?.[language] || c.name })) };
  const city = new Map(board.cities.map((c) => [c.id, c]));
  const xs = board.cities.map((c) => c.x);
  const ys = board.cities.map((c) => c.y);
  const margin = 24;
  const box = [Math.min(...xs) - margin, Math.min(...ys) - margin, Math.max(...xs) - Math.min(...xs) + 2 * margin, Math.max(...ys) - Math.min(...ys) + 2 * margin];
  const drawing = svg("svg", { viewBox: box.join(" "), class: "mx-board", role: "img", "aria-label": `${board.name}` });

  // The board never changes: drawn once.
  const lines = svg("g", { class: "mx-connections" });
  for (const [a, b, transport] of board.connections) {
    const p = city.get(a);
    const q = city.get(b);
    lines.append(svg("line", { x1: p.x, y1: p.y, x2: q.x, y2: q.y, class: `mx-line mx-${transport}`, stroke: TRANSPORT_COLORS[transport] }));
  }
  const cities = svg("g", { class: "mx-cities" });
  const labels = new Map();
  for (const c of board.cities) {
    const label = svg("text", { x: c.x + 6, y: c.y - 5, class: "mx-city-name", "data-city": c.id }, c.name);
    labels.set(c.id, label);
    cities.append(
      svg("g", { class: "mx-city", "data-city": c.id },
        svg("circle", { cx: c.x, cy: c.y, r: 4.5 }),
        label,
        tip(`${c.id} ${c.name} (${c.country})`)),
    );
  }
  const overlay = svg("g", { class: "mx-possible-layer" });
  const mission = svg("g", { class: "mx-mission" });
  const trail = svg("g", { class: "mx-trail" });
  const pieces = svg("g", { class: "mx-pieces" });
  drawing.append(overlay, lines, mission, cities, trail, pieces);
  const panels = el("div", { class: "board-panels" });
  const map = el("div", { class: "mx-map" }, drawing);
  const caption = el("p", { class: "board-caption" },
    interpolate(gettext("Board: %(board)s."), { board: board.name }), " ",
    gettext("Zoom with the buttons, the mouse wheel or two fingers; drag to move."));
  root.append(map, caption, panels);

  const at = (id) => city.get(id);
  // A seat as players call it, in the reader's language (the frames' seat_labels).
  const seatLabel = (seat) => payload.seat_labels?.[seat] || seat;
  const ticketCount = (count) => interpolate(ngettext("%(count)s ticket", "%(count)s tickets", count), { count });
  const colourName = (pawn) => ({ red: gettext("red"), blue: gettext("blue"), green: gettext("green"),
    yellow: gettext("yellow"), black: gettext("black") })[pawn] || pawn;
  const transportName = (transport) => ({ car: gettext("car"), train: gettext("train"), plane: gettext("plane") })[transport] || transport;

  // Cities whose names show first: where the pieces and the mission are.
  let important = new Set();

  /** Each name's box as the browser draws it, in ems from where it is written (its width,
   * how far it rises above and falls below the line), measured once; an estimate until
   * it can be (a drawing not yet on the page measures nothing). */
  const extents = new Map();
  function extent(c, label) {
    if (!extents.has(c.id)) {
      label.classList.remove("mx-label-hidden");
      label.style.fontSize = "100px";
      label.setAttribute("x", "0");
      label.setAttribute("y", "0");
      const bbox = label.getBBox ? label.getBBox() : { width: 0 };
      if (bbox.width > 0) extents.set(c.id, { width: bbox.width / 100, up: -bbox.y / 100, down: (bbox.y + bbox.height) / 100 });
      else return { width: nameEms(c.name), up: 1.0, down: 0.3 };
    }
    return extents.get(c.id);
  }

  /** Size the names for ``scale`` (screen px per board unit) and show as many as fit:
   * the important cities first, then by the board's order (largest first). */
  function layoutLabels(scale) {
    const size = LABEL_PX / scale;
    const [vx, vy, vw, vh] = drawing.getAttribute("viewBox").split(" ").map(Number);
    const placed = [];
    const order = [...important].map(at).filter(Boolean).concat(board.cities.filter((c) => !important.has(c.id)));
    const seen = new Set();
    for (const c of order) {
      if (seen.has(c.id)) continue;
      seen.add(c.id);
      const label = labels.get(c.id);
      const { width, up, down } = extent(c, label);
      const x = c.x + 7 / scale;
      const y = c.y - 4 / scale;
      // Its box in screen pixels.
      const left = (x - vx) * scale;
      const line = (y - vy) * scale;
      const box = [left, line - up * LABEL_PX, left + width * LABEL_PX, line + down * LABEL_PX];
      // Inside the map, the whole name: one cut by the edge is not drawn.
      const inside = box[0] >= 0 && box[1] >= 0 && box[2] <= vw * scale && box[3] <= vh * scale;
      const free = inside && placed.every((p) => box[2] < p[0] || box[0] > p[2] || box[3] < p[1] || box[1] > p[3]);
      label.style.fontSize = `${size.toFixed(3)}px`;
      label.setAttribute("x", x.toFixed(2));
      label.setAttribute("y", y.toFixed(2));
      label.classList.toggle("mx-label-hidden", !free);
      if (free) placed.push([box[0] - 2, box[1] - 1, box[2] + 2, box[3] + 1]);
    }
    drawing.dataset.labels = String(placed.length);
  }

  let lastFocus = [];
  const follow = () => zoomer.focus(lastFocus.map((id) => [at(id).x, at(id).y]));
  const zoomer = panZoom(drawing, box, layoutLabels, { onFollow: follow });
  // Above the drawing, not over it: over it they hid the names and pieces beneath.
  map.prepend(zoomer.controls);

  /** The cities a phone's map frames: where the last move went from and to (Mister X's
   * as far as this perspective knows it); without a last move, every piece. */
  function actionCities(frame, previous) {
    const view = frame.view;
    const found = [];
    const action = frame.action;
    if (action && previous) {
      if (action.pawn && previous.view.pawns[action.pawn] !== undefined) found.push(previous.view.pawns[action.pawn]);
      if (action.pawn && view.pawns[action.pawn] !== undefined) found.push(view.pawns[action.pawn]);
      const known = view.mrx.known || {};
      for (let slot = previous.view.slots_filled; slot <= view.slots_filled; slot += 1) {
        if (action.seat === "mrx" && known[String(slot)] !== undefined) found.push(known[String(slot)]);
      }
    }
    if (found.length) return found;
    const mrx = view.mrx.position !== null && view.mrx.position !== undefined ? [view.mrx.position] : [];
    return [...Object.values(view.pawns), ...mrx];
  }

  function drawMission(view) {
    const starts = new Set(board.missions[view.mission]?.starts || []);
    const marks = [];
    for (const id of view.destinations) {
      const c = at(id);
      marks.push(svg("polygon", { points: octagon(c.x, c.y, 11), class: "mx-destination", "data-city": id }, tip(interpolate(gettext("Destination %(city)s"), { city: c.name }))));
    }
    for (const id of starts) {
      const c = at(id);
      marks.push(svg("circle", { cx: c.x, cy: c.y, r: 10, class: "mx-start", "data-city": id }, tip(interpolate(gettext("Mister X start city %(city)s"), { city: c.name }))));
    }
    mission.replaceChildren(...marks);
  }

  function arrow(from, to, cls) {
    const p = at(from);
    const q = at(to);
    if (!p || !q || from === to) return null;
    return svg("line", { x1: p.x, y1: p.y, x2: q.x, y2: q.y, class: cls, "marker-end": "url(#mx-arrow)" });
  }

  function drawPieces(frame, previous) {
    const view = frame.view;
    const mrx = view.mrx;
    important = new Set([...Object.values(view.pawns), ...view.destinations,
      ...(mrx.position !== null && mrx.position !== undefined ? [mrx.position] : []),
      ...Object.values(mrx.known || {})]);
    const possible = new Set(mrx.possible || []);
    drawing.dataset.possible = String(possible.size);
    overlay.replaceChildren(
      ...[...possible].map((id) => svg("circle", { cx: at(id).x, cy: at(id).y, r: 14, class: "mx-possible", "data-city": id })),
    );

    const marks = [];
    if (mrx.path) {
      // The true path: every position since the start, numbered by checklist slot.
      const points = mrx.path.map((id) => `${at(id).x},${at(id).y}`).join(" ");
      marks.push(svg("polyline", { points, class: "mx-path" }));
      mrx.path.forEach((id, slot) => {
        marks.push(svg("text", { x: at(id).x - 6, y: at(id).y + 18, class: "mx-slot", "data-slot": slot }, String(slot)));
      });
    }
    // What the perspective knows of his positions: slot -> city. Where the true path is
    // drawn, only the positions the detectives learnt get a marker, to show what they knew.
    const revealed = new Set(view.reveals.map((r) => String(r.slot)));
    const marked = Object.entries(mrx.known || {}).filter(([slot]) => !mrx.path || revealed.has(slot));
    for (const [slot, id] of marked) {
      marks.push(svg("g", { class: "mx-known", "data-slot": slot, "data-city": id },
        svg("rect", { x: at(id).x - 8, y: at(id).y - 8, width: 16, height: 16, rx: 3 }),
        svg("text", { x: at(id).x, y: at(id).y + 4, "text-anchor": "middle" }, String(slot)),
        tip(interpolate(gettext("Mister X was in %(city)s at slot %(slot)s"), { city: at(id).name, slot }))));
    }
    trail.replaceChildren(...marks);

    const items = [];
    const before = previous ? previous.view : null;
    const action = frame.action;
    if (action && before) {
      if (action.pawn && action.to !== undefined) items.push(arrow(before.pawns[action.pawn], action.to, "mx-move"));
      if (action.seat === "mrx") {
        // Mister X's move as far as this perspective knows it: each step from the slot
        // before to the last slot this action filled (two for a double move).
        const known = mrx.known || {};
        for (let slot = before.slots_filled; slot < view.slots_filled; slot += 1) {
          const from = known[String(slot)];
          const to = known[String(slot + 1)];
          if (from !== undefined && to !== undefined) items.push(arrow(from, to, "mx-move mx-move-x"));
        }
      }
    }
    for (const [pawn, id] of Object.entries(view.pawns)) {
      const c = at(id);
      const moved = (view.moved || []).includes(pawn);
      items.push(svg("g", { class: `mx-pawn${moved ? " mx-moved" : ""}`, "data-pawn": pawn, "data-city": id },
        svg("circle", { cx: c.x, cy: c.y, r: 9, fill: PAWN_COLORS[pawn] || "#444" }),
        tip(interpolate(gettext("The %(colour)s detective in %(city)s"), { colour: colourName(pawn), city: c.name }))));
    }
    if (mrx.position !== null && mrx.position !== undefined) {
      const c = at(mrx.position);
      items.push(svg("g", { class: "mx-x", "data-city": mrx.position },
        svg("rect", { x: c.x - 10, y: c.y - 10, width: 20, height: 20, transform: `rotate(45 ${c.x} ${c.y})` }),
        svg("text", { x: c.x, y: c.y + 5, "text-anchor": "middle" }, "X"),
        tip(interpolate(gettext("Mister X in %(city)s"), { city: c.name }))));
    }
    pieces.replaceChildren(
      svg("defs", {}, svg("marker", { id: "mx-arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse" },
        svg("path", { d: "M0,0 L10,5 L0,10 z", class: "mx-arrowhead" }))),
      ...items.filter(Boolean),
    );
  }

  function ticketBoard(view) {
    const list = el("ol", { class: "mx-ticket-board" });
    for (const row of view.checklist) {
      const where = row.city !== undefined ? at(row.city).name : "?";
      const ticket = row.face_up ? transportName(row.transport) : gettext("face down");
      list.append(el("li", { value: String(row.slot), class: `mx-slot-${row.face_up ? row.transport : "hidden"}`, "data-slot": row.slot, "data-city": row.city ?? "" },
        `${ticket} → ${where}`));
    }
    return list.children.length ? list : el("span", { class: "muted" }, gettext("no move yet"));
  }

  function renderPanels(frame) {
    const view = frame.view;
    const boxes = [];
    const status = view.result ? frame.result_sentence || interpolate(gettext("%(seat)s won"), { seat: seatLabel(view.result.winner) })
      : interpolate(gettext("Round %(round)s: %(phase)s"), { round: view.round, phase: payload.phases?.[view.phase] || view.phase });
    const missionText = ({ green: gettext("Green mission"), yellow: gettext("Yellow mission"), orange: gettext("Orange mission") })[view.mission]
      || interpolate(gettext("Mission %(mission)s"), { mission: view.mission });
    boxes.push(panel(gettext("Game"), el("span", {}, status), el("br"), view.open_play ? interpolate(gettext("%(mission)s · open play"), { mission: missionText }) : missionText));
    boxes.push(panel(gettext("Ticket board"), ticketBoard(view)));
    if (view.mrx.possible) {
      const names = view.mrx.possible.map((id) => at(id).name);
      boxes.push(panel(interpolate(gettext("Could be in (%(count)s)"), { count: names.length }), el("span", { class: "mx-possible-list" }, new Intl.ListFormat(language, { type: "conjunction" }).format(names))));
    }
    if (view.reveals.length) {
      // Slot 0 is where he started; slot n, where his n-th move took him (the ticket board's n).
      const revealed = (r) => (r.slot === 0
        ? interpolate(gettext("start: %(city)s"), { city: at(r.city).name })
        : interpolate(gettext("move %(slot)s: %(city)s"), { slot: r.slot, city: at(r.city).name }));
      const how = (r) => ({ check: gettext("position check"), investigate: gettext("investigation") })[r.by] || r.by;
      boxes.push(panel(gettext("Reveals"), el("ul", {}, ...view.reveals.map((r) => el("li", {},
        interpolate(gettext("%(revealed)s (round %(round)s, %(how)s)"), { revealed: revealed(r), round: r.round, how: how(r) }))))));
    }
    const racks = el("ul", { class: "mx-racks" });
    racks.append(el("li", { "data-rack": "mrx" }, `${seatLabel("mrx")}: `, ...(view.mrx.rack ? htmlChips(view.mrx.rack, 0, payload.card_words) : [ticketCount(view.mrx.rack_size)])));
    for (const [seat, rack] of Object.entries(view.racks)) {
      racks.append(el("li", { "data-rack": seat }, payload.seat_labels?.[seat] ? `${seatLabel(seat)}: ` : `${seat} (${rack.pawns.map(colourName).join(", ")}): `, ...(rack.tickets ? htmlChips(rack.tickets, 0, payload.card_words) : [ticketCount(rack.size)])));
    }
    boxes.push(panel(gettext("Racks"), racks));
    boxes.push(panel(gettext("Bag"), view.out_of_game.length
      ? interpolate(gettext("%(tickets)s, %(count)s out of the game"), { tickets: ticketCount(view.bag_size), count: view.out_of_game.length })
      : ticketCount(view.bag_size)));
    panels.replaceChildren(...boxes);
  }

  zoomer.apply();

  return {
    update(frame, { frames, ply }) {
      drawMission(frame.view);
      drawPieces(frame, ply > 0 ? frames[ply - 1] : null);
      lastFocus = actionCities(frame, ply > 0 ? frames[ply - 1] : null).filter((id) => at(id));
      map.classList.toggle("mx-following", drawing.getBoundingClientRect().width < FOLLOW_BELOW_PX);
      if (map.classList.contains("mx-following")) follow();
      layoutLabels(zoomer.scale());
      renderPanels(frame);
    },
  };
}

// The recorder's entry: a detective first picks which pawn moves, then where to and by
// which ticket.
export function entryHints() {
  return { order: ["seat", "type", "pawn", "to", "ticket"] };
}
