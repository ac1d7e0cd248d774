// Mister X: the board's cities and coloured connections at their coordinates, the
// pawns, Mister X's true path (all-seeing, his own view) or only his revealed positions
// (detectives), the cities he could be in given what the detectives know, the ticket
// board and the racks the perspective may see.

import { el, htmlChips, panel, svg, tip } from "./common.js";

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

export function mount(root, payload) {
  const board = payload.static.board;
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
  for (const c of board.cities) {
    cities.append(
      svg("g", { class: "mx-city", "data-city": c.id },
        svg("circle", { cx: c.x, cy: c.y, r: 4.5 }),
        svg("text", { x: c.x + 6, y: c.y - 5, class: "mx-city-name" }, c.name),
        tip(`${c.id} ${c.name} (${c.country})`)),
    );
  }
  const overlay = svg("g", { class: "mx-possible-layer" });
  const mission = svg("g", { class: "mx-mission" });
  const trail = svg("g", { class: "mx-trail" });
  const pieces = svg("g", { class: "mx-pieces" });
  drawing.append(overlay, lines, mission, cities, trail, pieces);
  const panels = el("div", { class: "board-panels" });
  root.append(drawing, panels);

  const at = (id) => city.get(id);

  function drawMission(view) {
    const starts = new Set(board.missions[view.mission]?.starts || []);
    const marks = [];
    for (const id of view.destinations) {
      const c = at(id);
      marks.push(svg("polygon", { points: octagon(c.x, c.y, 11), class: "mx-destination", "data-city": id }, tip(`Destination ${c.name}`)));
    }
    for (const id of starts) {
      const c = at(id);
      marks.push(svg("circle", { cx: c.x, cy: c.y, r: 10, class: "mx-start", "data-city": id }, tip(`Mister X start city ${c.name}`)));
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
        tip(`Mister X was in ${at(id).name} at slot ${slot}`)));
    }
    trail.replaceChildren(...marks);

    const items = [];
    const before = previous ? previous.view : null;
    const action = frame.action;
    if (action && before) {
      if (action.pawn && action.to !== undefined) items.push(arrow(before.pawns[action.pawn], action.to, "mx-move"));
      if (action.seat === "mrx" && mrx.position !== null && before.mrx.position !== null && before.mrx.position !== undefined) {
        items.push(arrow(before.mrx.position, mrx.position, "mx-move mx-move-x"));
      }
    }
    for (const [pawn, id] of Object.entries(view.pawns)) {
      const c = at(id);
      const moved = (view.moved || []).includes(pawn);
      items.push(svg("g", { class: `mx-pawn${moved ? " mx-moved" : ""}`, "data-pawn": pawn, "data-city": id },
        svg("circle", { cx: c.x, cy: c.y, r: 9, fill: PAWN_COLORS[pawn] || "#444" }),
        tip(`${pawn} detective in ${c.name}`)));
    }
    if (mrx.position !== null && mrx.position !== undefined) {
      const c = at(mrx.position);
      items.push(svg("g", { class: "mx-x", "data-city": mrx.position },
        svg("rect", { x: c.x - 10, y: c.y - 10, width: 20, height: 20, transform: `rotate(45 ${c.x} ${c.y})` }),
        svg("text", { x: c.x, y: c.y + 5, "text-anchor": "middle" }, "X"),
        tip(`Mister X in ${c.name}`)));
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
      const ticket = row.face_up ? row.transport : "face down";
      list.append(el("li", { value: String(row.slot), class: `mx-slot-${row.face_up ? row.transport : "hidden"}`, "data-slot": row.slot, "data-city": row.city ?? "" },
        `${ticket} → ${where}`));
    }
    return list.children.length ? list : el("span", { class: "muted" }, "no move yet");
  }

  function renderPanels(frame) {
    const view = frame.view;
    const boxes = [];
    const status = view.result ? `${view.result.winner} won (${view.result.reason})` : `round ${view.round}, ${view.phase}`;
    boxes.push(panel("Game", el("span", {}, status), el("br"), `Mission ${view.mission}${view.open_play ? " · open play" : ""}`));
    boxes.push(panel("Ticket board", ticketBoard(view)));
    if (view.mrx.possible) {
      const names = view.mrx.possible.map((id) => at(id).name);
      boxes.push(panel(`Could be in (${names.length})`, el("span", { class: "mx-possible-list" }, names.join(", "))));
    }
    if (view.reveals.length) {
      boxes.push(panel("Reveals", el("ul", {}, ...view.reveals.map((r) => el("li", {}, `slot ${r.slot}: ${at(r.city).name} (round ${r.round}, ${r.by})`)))));
    }
    const racks = el("ul", { class: "mx-racks" });
    racks.append(el("li", { "data-rack": "mrx" }, "mrx: ", ...(view.mrx.rack ? htmlChips(view.mrx.rack) : [`${view.mrx.rack_size} tickets`])));
    for (const [seat, rack] of Object.entries(view.racks)) {
      racks.append(el("li", { "data-rack": seat }, `${seat} (${rack.pawns.join(", ")}): `, ...(rack.tickets ? htmlChips(rack.tickets) : [`${rack.size} tickets`])));
    }
    boxes.push(panel("Racks", racks));
    boxes.push(panel("Bag", `${view.bag_size} tickets${view.out_of_game.length ? `, ${view.out_of_game.length} out of the game` : ""}`));
    panels.replaceChildren(...boxes);
  }

  return {
    update(frame, { frames, ply }) {
      drawMission(frame.view);
      drawPieces(frame, ply > 0 ? frames[ply - 1] : null);
      renderPanels(frame);
    },
  };
}

// The recorder's entry: a detective first picks which pawn moves, then where to and by
// which ticket; a city is named beside its number.
export function entryHints(staticView) {
  const order = ["seat", "type", "pawn", "to", "ticket"];
  if (!staticView || !staticView.board) return { order };
  const names = new Map(staticView.board.cities.map((c) => [c.id, c.name]));
  const describe = (path, value) => {
    const last = path.split("/").pop();
    return (last === "to" || last === "start") && names.has(value) ? `${value} ${names.get(value)}` : null;
  };
  return { order, describe };
}
