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
import { keepLanguage } from "../keep-lang.js";

const root = document.getElementById("live");
const config = JSON.parse(document.getElementById("live-config").textContent);
const $ = (selector) => root.querySelector(selector);

/** How often a page without a socket asks for news (ms), and the longest wait between
 * two tries to open the socket again. */
const POLL_EVERY = 2000;
const RECONNECT_AT_MOST = 15000;
/** How often the clocks shown are counted down, and how often the page asks where the
 * table stands while a player is away (their grace period ends between events). */
const TICK_EVERY = 250;
const ASK_WHILE_AWAY = 15000;
/** How often an open page tells its socket it is still here (a socket of a server that
 * died never closes: the server counts a silent one away after a few minutes). */
const HERE_EVERY = 60000;
/** Under this a running clock is shown in the warning colour (ms). */
const LOW_TIME = 20000;

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

  claim(seen) {
    return this.request(this.urls.claim, { method: "POST", body: { seen } });
  }

  table() {
    return this.request(this.urls.table);
  }

  askTakeback(seen) {
    return this.request(this.urls.takeback, { method: "POST", body: { seen } });
  }

  answerTakeback(seen, agree) {
    return this.request(this.urls.takebackAnswer, { method: "POST", body: { seen, agree } });
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
  takeback: $("#live-takeback"),
  sound: $("#live-sound-toggle"),
  clocks: $("#live-clocks"),
  claim: $("#live-claim"),
  claimText: $("#live-claim-text"),
  claimButton: $("#live-claim-button"),
};
const baseTitle = document.title;
const state = { n: 0, moves: [], news: null, board: null, boardModule: null, boardPayload: null, hints: null, entryAt: -1, socket: null, poller: null, retry: 1000, acting: false, answer: null, taking: Promise.resolve(), eyes: null, yourTurn: false, turnCame: false, keepFocus: false, heard: false, later: null,
  clocksAt: 0, ticker: null, asked: false, awayAsker: null, here: null };

/** Where the "sound on your turn" choice is remembered (off unless a person turns it on). */
const SOUND_KEY = "lantern.live.sound";

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
  if (state.eyes !== null && state.eyes !== "all" && news.eyes === "all") {
    // The game ended and these eyes now see everything: every move is drawn again, from
    // the first event (a socket sends them all; a poll's answer has only the newest).
    Object.assign(state, { eyes: news.eyes, n: 0, moves: [], board: null });
    delete ui.done.dataset.drawn;  // drawn again, without "shows here later"
    if (!news.events.length || news.events[0].n !== 1) news = await api.news(0);
  }
  state.eyes = news.eyes;
  for (const event of news.events) {
    if (event.n <= state.n) continue;
    // A move taken back later comes without its body (nothing of it is drawn again).
    if (event.kind === "move" && event.move) state.moves.push(event.move);
    if (event.kind === "taken-back") state.moves.length = Math.min(state.moves.length, event.ply - 1);
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
    clearInterval(state.here);
    state.here = setInterval(() => socket.readyState === WebSocket.OPEN && socket.send("here"), HERE_EVERY);
    stopPolling();
    state.retry = 1000;
    setLink("live");
  });
  socket.addEventListener("message", (message) => {
    const body = JSON.parse(message.data);
    const answer = state.answer;
    if (answer && answer.socket === socket && (body.moved || body.refused)) {
      // The answer to the move this page sent on the socket (live/socket_moves.py).
      state.answer = null;
      if (body.moved) answer.resolve(body.moved);
      else answer.reject(new ApiError(REFUSED_STATUS[body.refused.error] || 400, body.refused));
      return;
    }
    // A "now" or "here" refused past the socket's limit (live/socket_limits.py): nothing
    // to draw; the page asks again later.
    if (body.refused) return;
    take(body);
  });
  socket.addEventListener("close", () => {
    const answer = state.answer;
    if (answer && answer.socket === socket) {
      // Its answer lost with the socket: the move goes over HTTP (had the server played
      // it already, HTTP refuses it as stale and the page catches up).
      state.answer = null;
      answer.resolve(api.act(answer.seen, answer.action));
    }
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
  if (news.ending && news.ending.reason === "idle") {
    return gettext("Nobody moved here for a long time: the table ended without a result.");
  }
  if (news.ending && news.ending.reason === "full") {
    return gettext("The game reached the most moves a log may hold: it was stored unfinished, without a result.");
  }
  if (position.is_over) {
    return position.result_sentence ? interpolate(gettext("Game over: %(result)s"), { result: position.result_sentence }) : gettext("Game over.");
  }
  const view = position.frame.view;
  const round = view.round !== null && view.round !== undefined ? `${interpolate(gettext("Round %(round)s"), { round: view.round })} · ` : "";
  const phase = view.phase ? `${position.phases[view.phase] || view.phase} · ` : "";
  const request = news.takeback;
  if (request && request.waiting.includes(news.eyes)) return `${round}${phase}${gettext("Answer the take-back first.")}`;
  if (request && request.by === news.eyes) return `${round}${phase}${gettext("Waiting for the answer to your take-back.")}`;
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
  const mine = news.status === "playing" && position && position.your_turn && !news.takeback;
  ui.entryBox.hidden = !mine;
  if (!mine) {
    ui.entry.replaceChildren();
    state.entryAt = -1;
    state.keepFocus = false;
    return;
  }
  if (state.entryAt === state.n) return;  // the entry of this moment is drawn already
  const at = state.n;
  state.entryAt = at;
  // The entry of an earlier moment goes at once: its choices, clicked or entered while
  // this moment's are on their way, would be sent as a move of the position after it.
  ui.entry.replaceChildren();
  mountEntry(ui.entry, {
    title: seatName(news, news.eyes),
    load: (prefix) => api.legal(prefix),
    order: state.hints.order,
    describe: state.hints.describe,
    notation: () => ui.notation.checked,
    busy: guarded,
    // Sent with the moment it was chosen at: a position that moved on since answers
    // "stale" (the page catches up), never a refusal of a move meant for another position.
    onDone: (entry) => act(entry.action, at),
    // Keyboard use: when the turn comes, focus goes to its first choice.
    focus: state.turnCame || state.keepFocus,
  });
  state.keepFocus = false;
}

// --- take-backs the other seats agree to ---------------------------------------------------

function drawTakeback(news) {
  const box = ui.takeback;
  if (!box) return;
  const request = news.takeback;
  const mine = config.seat !== null && config.seat === news.eyes && news.status === "playing";
  const last = state.moves[state.moves.length - 1];
  const parts = [];
  if (request) {
    const who = seatName(news, request.by);
    const waiting = request.waiting.map((s) => seatName(news, s)).join(", ");
    if (request.by === news.eyes) {
      parts.push(el("p", {}, interpolate(gettext("You asked to take back your last move. Waiting for: %(seats)s."), { seats: waiting })));
      if (mine) parts.push(takebackButton(gettext("Withdraw the request"), "withdraw", () => api.answerTakeback(state.n, false), "secondary"));
    } else {
      parts.push(el("p", {}, interpolate(gettext("%(seat)s asks to take back their last move."), { seat: who })));
      if (mine && request.waiting.includes(news.eyes)) {
        parts.push(el("p", { class: "actions" },
          takebackButton(gettext("Agree"), "agree", () => api.answerTakeback(state.n, true)),
          " ",
          takebackButton(gettext("Decline"), "decline", () => api.answerTakeback(state.n, false), "secondary")));
      }
    }
  } else if (mine && config.takebacks && last && last.seat === news.eyes) {
    parts.push(takebackButton(gettext("Ask to take back my last move"), "ask", () => api.askTakeback(state.n), "secondary"));
  }
  box.replaceChildren(...parts);
  box.hidden = !parts.length;
}

function takebackButton(text, name, send, className = "") {
  const button = el("button", { type: "button", class: className, "data-takeback": name }, text);
  button.addEventListener("click", async () => {
    button.disabled = true;
    const answer = await guarded(send());
    if (answer) await take(answer);
    else button.disabled = false;
  });
  return button;
}

// --- your turn: the tab's title, a sound if wanted -------------------------------------------

function beep() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  const audio = new Context();
  const tone = audio.createOscillator();
  const gain = audio.createGain();
  tone.frequency.value = 660;
  gain.gain.setValueAtTime(0.15, audio.currentTime);
  gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
  tone.connect(gain).connect(audio.destination);
  tone.start();
  tone.stop(audio.currentTime + 0.25);
  tone.addEventListener("ended", () => audio.close());
}

function soundWanted() {
  try {
    return window.localStorage.getItem(SOUND_KEY) === "on";
  } catch {
    return false;  // storage refused (a private window): no sound
  }
}

function noticeTurn(news) {
  // Your turn: to move, or to answer a take-back asked of you.
  const request = news.takeback;
  const yours = news.status === "playing" && (request ? request.waiting.includes(news.eyes)
    : Boolean(news.position && news.position.your_turn));
  state.turnCame = yours && !state.yourTurn;
  // Not on the page's first drawing: the sound says the turn came, not that it is.
  if (state.turnCame && state.heard && soundWanted()) beep();
  state.heard = true;
  state.yourTurn = yours;
  document.title = yours ? `● ${gettext("Your turn")} — ${baseTitle}` : baseTitle;
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

/** The HTTP status the API answers a refusal with, by its code: a refusal on the socket
 * is shown as the API's would be. */
const REFUSED_STATUS = { stale: 409, closed: 409, time_out: 409, illegal: 422, over_budget: 429 };

/** A move: on the socket while it is open (cheaper for the server), else over HTTP; the
 * news with the move either way, or an ApiError with the refusal. */
function sendMove(seen, action) {
  const socket = state.socket;
  if (!socket || socket.readyState !== WebSocket.OPEN || state.answer) return api.act(seen, action);
  return new Promise((resolve, reject) => {
    state.answer = { socket, seen, action, resolve, reject };
    socket.send(JSON.stringify({ act: { seen, action } }));
  });
}

async function act(action, seen) {
  if (state.acting) return;
  state.acting = true;
  // A move entered from the keyboard: the entry of the seat's next move (still its turn)
  // takes the focus, not the page's top where the removed confirm button leaves it.
  state.keepFocus = ui.entry.contains(document.activeElement);
  try {
    await take(await sendMove(seen, action));
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
  if (news.sees_all_later) {
    // A watcher: what was hidden shows here after the club's delay (the page asks again);
    // the match (its replay shows everything) is linked from here only then.
    ui.done.append(el("p", { class: "muted", "data-later": "true" }, gettext("What was hidden shows here a while after the end, as the club chose.")));
    return;
  }
  const table = await api.table();
  if (table.match_url) {
    ui.done.append(el("p", { class: "actions" },
      el("a", { class: "button", href: table.match_url, "data-link": "match" }, interpolate(gettext("Match #%(match)s"), { match: table.match }))));
    keepLanguage(ui.done);
  }
}

// --- clocks and absence -------------------------------------------------------------------

/** A clock's figure: m:ss (h:mm:ss from an hour), days and hours for a correspondence move. */
function clockText(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  const days = Math.floor(seconds / 86400);
  const hours = Math.floor((seconds % 86400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = String(seconds % 60).padStart(2, "0");
  if (days > 0) return interpolate(gettext("%(days)s d %(hours)s h"), { days, hours });
  if (hours > 0) return `${hours}:${String(minutes).padStart(2, "0")}:${rest}`;
  return `${minutes}:${rest}`;
}

function clockLeft(seat) {
  const clock = state.news.clocks[seat];
  return clock.running ? clock.left_ms - (performance.now() - state.clocksAt) : clock.left_ms;
}

function drawClocks(news) {
  state.clocksAt = performance.now();
  state.asked = false;
  const presence = news.presence || {};
  const shown = news.seats.filter((row) => !row.free && ((news.clocks && news.clocks[row.seat]) || presence[row.seat]));
  ui.clocks.hidden = !shown.length || news.status === "open";
  ui.clocks.replaceChildren(...shown.map((row) => {
    const clock = news.clocks && news.clocks[row.seat];
    const away = presence[row.seat] === "away" || presence[row.seat] === "gone";
    return el("li", { class: "live-clock", "data-seat": row.seat, "data-running": String(Boolean(clock && clock.running && news.status === "playing")) },
      el("span", { class: "who" }, seatName(news, row.seat)),
      clock ? el("span", { class: "time", role: "timer" }, clockText(clock.left_ms)) : "",
      away ? el("span", { class: "away" }, presence[row.seat] === "gone" ? gettext("gone") : gettext("away")) : "");
  }));
  clearInterval(state.ticker);
  state.ticker = null;
  const running = news.status === "playing" && news.clocks && Object.values(news.clocks).some((c) => c.running);
  if (running) state.ticker = setInterval(tick, TICK_EVERY);
  clearInterval(state.awayAsker);
  state.awayAsker = null;
  if (news.status === "playing" && Object.values(presence).includes("away")) {
    state.awayAsker = setInterval(askNow, ASK_WHILE_AWAY);
  }
}

function tick() {
  for (const item of ui.clocks.querySelectorAll('[data-running="true"]')) {
    const left = clockLeft(item.dataset.seat);
    item.querySelector(".time").textContent = clockText(left);
    item.dataset.low = String(left < LOW_TIME);
    // The server decides: once a clock shown reaches zero, ask where the table stands.
    if (left <= 0 && !state.asked) {
      state.asked = true;
      setTimeout(askNow, 300);
    }
  }
}

/** Where the table stands now, even with no new event (the socket's "now", or a poll). */
function askNow() {
  if (state.socket && state.socket.readyState === WebSocket.OPEN) state.socket.send("now");
  else poll();
}

function drawClaim(news) {
  const seats = news.status === "playing" ? news.claimable || [] : [];
  ui.claim.hidden = !seats.length;
  if (!seats.length) return;
  const grace = Math.max(1, Math.round(((news.control && news.control.grace_s) || 0) / 60));
  ui.claimText.textContent = interpolate(ngettext(
    "%(seats)s left the table more than %(minutes)s minute ago: you may claim the game.",
    "%(seats)s left the table more than %(minutes)s minutes ago: you may claim the game.", grace),
  { seats: seats.map((s) => seatName(news, s)).join(", "), minutes: grace });
}

async function claim() {
  if (state.acting) return;
  state.acting = true;
  try {
    await take(await api.claim(state.n));
    clearAlert();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    showAlert(error.sentence, { rule: error.body.rule });
    await poll();
  } finally {
    state.acting = false;
  }
}

async function draw(news) {
  root.dataset.status = news.status;
  noticeTurn(news);
  // Over (finished, abandoned, idle): nothing left to abandon.
  const abandonBox = document.getElementById("live-abandon-box");
  if (abandonBox) abandonBox.hidden = news.status !== "open" && news.status !== "playing";
  drawSeats(news);
  watchForAllSeeing(news);
  ui.lobby.hidden = news.status !== "open";
  ui.game.hidden = news.status === "open";
  if (news.status === "abandoned") {
    // Closed by its opener or an organiser, or for want of moves: nothing more to play here.
    ui.entryBox.hidden = true;
    ui.status.textContent = news.ending && news.ending.reason === "idle"
      ? describe(news) : gettext("This table was abandoned: no one plays it any more.");
    drawClocks(news);
    drawClaim(news);
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
  drawClocks(news);
  drawClaim(news);
  drawMoves(news);
  drawEntry(news);
  drawTakeback(news);
  await drawBoard(news);
  await drawDone(news);
}

/** A watcher of a finished game sees everything once the club's delay passes: no event
 * marks that moment, so the page asks now and then until its eyes change. */
function watchForAllSeeing(news) {
  if (news.sees_all_later && !state.later) {
    state.later = setInterval(poll, 60000);
  } else if (!news.sees_all_later && state.later) {
    clearInterval(state.later);
    state.later = null;
  }
}

async function start() {
  state.boardModule = await loadBoard(config.renderer);
  state.hints = hintsFor(state.boardModule, config.static);
  ui.notation.addEventListener("change", () => state.news && drawMoves(state.news));
  if (ui.sound) {
    ui.sound.checked = soundWanted();
    ui.sound.addEventListener("change", () => {
      try {
        window.localStorage.setItem(SOUND_KEY, ui.sound.checked ? "on" : "off");
      } catch {
        ui.sound.checked = false;
      }
      if (ui.sound.checked) beep();  // so the person hears what it will sound like
    });
  }
  ui.claimButton.addEventListener("click", claim);
  connect();
}

start().catch((error) => showAlert(String(error.message || error)));
