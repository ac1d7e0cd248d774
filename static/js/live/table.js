// A live table's page: the board as the replay viewer draws it, the moves so far, and
// this seat's move entered from its legal actions (the recorder's entry). Everything
// shown comes from the server, drawn for this person's eyes: the table's socket sends
// each numbered event after the last one the page has; when the socket is down the
// page asks the same over HTTP (polling), and a reconnect names the last number it has,
// so nothing is missed or shown twice.

import { ApiError, DraftApi } from "../recorder/api.js";
import { mountEntry } from "../recorder/controls.js";
import { hintsFor } from "../recorder/games.js";
import { el } from "../replay/dom.js";
import { loadBoard } from "../replay/boards/load.js";
import { renderMoveList } from "../replay/movelist.js";
import { gettext, interpolate, ngettext, pageLanguage, pgettext } from "../i18n.js";

const root = document.getElementById("live");
const config = JSON.parse(document.getElementById("live-config").textContent);
const $ = (selector) => root.querySelector(selector);

/** How often a page without a socket asks for news (ms), and the longest wait between
 * two tries to open the socket again. */
const POLL_EVERY = 2000;
const RECONNECT_AT_MOST = 15000;

class TableApi extends DraftApi {
  news(since) {
    const url = new URL(this.urls.news, window.location.href);
    url.searchParams.set("since", String(since));
    return this.request(url);
  }

  legal(prefix) {
    const url = new URL(this.urls.legal, window.location.href);
    if (Object.keys(prefix).length) url.searchParams.set("prefix", JSON.stringify(prefix));
    return this.request(url);
  }

  act(seen, action) {
    return this.request(this.urls.act, { method: "POST", body: { seen, action } });
  }

  table() {
    return this.request(this.urls.table);
  }
}

const api = new TableApi(config.urls, config.csrfToken);
const ui = {
  alert: $("#live-alert"),
  link: $("#live-link"),
  lobby: $("#live-lobby"),
  seats: $("#live-seats"),
  game: $("#live-game"),
  status: $("#live-status"),
  board: $("#live-board"),
  entryBox: $("#live-entry-box"),
  entry: $("#live-entry"),
  moves: $("#live-moves"),
  notation: $("#live-notation-toggle"),
  done: $("#live-done"),
};
const baseTitle = document.title;
const state = { n: 0, moves: [], news: null, board: null, boardModule: null, boardPayload: null, hints: null, entryAt: -1, socket: null, poller: null, retry: 1000, acting: false, taking: Promise.resolve() };

function showAlert(message, { rule = null } = {}) {
  ui.alert.replaceChildren(...(rule ? [el("code", {}, rule), ": "] : []), el("span", {}, message));
  ui.alert.hidden = false;
}

function clearAlert() {
  ui.alert.hidden = true;
  ui.alert.replaceChildren();
}

// --- news: from the socket or from polling, the same shape --------------------------------

/** Take in a piece of news: its events after the last one this page has (an event seen
 * already is skipped: a socket's message and a poll's answer may overlap), then where
 * the game stands. */
function take(news) {
  // One at a time, in the order they came: a message drawn while an earlier one is
  // still being drawn would be overtaken by it.
  state.taking = state.taking.then(() => takeNow(news));
  return state.taking;
}

async function takeNow(news) {
  for (const event of news.events) {
    if (event.n <= state.n) continue;
    if (event.kind === "move") state.moves.push(event.move);
    state.n = event.n;
  }
  if (news.n < state.n) return;  // older than what is drawn already
  state.n = news.n;
  state.news = news;
  root.dataset.n = String(state.n);
  await draw(news);
}

function setLink(linkState) {
  ui.link.dataset.state = linkState;
  ui.link.textContent = {
    live: gettext("live"),
    polling: gettext("updating every few seconds"),
    connecting: gettext("connecting…"),
  }[linkState];
}

function startPolling() {
  if (state.poller) return;
  setLink("polling");
  state.poller = setInterval(poll, POLL_EVERY);
}

function stopPolling() {
  clearInterval(state.poller);
  state.poller = null;
}

async function poll() {
  try {
    await take(await api.news(state.n));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
  }
}

function connect() {
  if (!("WebSocket" in window)) {
    startPolling();
    return;
  }
  const base = config.socket.startsWith("ws") ? config.socket
    : `${window.location.protocol === "https:" ? "wss:" : "ws:"}//${window.location.host}${config.socket}`;
  const url = `${base}?since=${state.n}&lang=${encodeURIComponent(pageLanguage())}`;
  const socket = new WebSocket(url);
  state.socket = socket;
  socket.addEventListener("open", () => {
    stopPolling();
    state.retry = 1000;
    setLink("live");
  });
  socket.addEventListener("message", (message) => {
    take(JSON.parse(message.data));
  });
  socket.addEventListener("close", () => {
    if (state.socket !== socket) return;
    state.socket = null;
    // Until the socket is back, the page asks for news itself.
    startPolling();
    setTimeout(connect, state.retry);
    state.retry = Math.min(state.retry * 2, RECONNECT_AT_MOST);
  });
}

// --- drawing ------------------------------------------------------------------------------

function seatName(news, seat) {
  const row = news.seats.find((s) => s.seat === seat);
  const label = (news.position && news.position.seat_labels[seat]) || (row && row.label) || seat;
  return row && row.player ? interpolate(gettext("%(player)s as %(seat)s"), { player: row.player, seat: label }) : label;
}

function drawSeats(news) {
  ui.seats.replaceChildren(...news.seats.map((row) => el("li", { "data-seat": row.seat },
    `${row.label}: `, row.free ? el("em", {}, pgettext("a seat", "free")) : row.player)));
}

function describe(news) {
  const position = news.position;
  if (position.is_over) {
    return position.result_sentence ? interpolate(gettext("Game over: %(result)s"), { result: position.result_sentence }) : gettext("Game over.");
  }
  const view = position.frame.view;
  const round = view.round !== null && view.round !== undefined ? `${interpolate(gettext("Round %(round)s"), { round: view.round })} · ` : "";
  const phase = view.phase ? `${position.phases[view.phase] || view.phase} · ` : "";
  if (position.your_turn) return `${round}${phase}${gettext("Your turn.")}`;
  const seats = position.to_act.map((s) => seatName(news, s));
  return `${round}${phase}${interpolate(ngettext("%(seats)s to act", "%(seats)s to act", seats.length), { seats: seats.join(", ") })}`;
}

async function drawBoard(news) {
  const position = news.position;
  if (!state.board) {
    state.boardPayload = {
      game: root.dataset.game,
      viewer: news.eyes,
      seats: news.seats.map((s) => ({ seat: s.seat, player: s.player })),
      static: config.static,
      options: config.options,
    };
    ui.board.replaceChildren();
    state.board = state.boardModule.mount(ui.board, state.boardPayload);
  }
  Object.assign(state.boardPayload, { seat_labels: position.seat_labels, phases: position.phases, card_words: position.card_words });
  state.board.update(position.frame, { frames: [position.frame], ply: 0 });
}

function drawMoves(news) {
  const notation = ui.notation.checked;
  renderMoveList(ui.moves, state.moves, null, { notation, phases: (news.position && news.position.phases) || {} });
  ui.moves.parentElement.classList.toggle("show-notation", notation);
  if (!state.moves.length) ui.moves.append(el("p", { class: "muted rec-empty" }, gettext("No move yet.")));
  ui.moves.scrollTop = ui.moves.scrollHeight;
  ui.moves.scrollLeft = ui.moves.scrollWidth;
}

function drawEntry(news) {
  const position = news.position;
  const mine = news.status === "playing" && position && position.your_turn;
  ui.entryBox.hidden = !mine;
  if (!mine) {
    ui.entry.replaceChildren();
    state.entryAt = -1;
    return;
  }
  if (state.entryAt === state.n) return;  // the entry of this moment is drawn already
  state.entryAt = state.n;
  mountEntry(ui.entry, {
    title: seatName(news, news.eyes),
    load: (prefix) => api.legal(prefix),
    order: state.hints.order,
    describe: state.hints.describe,
    notation: () => ui.notation.checked,
    busy: guarded,
    onDone: (entry) => act(entry.action),
  });
}

async function guarded(promise) {
  try {
    const answer = await promise;
    clearAlert();
    return answer;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    showAlert(error.sentence, { rule: error.body.rule });
    return null;
  }
}

async function act(action) {
  if (state.acting) return;
  state.acting = true;
  try {
    await take(await api.act(state.n, action));
    clearAlert();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.stale) {
      // Someone moved first: catch up, then choose again.
      state.entryAt = -1;
      await poll();
    } else {
      showAlert(error.sentence, { rule: error.body.rule });
    }
  } finally {
    state.acting = false;
  }
}

async function drawDone(news) {
  if (news.status !== "finished") return;
  ui.done.hidden = false;
  if (ui.done.dataset.drawn) return;
  ui.done.dataset.drawn = "true";
  ui.done.replaceChildren(el("p", {}, gettext("The game is over and stored as a match of the club.")));
  const table = await api.table();
  if (table.match_url) {
    ui.done.append(el("p", { class: "actions" },
      el("a", { class: "button", href: table.match_url, "data-link": "match" }, interpolate(gettext("Match #%(match)s"), { match: table.match }))));
  }
}

async function draw(news) {
  root.dataset.status = news.status;
  document.title = news.position && news.position.your_turn && news.status === "playing"
    ? `● ${gettext("Your turn")} · ${baseTitle}` : baseTitle;
  drawSeats(news);
  ui.lobby.hidden = news.status !== "open";
  ui.game.hidden = news.status === "open";
  if (news.status === "abandoned") {
    // Closed by its opener or an organiser: nothing more to play here.
    const box = document.getElementById("live-abandon-box");
    if (box) box.hidden = true;
    ui.entryBox.hidden = true;
    ui.status.textContent = gettext("This table was abandoned: no one plays it any more.");
    if (news.position) {
      drawMoves(news);
      await drawBoard(news);
    }
    return;
  }
  if (!news.position) return;
  root.dataset.ply = String(news.position.ply);
  root.dataset.turn = String(news.position.your_turn);
  ui.status.textContent = describe(news);
  drawMoves(news);
  drawEntry(news);
  await drawBoard(news);
  await drawDone(news);
}

async function start() {
  state.boardModule = await loadBoard(config.renderer);
  state.hints = hintsFor(state.boardModule, config.static);
  ui.notation.addEventListener("change", () => state.news && drawMoves(state.news));
  connect();
}

start().catch((error) => showAlert(String(error.message || error)));
