// The recording screen: the board as the replay viewer draws it, the actions so far,
// and the entry of the next action from the engine's legal actions. Nothing is kept
// in the page that the server does not have: every action is saved by the API before
// the page shows it, so a reload (or another device) resumes exactly where it was.

import { ApiError, DraftApi } from "./api.js";
import { mountEntry } from "./controls.js";
import { hintsFor } from "./games.js";
import { el } from "../replay/dom.js";
import { loadBoard } from "../replay/boards/load.js";
import { renderMoveList } from "../replay/movelist.js";
import { gettext, interpolate, ngettext } from "../i18n.js";

const root = document.getElementById("recorder");
const config = JSON.parse(document.getElementById("recorder-config").textContent);
const $ = (selector) => root.querySelector(selector);
const api = new DraftApi(config.urls, config.csrfToken);

const ui = {
  alert: $("#rec-alert"),
  status: $("#rec-status"),
  board: $("#rec-board"),
  seatPick: $("#rec-seat-pick"),
  entry: $("#rec-entry"),
  entryBox: $("#rec-entry-box"),
  moves: $("#rec-moves"),
  notation: $("#rec-notation-toggle"),
  undo: $("#rec-undo"),
  finish: $("#rec-finish"),
  done: $("#rec-done"),
};

const state = { draft: null, boardModule: null, board: null, boardPayload: null, staticView: null, hints: null, seat: null, stale: false, writing: false };

// --- talking to the server ------------------------------------------------------

/** ``rule``: the id a refusal cites, shown as a link to its text (``ruleUrl``), which
 * opens in another tab so the game being recorded stays on screen. */
function showAlert(message, { reload = false, rule = null, ruleUrl = null } = {}) {
  const parts = [];
  if (rule) {
    const id = el("code", {}, rule);
    parts.push(ruleUrl
      ? el("a", { class: "rule-link", href: ruleUrl, target: "_blank", rel: "noopener", title: interpolate(gettext("Read rule %(rule)s"), { rule }) }, id)
      : id, ": ");
  }
  parts.push(el("span", {}, message));
  if (reload) {
    const button = el("button", { type: "button", class: "rec-reload" }, gettext("Reload"));
    button.addEventListener("click", () => window.location.reload());
    parts.push(" ", button);
  }
  ui.alert.replaceChildren(...parts);
  ui.alert.hidden = false;
}

function clearAlert() {
  ui.alert.hidden = true;
  ui.alert.replaceChildren();
}

/** Run one request with the page marked busy; a refusal is shown, not thrown. */
async function busy(promise) {
  root.setAttribute("aria-busy", "true");
  try {
    const answer = await promise;
    if (!state.stale) clearAlert();
    return answer;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.stale) {
      // Another tab wrote first. Writing on would fork the game: stop and say so.
      state.stale = true;
      root.dataset.stale = "true";
      showAlert(gettext("This game changed in another tab or device — reload to see it before recording more."), { reload: true });
      disableWrites();
    } else if (error.closed) {
      state.stale = true;
      showAlert(gettext("This draft was finished or discarded elsewhere — reload to see it."), { reload: true });
      disableWrites();
    } else {
      showAlert(error.sentence, { rule: error.body.rule, ruleUrl: error.body.rule_url });
    }
    return null;
  } finally {
    root.removeAttribute("aria-busy");
  }
}

function disableWrites() {
  for (const control of root.querySelectorAll("#rec-entry-box button, #rec-entry-box select, #rec-undo, #rec-finish button")) {
    control.disabled = true;
  }
}

/** A write; ``focus``: the next action's entry takes the keyboard focus. */
async function write(request, { focus = false } = {}) {
  // One write at a time from this page: a second one made before the first is answered
  // would name the same version and be refused as if another tab had written. (A repeat
  // that still reaches the server — a retry — is answered as the first: recorder/API.md.)
  if (state.stale || state.writing) return;
  state.writing = true;
  try {
    const draft = await busy(request(state.draft.version));
    if (draft) await render(draft, { focus });
  } finally {
    state.writing = false;
  }
}

// --- drawing --------------------------------------------------------------------

async function drawBoard(draft) {
  if (!state.board) {
    const module = state.boardModule;
    state.boardPayload = {
      game: draft.game,
      viewer: draft.viewer,
      seats: draft.seats.map((s) => ({ seat: s.seat, player: s.player })),
      static: state.staticView,
      options: draft.options,
    };
    ui.board.replaceChildren();
    state.board = module.mount(ui.board, state.boardPayload);
  }
  // The board's words, as the replay's payload gives them: seats and phases as players
  // call them, cards and tickets by name (each answer may name a phase not seen before).
  Object.assign(state.boardPayload, { seat_labels: draft.seat_labels, phases: draft.phases, card_words: draft.card_words });
  // One frame only: the recorder shows where the game stands, not its history.
  state.board.update(draft.frame, { frames: [draft.frame], ply: 0 });
  ui.board.dataset.ply = String(draft.ply);
}

/** "alice as Mister X", "medium bot as Player 2 (spies E/e)": who plays the seat and the
 * engine's name of it. */
function playerOf(draft, seat) {
  const label = (draft.seat_labels || {})[seat] || seat;
  const entry = draft.seats.find((s) => s.seat === seat);
  if (!entry) return label;
  // the bot as players call it ("strong bot"), named by the server in the reader's language
  const who = entry.bot ? entry.bot_name || entry.bot : entry.player;
  return interpolate(gettext("%(player)s as %(seat)s"), { player: who, seat: label });
}

function lastSentence(draft) {
  const move = draft.moves[draft.moves.length - 1];
  return (move.sentence || move.notation).replace(/\.$/, "");
}

function describeStatus(draft) {
  if (draft.status === "finished") return gettext("Stored.");
  if (draft.status === "abandoned") return gettext("Discarded.");
  if (draft.is_over) {
    // The engine's sentence of the result, in the reader's language (recorder.selectors).
    return draft.result_sentence ? interpolate(gettext("Game over: %(result)s"), { result: draft.result_sentence }) : gettext("Game over.");
  }
  const view = draft.frame.view;
  const round = view.round !== null && view.round !== undefined ? `${interpolate(gettext("Round %(round)s"), { round: view.round })} · ` : "";
  const phase = view.phase ? `${(draft.phases || {})[view.phase] || view.phase} · ` : "";
  // The last action first: what a recorder checks against the table after each entry.
  const last = draft.moves.length ? `${interpolate(gettext("Last: %(action)s."), { action: lastSentence(draft) })} ` : "";
  const seats = draft.to_act.map((s) => playerOf(draft, s));
  return `${last}${round}${phase}${interpolate(ngettext("%(seats)s to act", "%(seats)s to act", seats.length), { seats: seats.join(", ") })}`;
}

/** The actions so far as the replay lists them: the engine's sentences (as this person's
 * eyes saw each action), grouped by round and phase, the notation on hover or toggle. */
function drawMoves(draft) {
  const notation = ui.notation.checked;
  renderMoveList(ui.moves, draft.moves, null, { notation, phases: draft.phases || {} });
  ui.moves.parentElement.classList.toggle("show-notation", notation);
  if (!draft.moves.length) ui.moves.append(el("p", { class: "muted rec-empty" }, gettext("No action yet.")));
  // The latest action in sight, at the bottom of the list.
  ui.moves.scrollTop = ui.moves.scrollHeight;
  const humanMoves = draft.moves.some((m) => !m.bot);
  ui.undo.disabled = state.stale || draft.status !== "recording" || !humanMoves;
  ui.undo.hidden = !config.canWrite || !config.undo;
}

function humanSeatsToAct(draft) {
  const bots = new Set(draft.seats.filter((s) => s.bot).map((s) => s.seat));
  return draft.to_act.filter((seat) => !bots.has(seat));
}

function drawEntry(draft, focus = false) {
  ui.seatPick.replaceChildren();
  if (!config.canWrite || draft.status !== "recording" || draft.is_over || !draft.seat) {
    ui.entryBox.hidden = true;
    ui.entry.replaceChildren();
    return;
  }
  ui.entryBox.hidden = false;
  // Several seats may act now (Mister X's detectives): the recorder picks whose move it is.
  const seats = humanSeatsToAct(draft);
  if (!seats.includes(state.seat)) state.seat = draft.seat;
  if (seats.length > 1) {
    const group = el("div", { role: "group", "aria-labelledby": "rec-seat-label", class: "rec-choices" });
    ui.seatPick.append(el("p", { id: "rec-seat-label", class: "rec-question-label" }, gettext("Whose action?")));
    for (const seat of seats) {
      const button = el("button", { type: "button", class: "rec-seat secondary", "data-seat": seat, "aria-pressed": String(seat === state.seat) }, playerOf(draft, seat));
      button.addEventListener("click", () => {
        state.seat = seat;
        drawEntry(state.draft);
      });
      group.append(button);
    }
    ui.seatPick.append(group);
  }
  startActionEntry(draft, state.seat, focus);
}

function startActionEntry(draft, seat, focus = false) {
  mountEntry(ui.entry, {
    focus,
    title: playerOf(draft, seat),
    load: (prefix) => api.legal(seat, prefix),
    order: state.hints.order,
    notation: () => ui.notation.checked,
    busy,
    onDone: (entry) => {
      if (entry.chance) return startChanceEntry(draft, seat, entry);
      return write((version) => api.apply(version, entry.action), { focus: true });
    },
  });
}

/** The chance in ``entry`` (cards drawn, blocks, an envelope's card): what came out. */
function startChanceEntry(draft, seat, entry) {
  const said = entry.sentence || entry.notation;
  const back = el("button", { type: "button", class: "secondary rec-back" }, gettext("Back: not this action"));
  back.addEventListener("click", () => startActionEntry(draft, seat, true));
  const box = el("div", { class: "rec-chance" });
  const head = el("p", { class: "rec-chance-head", ...(ui.notation.checked ? { title: entry.notation } : {}) },
    interpolate(gettext("What came out? %(action)s"), { action: said }));
  ui.entry.replaceChildren(head, box, back);
  mountEntry(box, {
    focus: true,
    title: gettext("Came out"),
    load: (prefix) => api.chance(entry.action, prefix),
    order: state.hints.order,
    notation: () => ui.notation.checked,
    busy,
    onDone: (completed) => write((version) => api.apply(version, completed.action), { focus: true }),
  });
}

function drawFinish(draft) {
  ui.finish.hidden = !config.canWrite || draft.status !== "recording";
  ui.done.hidden = draft.status === "recording";
  if (draft.status === "finished" && draft.match) {
    ui.done.replaceChildren(
      el("p", {}, interpolate(gettext("This game is stored as match #%(match)s."), { match: draft.match })),
      el("p", { class: "actions" },
        el("a", { class: "button", href: draft.match_url, "data-link": "match" }, interpolate(gettext("Match #%(match)s"), { match: draft.match })), " ",
        el("a", { href: config.replayUrl.replace("/0/", `/${draft.match}/`), "data-link": "replay" }, gettext("Watch the replay"))),
    );
  } else if (draft.status === "abandoned") {
    ui.done.replaceChildren(el("p", {}, gettext("This draft was discarded; nothing was stored.")));
  }
  const store = $("#rec-store");
  store.textContent = draft.is_over ? gettext("Store the match") : gettext("Stop here and store as an unfinished match");
  store.classList.toggle("secondary", !draft.is_over);
  $("#rec-stop-confirm").hidden = true;
  $("#rec-stop").hidden = draft.is_over;
  store.hidden = !draft.is_over;
}

function render(draft, { focus = false } = {}) {
  state.draft = draft;
  root.dataset.version = String(draft.version);
  root.dataset.ply = String(draft.ply);
  root.dataset.status = draft.is_over && draft.status === "recording" ? "over" : draft.status;
  ui.status.textContent = describeStatus(draft);
  drawMoves(draft);
  drawEntry(draft, focus);
  drawFinish(draft);
  return drawBoard(draft);
}

// --- start ----------------------------------------------------------------------

function bindButtons() {
  // A double click is one click. Its second click would land on whatever the first one
  // drew under the pointer (the next question, "Back", the next action's first choice).
  root.addEventListener("click", (event) => {
    if (event.detail > 1 && event.target.closest("button")) {
      event.stopImmediatePropagation();
      event.preventDefault();
    }
  }, true);
  ui.notation.addEventListener("change", () => drawMoves(state.draft));
  ui.undo.addEventListener("click", () => write((version) => api.undo(version), { focus: true }));
  $("#rec-stop").addEventListener("click", () => {
    $("#rec-stop-confirm").hidden = false;
    $("#rec-stop").hidden = true;
    $("#rec-store").hidden = false;
    $("#rec-store").focus();
  });
  $("#rec-stop-cancel").addEventListener("click", () => drawFinish(state.draft));
  $("#rec-store").addEventListener("click", () => write((version) => api.finish(version)));
  $("#rec-abandon").addEventListener("click", () => write((version) => api.abandon(version)));
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest && event.target.closest("input, select, textarea, [contenteditable]")) return;
    if (event.key === "u" && !ui.undo.disabled && !ui.undo.hidden) {
      event.preventDefault();
      ui.undo.click();
    } else if (event.key === "Escape") {
      // Take back the last choice of the action being entered (or leave its chance).
      const steps = ui.entry.querySelectorAll(".rec-step:not([disabled])");
      const back = steps.length ? steps[steps.length - 1] : ui.entry.querySelector(".rec-back:not([disabled])");
      if (back) {
        event.preventDefault();
        back.click();
      }
    }
  });
}

async function start() {
  bindButtons();
  const draft = await api.draft(true);
  state.staticView = draft.static;
  state.boardModule = await loadBoard(draft.renderer);
  state.hints = hintsFor(state.boardModule, draft.static);
  await render(draft);
  root.dataset.ready = "true";
}

start().catch((error) => {
  showAlert(String(error.message || error), { reload: true });
});
