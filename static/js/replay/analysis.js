// The analysis of a replayed match (engine/core/analysis.py, /api/matches/{id}/analysis):
// a win-chance graph under the board (one line per seat, from this perspective's own
// information; the all-seeing perspective adds the all-seeing lines, dashed), marks on
// the moves of the move list, the better move on request, and "Analyse" for members.
//
// A module of its own: it follows the replay page through the board's data-ply and
// data-view attributes and the move list's buttons, and jumps by clicking those buttons,
// so the page's own modules know nothing of it.

import { el, svg, tip } from "./dom.js";
import { gettext, inPageLanguage, interpolate, ngettext } from "../i18n.js";
import { seatName } from "./names.js";

const panel = document.getElementById("replay-analysis");
const boardRoot = document.getElementById("replay-board");
const movesRoot = document.getElementById("replay-moves");

const SYMBOLS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const WORDS = { inaccuracy: gettext("Inaccuracy"), mistake: gettext("Mistake"), blunder: gettext("Blunder") };
const COLORS = ["#b45309", "#2563eb", "#15803d", "#9333ea", "#be123c", "#0f766e", "#4b5563"];
const W = 600;
const H = 120;

const state = { view: null, payload: null, timer: null, request: 0 };


async function load(method = "GET") {
  const view = boardRoot.dataset.view || "all";
  const request = ++state.request;
  const url = inPageLanguage(panel.dataset.url);
  url.searchParams.set("view", view);
  const headers = { Accept: "application/json" };
  if (method === "POST") headers["X-CSRFToken"] = panel.dataset.csrf;
  const response = await fetch(url, { method, headers, credentials: "same-origin" });
  const body = await response.json().catch(() => ({}));
  if (request !== state.request) return;
  if (!response.ok) {
    say(body.message || interpolate(gettext("The analysis cannot be shown (HTTP %(status)s)."), { status: response.status }));
    return;
  }
  state.view = view;
  state.payload = body;
  draw();
  window.clearTimeout(state.timer);
  if (body.status === "queued" || body.status === "running") state.timer = window.setTimeout(() => load(), 2000);
}

function say(text) {
  panel.querySelector(".analysis-status").textContent = text;
}

function draw() {
  const p = state.payload;
  const status = panel.querySelector(".analysis-status");
  const button = panel.querySelector(".analysis-request");
  const body = panel.querySelector(".analysis-body");
  button.hidden = !p.can_request;
  body.replaceChildren();
  if (!p.available) status.textContent = p.reason;
  else if (p.status === "none") status.textContent = p.can_request ? gettext("Not analysed yet.") : gettext("Not analysed yet: the club's members can analyse it.");
  else if (p.status === "waiting") status.textContent = p.waiting;
  else if (p.status === "queued") status.textContent = gettext("Waiting in the queue: the analysis starts when a worker is free.");
  else if (p.status === "running") status.textContent = interpolate(ngettext("Analysing… %(done)s of %(total)s position", "Analysing… %(done)s of %(total)s positions", p.progress.total), p.progress);
  else if (p.status === "failed") status.textContent = p.error;
  else status.textContent = "";
  // a long match analysed with fewer playouts (its figures less sure), said before and after
  if (p.note) body.append(el("p", { class: "analysis-note muted" }, p.note));
  markMoves();
  if (p.status !== "done") return;
  const result = p.result;
  body.append(graph(result), legend(result), accuracy(result), el("div", { class: "analysis-best" }));
  follow();
}

// The shaded band: where a chance lies 19 times in 20 (the estimate ± 1.96 standard errors).
const Z = 1.96;

/** Where each round starts, as the replay's round marks say (ply and round number). */
function roundStarts() {
  return [...document.querySelectorAll("#replay-round-marks .round-mark")]
    .map((mark) => ({ ply: Number(mark.dataset.ply), round: mark.dataset.round }));
}

function graph(result) {
  const n = Math.max(1, result.lines[0].points.length - 1);
  const x = (ply) => (ply / n) * W;
  const y = (points) => H - (Math.max(0, Math.min(100, points)) / 100) * H;
  const seats = [...new Set(result.lines.map((line) => line.seat))];
  const color = (seat) => COLORS[seats.indexOf(seat) % COLORS.length];
  const chart = svg("svg", { class: "analysis-graph", viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: "none", role: "img",
    "aria-label": gettext("Win chance of each seat after every move, from 0 to 100 %, move by move") });
  chart.append(svg("rect", { class: "analysis-bg", x: 0, y: 0, width: W, height: H }));
  for (const level of [25, 50, 75]) {
    chart.append(svg("line", { class: level === 50 ? "analysis-mid" : "analysis-grid", x1: 0, x2: W, y1: y(level), y2: y(level) }));
  }
  for (const { ply } of roundStarts()) {
    if (ply > 0) chart.append(svg("line", { class: "analysis-grid", x1: x(ply), x2: x(ply), y1: 0, y2: H }));
  }
  for (const line of result.lines) {
    if (line.kind === "own" && line.errors) chart.append(...bands(line, x, y, color(line.seat)));
  }
  for (const line of result.lines) {
    // a figure not estimated (null) leaves a gap: the line starts again after it
    const d = line.points.map((v, ply) => v === null ? ""
      : `${ply && line.points[ply - 1] !== null ? "L" : "M"}${x(ply).toFixed(1)},${y(v).toFixed(1)}`).join("");
    chart.append(svg("path", { class: `analysis-line analysis-${line.kind}`, d, "data-seat": line.seat,
      stroke: color(line.seat) }, tip(`${seatName(line.seat)}: ${line.kind === "own" ? gettext("from what this seat knew") : gettext("seeing everything hidden")}`)));
  }
  for (const move of result.moves) {
    if (!move.label) continue;
    const line = result.lines.find((l) => l.seat === move.seat && l.kind === "own") || result.lines[0];
    if (line.points[move.ply] === null) continue;
    chart.append(svg("circle", { class: `analysis-dot analysis-${move.label}`, cx: x(move.ply), cy: y(line.points[move.ply]), r: 3.5 },
      tip(`${interpolate(gettext("Move %(ply)s"), { ply: move.ply })}: ${verdictText(move)}`)));
  }
  chart.append(svg("line", { class: "analysis-cursor", x1: 0, x2: 0, y1: 0, y2: H }));
  chart.addEventListener("click", (event) => {
    const box = chart.getBoundingClientRect();
    jump(Math.round(((event.clientX - box.left) / box.width) * n));
  });
  return el("div", { class: "analysis-plot" },
    el("div", { class: "analysis-y", "aria-hidden": "true" }, el("span", {}, "100 %"), el("span", {}, "50 %"), el("span", {}, "0 %")),
    chart,
    el("div", { class: "analysis-x", "aria-hidden": "true" }, ...roundTicks(n)),
    el("div", { class: "analysis-x-title muted" }, gettext("Rounds")));
}

/** The shaded band of a line: one polygon per stretch of estimated figures. */
function bands(line, x, y, stroke) {
  const shapes = [];
  let run = [];
  const flush = () => {
    if (run.length > 1) {
      const top = run.map((ply) => `${x(ply).toFixed(1)},${y(line.points[ply] + Z * (line.errors[ply] || 0)).toFixed(1)}`);
      const bottom = run.slice().reverse().map((ply) => `${x(ply).toFixed(1)},${y(line.points[ply] - Z * (line.errors[ply] || 0)).toFixed(1)}`);
      shapes.push(svg("polygon", { class: "analysis-band", points: [...top, ...bottom].join(" "), fill: stroke }));
    }
    run = [];
  };
  line.points.forEach((v, ply) => (v === null ? flush() : run.push(ply)));
  flush();
  return shapes;
}

/** Round numbers under the graph, thinned so that neighbours keep apart. */
function roundTicks(n) {
  const starts = roundStarts();
  const every = Math.max(1, Math.ceil(starts.length / 12));
  return starts.filter((_, i) => i % every === 0)
    .map(({ ply, round }) => el("span", { style: `left: ${(100 * ply) / n}%` }, round));
}

/** What a move's verdict says, with how sure it is (the interval of its drop). */
function verdictText(move) {
  const range = { low: Math.max(0, move.drop_low ?? move.drop).toFixed(0), high: Math.max(0, move.drop_high ?? move.drop).toFixed(0) };
  if (move.label && range.low === range.high) {
    // an interval narrower than a point: one figure, not "between 29 and 29"
    return interpolate(ngettext("%(verdict)s: %(points)s point of win chance lost against the best move found.",
      "%(verdict)s: %(points)s points of win chance lost against the best move found.", Number(range.low)),
    { verdict: WORDS[move.label], points: range.low });
  }
  if (move.label) {
    return interpolate(gettext("%(verdict)s: between %(low)s and %(high)s points of win chance lost against the best move found."),
      { verdict: WORDS[move.label], ...range });
  }
  if (move.unclear) {
    return interpolate(gettext("Unclear: between %(low)s and %(high)s points lost; the analysis is not sure enough to mark it."), range);
  }
  return gettext("As good as the best move found, or too close to tell apart.");
}

// Sentences one after another: Japanese runs them on after its full stop, others leave a space.
function sentences(...parts) {
  return parts.join(document.documentElement.lang.startsWith("ja") ? "" : " ");
}

// How a chance was made (the engine says: engine.analysis_playouts), in the reader's words.
function playedOut(playouts, all) {
  const count = playouts.own;
  const whose = all
    ? ngettext("Each seat's chance comes from %(count)s game played on from that moment by the medium bot in every seat.",
      "Each seat's chance comes from %(count)s games played on from that moment by the medium bot in every seat.", count)
    : ngettext("Your chance comes from %(count)s game played on from that moment by the medium bot in every seat.",
      "Your chance comes from %(count)s games played on from that moment by the medium bot in every seat.", count);
  const how = playouts.own_cut
    ? gettext("Each is played for a few turns at most; one not over by then is scored by an estimate of who wins from there.")
    : interpolate(gettext("Each is played to the end, or for %(most)s moves at most."), { most: playouts.most_plies });
  return sentences(interpolate(whose, { count }), how, gettext("The shaded band shows how sure that figure is."));
}

function playedOutAll(playouts) {
  const count = playouts.all_seeing;
  const dashed = ngettext("The dashed lines: %(count)s game per point.", "The dashed lines: %(count)s games per point.", count);
  const how = playouts.all_seeing_cut
    ? gettext("These too are played for a few turns at most.")
    : interpolate(gettext("These are played to the end, or for %(most)s moves at most."), { most: playouts.most_plies });
  return sentences(interpolate(dashed, { count }), how);
}

function legend(result) {
  const seats = [...new Set(result.lines.map((line) => line.seat))];
  const all = result.lines.some((line) => line.kind === "all");
  const items = seats.map((seat, i) => el("li", {},
    el("span", { class: "analysis-swatch", style: `background:${COLORS[i % COLORS.length]}` }), seatName(seat)));
  if (all) items.push(el("li", {}, el("span", { class: "analysis-swatch analysis-swatch-dashed" }), gettext("seeing everything hidden")));
  items.push(el("li", {}, el("span", { class: "analysis-swatch analysis-swatch-band" }), gettext("how sure (19 times in 20)")));
  const note = all ? gettext("Solid lines: each seat's chance to win from what it knew at that moment; dashed: the same seeing everything hidden.")
    : gettext("Your chance to win from what you knew at each moment.");
  const how = sentences(playedOut(result.playouts, all), ...(all ? [playedOutAll(result.playouts)] : []));
  const marks = gettext("Marks ?! inaccuracy, ? mistake, ?? blunder: the move lost at least 5, 10 or 15 points of win chance against the best move found, on what the player knew then. A mark appears only when the analysis is sure of it 19 times in 20; a move it is not sure about shows no mark and reads \"unclear\".");
  return el("div", { class: "analysis-legend" }, el("ul", {}, ...items),
    el("p", { class: "muted" }, sentences(note, how)), el("p", { class: "muted" }, marks));
}

function accuracy(result) {
  const entries = Object.entries(result.accuracy).filter(([, value]) => value !== null);
  if (!entries.length) return "";
  return el("p", { class: "analysis-accuracy" }, gettext("Accuracy:"), " ",
    ...entries.map(([seat, value], i) => {
      // How many of its moves were judged: a seat with few choices (the detectives' side
      // chooses only special actions and discards) reads differently from one with many.
      const count = result.moves.filter((m) => m.seat === seat).length;
      // ± the half-width of its 95 % interval, in points
      const error = result.accuracy_se?.[seat];
      const within = error === null || error === undefined ? "" : ` ±${Math.round(Z * error)}`;
      return el("span", {}, i ? " · " : "", `${seatName(seat)} ${value}%${within} `,
        el("span", { class: "muted" }, interpolate(ngettext("(%(count)s move)", "(%(count)s moves)", count), { count })));
    }));
}

function moveAt(ply) {
  return state.payload?.result?.moves.find((m) => m.ply === ply);
}

/** The marks in the move list (rebuilt by the page on every change of perspective). */
function markMoves() {
  for (const old of movesRoot.querySelectorAll(".analysis-mark")) old.remove();
  const result = state.payload?.status === "done" ? state.payload.result : null;
  if (!result) return;
  for (const move of result.moves) {
    const button = movesRoot.querySelector(`button[data-ply="${move.ply}"]`);
    if (!button) continue;
    if (move.label) {
      button.append(el("span", { class: `analysis-mark analysis-${move.label}`,
        title: `${seatName(move.seat)} — ${verdictText(move)}` }, SYMBOLS[move.label]));
    }
    if (move.unknowable) {
      button.append(el("span", { class: "analysis-mark analysis-unknowable",
        title: interpolate(gettext("Could not have known: the real position lost %(drop)s points, but on what %(seat)s knew the move was sound"),
          { drop: move.all_seeing_drop, seat: seatName(move.seat) }) }, "◇"));
    }
  }
}

/** The cursor and the current move's verdict follow the board. */
function follow() {
  const chart = panel.querySelector(".analysis-graph");
  if (!chart) return;
  const ply = Number(boardRoot.dataset.ply || 0);
  const n = Math.max(1, state.payload.result.lines[0].points.length - 1);
  const cursor = chart.querySelector(".analysis-cursor");
  cursor.setAttribute("x1", String((ply / n) * W));
  cursor.setAttribute("x2", String((ply / n) * W));
  const box = panel.querySelector(".analysis-best");
  box.replaceChildren();
  // why a figure of this position is missing (said by the server in the page's language)
  for (const note of state.payload.result.not_estimated || []) {
    if (note.ply === ply) box.append(el("p", { class: "analysis-missing muted" }, `${seatName(note.seat)} — ${note.text}`));
  }
  const move = moveAt(ply);
  if (!move) return;
  box.append(el("span", {}, `${seatName(move.seat)}: ${verdictText(move)} `));
  if (move.best) {
    const show = el("button", { type: "button", class: "link analysis-show-best" }, gettext("Show the better move"));
    show.addEventListener("click", () => {
      show.replaceWith(el("span", { class: "analysis-better" },
        interpolate(gettext("Better: %(move)s (%(best)s against %(played)s)"),
          { move: move.best_sentence || move.best, best: `${move.best_value}%`, played: `${move.played_value}%` })));
    });
    box.append(show);
  }
}

function jump(ply) {
  movesRoot.querySelector(`button[data-ply="${ply}"]`)?.click();
}

if (panel && boardRoot && movesRoot) {
  panel.querySelector(".analysis-request").addEventListener("click", () => load("POST"));
  new MutationObserver(() => {
    if ((boardRoot.dataset.view || "all") !== state.view) load();
    else follow();
  }).observe(boardRoot, { attributes: true, attributeFilter: ["data-ply", "data-view"] });
  new MutationObserver(() => {
    if (!movesRoot.querySelector(".analysis-mark")) markMoves();
  }).observe(movesRoot, { childList: true });
  // The perspective is the board's once the replay has drawn it (main.js sets data-view,
  // and the observer above loads then): loading before would fetch the all-seeing lines
  // and draw them until the perspective's own arrive.
  if (boardRoot.dataset.view) load();
}
