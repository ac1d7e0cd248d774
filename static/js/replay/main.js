// The replay page: loads the frames of one match for one perspective, draws the
// board of the current ply, and moves through the game by buttons, keys, the
// move list and autoplay. The URL keeps ?ply=N&view=V so a moment can be shared.
//
// Every frame's move comes at once (the move list and the scrub bar cover the whole
// game); the board views come by pages (replay/frames.py): the first answer carries
// the page of the ply asked for, and the page of any other ply is fetched when the
// person goes there (and the next one ahead of them, as they near a page's end).

import { el } from "./dom.js";
import { gettext, inPageLanguage, interpolate } from "../i18n.js";
import * as nav from "./navigation.js";
import { highlightMove, renderMoveList } from "./movelist.js";
import { loadBoard } from "./boards/load.js";
import { mountScrub, setScrub } from "./scrub.js";

const root = document.getElementById("replay");
const config = JSON.parse(document.getElementById("replay-config").textContent);
const $ = (selector) => root.querySelector(selector);
const boardRoot = $("#replay-board");
const movesRoot = $("#replay-moves");
const viewSelect = $("#replay-view");
const speedSelect = $("#replay-speed");
const playButton = $('[data-go="play"]');
const keysDialog = document.getElementById("replay-keys");
const notationToggle = $("#replay-notation-toggle");
const scrub = $("#replay-scrub");
const roundMarks = $("#replay-round-marks");

const state = { view: config.view, ply: config.ply, payload: null, board: null, timer: null, pages: new Map() };

async function fetchJson(path, params) {
  const url = inPageLanguage(path);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, String(value));
  // The server answers with an ETag; the browser revalidates and gets 304s.
  const response = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
  if (!response.ok) {
    const body = await response.json().catch(() => ({}));
    const error = new Error(interpolate(body.message ? gettext("This replay cannot be shown (HTTP %(status)s):")
      : gettext("This replay cannot be shown (HTTP %(status)s)."), { status: response.status }));
    error.body = body;
    throw error;
  }
  return response.json();
}

const fetchFrames = (view, ply) => fetchJson(config.framesUrl, { view, ply });

/** The page of views holding ``ply`` (fetched once per perspective); resolves when its
 * frames carry their views. */
function loadPage(ply) {
  const payload = state.payload;
  const frames = payload.frames;
  if (ply < 0 || ply >= frames.length || payload.page === null) return Promise.resolve();
  const page = Math.floor(ply / payload.page_size);
  if (!state.pages.has(page)) {
    const loading = fetchJson(config.viewsUrl, { view: payload.viewer, page }).then((body) => {
      body.views.forEach((view, i) => {
        frames[body.from + i].view = view;
        frames[body.from + i].result_sentence = body.result_sentences?.[i] ?? null;
      });
    });
    // A failed page is asked for again next time.
    loading.catch(() => state.pages.delete(page));
    state.pages.set(page, loading);
  }
  return state.pages.get(page);
}

let latestMove = 0;

/** Go to ``ply`` once its view (and the one before it, which boards compare with) is here;
 * a later move made while a page was on its way wins. */
async function goTo(ply) {
  const frames = state.payload.frames;
  const target = nav.clampPly(frames, ply);
  const move = ++latestMove;
  const payload = state.payload;
  await Promise.all([loadPage(target - 1), loadPage(target)]);
  if (move !== latestMove || payload !== state.payload) return;
  show(target);
  // The next page ahead of a person moving forward (or back) through the game.
  const size = payload.page_size;
  const within = target % size;
  if (within >= size - 20) loadPage(target + size - within).catch(() => {});
  else if (within < 20 && target >= size) loadPage(target - within - 1).catch(() => {});
}

function writeUrl() {
  const url = new URL(window.location.href);
  url.searchParams.set("ply", String(state.ply));
  url.searchParams.set("view", state.view);
  window.history.replaceState(null, "", url);
}

function describe(frame, frames) {
  const parts = [interpolate(gettext("Move %(ply)s of %(last)s"), { ply: frame.ply, last: frames.length - 1 })];
  if (frame.round !== null && frame.round !== undefined) parts.push(interpolate(gettext("Round %(round)s"), { round: frame.round }));
  if (frame.phase) parts.push(state.payload.phases?.[frame.phase] || frame.phase);
  return parts.join(" · ");
}

function show(ply) {
  const frames = state.payload.frames;
  state.ply = nav.clampPly(frames, ply);
  const frame = frames[state.ply];
  state.board.update(frame, { frames, ply: state.ply });
  boardRoot.dataset.ply = String(state.ply);
  $("#replay-position").textContent = describe(frame, frames);
  $("#replay-sentence").textContent = frame.ply === 0 ? gettext("Setup") : frame.sentence ?? frame.notation ?? "";
  // The notation stands beside the sentence only when the reader asked for it.
  const notation = $("#replay-notation");
  notation.textContent = frame.ply === 0 ? "" : frame.notation ?? "";
  notation.hidden = !notationToggle.checked;
  setScrub(scrub, state.ply, `${describe(frame, frames)}: ${$("#replay-sentence").textContent}`);
  for (const mark of roundMarks.querySelectorAll(".round-mark")) {
    const current = mark.dataset.round === String(frame.round) && state.ply > 0;
    mark.classList.toggle("current", current);
    // Labels thin out when rounds are many; the current round is always named.
    mark.textContent = current || mark.classList.contains("labelled") ? mark.dataset.round : "";
  }
  highlightMove(movesRoot, state.ply);
  for (const button of root.querySelectorAll("[data-go]")) {
    const go = button.dataset.go;
    if (go === "play" || go === "keys") continue;
    const atStart = state.ply === 0;
    const atEnd = state.ply === frames.length - 1;
    button.disabled = ["first", "prev", "prev-round"].includes(go) ? atStart : atEnd;
  }
  writeUrl();
}

/** The link to this very moment: this move, this perspective. */
async function copyLink() {
  writeUrl();
  const link = window.location.href;
  const said = $("#replay-copied");
  try {
    await navigator.clipboard.writeText(link);
    said.textContent = gettext("Link copied");
  } catch {
    // No clipboard (an insecure origin, a refused permission): offer the link to copy by hand.
    window.prompt(gettext("Copy this link:"), link);
    said.textContent = "";
  }
  window.setTimeout(() => { said.textContent = ""; }, 3000);
}

function stopAutoplay() {
  if (state.timer !== null) window.clearInterval(state.timer);
  state.timer = null;
  playButton.setAttribute("aria-pressed", "false");
  playButton.title = gettext("Autoplay (space)");
}

function startAutoplay() {
  const frames = state.payload.frames;
  if (state.ply >= frames.length - 1) goTo(0).catch(fail);
  state.timer = window.setInterval(() => {
    if (state.ply >= state.payload.frames.length - 1) stopAutoplay();
    else goTo(state.ply + 1).catch(fail);
  }, Number(speedSelect.value));
  playButton.setAttribute("aria-pressed", "true");
  playButton.title = gettext("Pause (space)");
}

function toggleAutoplay() {
  if (state.timer === null) startAutoplay();
  else stopAutoplay();
}

const MOVES = {
  first: (frames) => nav.first(frames),
  "prev-round": (frames, ply) => nav.prevRound(frames, ply),
  prev: (frames, ply) => nav.prev(frames, ply),
  next: (frames, ply) => nav.next(frames, ply),
  "next-round": (frames, ply) => nav.nextRound(frames, ply),
  last: (frames) => nav.last(frames),
};

function go(where) {
  if (where === "play") return toggleAutoplay();
  if (where === "keys") return keysDialog.showModal();
  stopAutoplay();
  goTo(MOVES[where](state.payload.frames, state.ply)).catch(fail);
}

// Keys as on chess sites (lichess: ←/k back, →/j forward); ↑/↓ move by round here.
const KEYS = {
  ArrowLeft: "prev", k: "prev",
  ArrowRight: "next", j: "next",
  ArrowUp: "prev-round",
  ArrowDown: "next-round",
  Home: "first",
  End: "last",
  " ": "play",
  "?": "keys",
};

function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (keysDialog.open) return; // the dialog handles Escape itself
  const target = event.target;
  if (target.closest && target.closest("input, select, textarea, [contenteditable]")) return;
  const where = KEYS[event.key];
  if (!where || !state.payload) return;
  event.preventDefault();
  go(where);
}

function drawMoveList() {
  renderMoveList(movesRoot, state.payload.frames, (ply) => {
    stopAutoplay();
    goTo(ply).catch(fail);
  }, { notation: notationToggle.checked, phases: state.payload.phases || {} });
  root.classList.toggle("show-notation", notationToggle.checked);
}

/** The engine's legend of this game, each entry with the board module's drawing of its mark. */
function renderLegend(entries, swatch) {
  const list = $("#replay-legend-list");
  list.replaceChildren(...entries.map((entry) => {
    const item = document.createElement("li");
    item.dataset.mark = entry.mark;
    const mark = swatch ? swatch(entry.mark) : null;
    if (mark) item.append(mark);
    item.append(entry.text);
    return item;
  }));
  $("#replay-legend").hidden = entries.length === 0;
}

let latestRequest = 0;

async function setView(view) {
  stopAutoplay();
  const request = ++latestRequest;
  const payload = await fetchFrames(view, state.ply);
  const module = await loadBoard(payload.renderer);
  // Switching again before this answer came: the newer choice wins.
  if (request !== latestRequest) return;
  state.view = view;
  state.payload = payload;
  // The page the answer carries is here; the others come as they are needed.
  state.pages = new Map(payload.page === null ? [] : [[payload.page, Promise.resolve()]]);
  boardRoot.replaceChildren();
  boardRoot.dataset.view = view;
  state.board = module.mount(boardRoot, payload);
  renderLegend(payload.legend || [], module.swatch);
  drawMoveList();
  mountScrub(scrub, roundMarks, payload.frames, (ply) => {
    stopAutoplay();
    goTo(ply).catch(fail);
  });
  viewSelect.value = view;
  await goTo(state.ply);
}

async function start() {
  for (const button of root.querySelectorAll("[data-go]")) {
    button.addEventListener("click", () => go(button.dataset.go));
  }
  speedSelect.addEventListener("change", () => {
    if (state.timer !== null) {
      stopAutoplay();
      startAutoplay();
    }
  });
  $("#replay-copy").addEventListener("click", () => { copyLink(); });
  notationToggle.addEventListener("change", () => {
    if (!state.payload) return;
    drawMoveList();
    highlightMove(movesRoot, state.ply);
    $("#replay-notation").hidden = !notationToggle.checked;
  });
  viewSelect.addEventListener("change", () => {
    setView(viewSelect.value).catch(fail);
  });
  document.addEventListener("keydown", onKey);
  await setView(state.view);
  root.dataset.ready = "true";
}

/** Say why the replay cannot be shown; a rule the server cites links to its text. */
function fail(error) {
  const message = $("#replay-error");
  const body = error.body || {};
  const parts = [String(error.message || error)];
  if (body.rule) {
    const id = el("code", {}, body.rule);
    parts.push(" ", body.rule_url ? el("a", { class: "rule-link", href: body.rule_url }, id) : id, ":");
  }
  if (body.message) parts.push(" ", body.message);
  message.replaceChildren(...parts);
  message.hidden = false;
}

start().catch(fail);
