// Beliefs on the board (engine/core/beliefs.py, /api/matches/{id}/beliefs): what a seat
// could believe of the hidden facts at each move, from this perspective's information
// only — Mister X's possible cities as a heat layer on the map, the cards likely in the
// Cryptid opponent's hand, what a Cloak & Dagger check sheet proves about the envelopes —
// and, in the move list, how each move narrowed (or widened) it.
//
// A module of its own, as analysis.js: it follows the page through the board's data-ply
// and data-view attributes and the move list's buttons; the board modules know nothing of it.

import { el, svg, tip } from "./dom.js";
import { cardName, seatName } from "./names.js";
import { gettext, inPageLanguage, interpolate, ngettext } from "../i18n.js";

const panel = document.getElementById("replay-beliefs");
const boardRoot = document.getElementById("replay-board");
const movesRoot = document.getElementById("replay-moves");

const state = { view: null, payload: null, holder: null, request: 0 };


function percent(p) {
  if (p > 0 && p < 0.005) return "<1%";
  return `${Math.round(p * 100)}%`;
}

// The engine names a belief's unit in English (engine/core/beliefs.py ``measure``); said
// here in the reader's language, with the plural the count asks for.
function unitText(count, unit) {
  const said = {
    cities: ngettext("%(count)s city", "%(count)s cities", count),
    hands: ngettext("%(count)s hand", "%(count)s hands", count),
    "envelopes in doubt": ngettext("%(count)s envelope in doubt", "%(count)s envelopes in doubt", count),
  }[unit];
  return said ? interpolate(said, { count }) : `${count} ${unit}`;
}

/** "23 → 7 cities (4.52 → 2.81 bits)": what one move did to a belief. */
function changeText(change, unit) {
  const bits = change.bits_from !== undefined
    ? ` (${interpolate(gettext("%(from)s → %(to)s bits"), { from: change.bits_from.toFixed(2), to: change.bits_to.toFixed(2) })})` : "";
  return `${change.from} → ${unitText(change.to, unit)}${bits}`;
}

async function load() {
  const view = boardRoot.dataset.view || "all";
  const request = ++state.request;
  const url = inPageLanguage(panel.dataset.url);
  url.searchParams.set("view", view);
  const response = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
  const body = await response.json().catch(() => ({}));
  if (request !== state.request) return;
  state.view = view;
  if (!response.ok) {
    state.payload = null;
    panel.querySelector(".beliefs-status").textContent = body.message || interpolate(gettext("Beliefs cannot be shown (HTTP %(status)s)."), { status: response.status });
    return;
  }
  state.payload = body;
  const holders = holdersOf(body);
  if (!holders.includes(state.holder)) state.holder = holders[0] ?? null;
  panel.hidden = holders.length === 0;
  drawChooser(holders);
  markMoves();
  follow();
}

function holdersOf(payload) {
  const first = payload.plies[0];
  return first ? first.beliefs.map((b) => b.holder) : [];
}

function beliefAt(ply) {
  const plies = state.payload?.plies;
  if (!plies || !plies.length) return null;
  const entry = plies[Math.min(ply, plies.length - 1)];
  return entry.beliefs.find((b) => b.holder === state.holder) || null;
}

function drawChooser(holders) {
  const box = panel.querySelector(".beliefs-chooser");
  box.replaceChildren();
  if (holders.length < 2) return;
  const select = el("select", { "aria-label": gettext("Whose belief") },
    ...holders.map((h) => el("option", { value: h }, seatName(h))));
  select.value = state.holder;
  select.addEventListener("change", () => {
    state.holder = select.value;
    markMoves();
    follow();
  });
  box.append(el("label", {}, gettext("Whose belief:"), " ", select));
}

/** The move list: beside each move, how it changed the chosen belief. Drawn by CSS from
 * the button's data-belief (generated content), so that the move's text stays its sentence. */
function markMoves() {
  for (const old of movesRoot.querySelectorAll("[data-belief]")) {
    delete old.dataset.belief;
    old.classList.remove("belief-narrower", "belief-wider");
  }
  if (!state.payload) return;
  for (const entry of state.payload.plies) {
    const belief = entry.beliefs.find((b) => b.holder === state.holder);
    const change = belief?.changed;
    if (!change || change.from === change.to) continue;
    const button = movesRoot.querySelector(`button[data-ply="${entry.ply}"]`);
    if (!button) continue;
    button.dataset.belief = `${change.from}→${change.to}`;
    button.classList.add(change.to < change.from ? "belief-narrower" : "belief-wider");
  }
}

function describeHolder(belief) {
  if (belief.kind === "position") {
    return boardRoot.dataset.view === belief.about ? gettext("Where the others can place you")
      : interpolate(gettext("Where %(seat)s can be"), { seat: seatName(belief.about) });
  }
  if (belief.kind === "hand") {
    return interpolate(gettext("What %(holder)s can tell of the hand of %(seat)s"),
      { holder: seatName(belief.holder), seat: seatName(belief.about) });
  }
  return interpolate(gettext("What the check sheet of %(holder)s proves"), { holder: seatName(belief.holder) });
}

function follow() {
  const body = panel.querySelector(".beliefs-body");
  const status = panel.querySelector(".beliefs-status");
  const ply = Number(boardRoot.dataset.ply || 0);
  const belief = beliefAt(ply);
  body.replaceChildren();
  clearHeat();
  if (!belief) {
    status.textContent = state.payload ? gettext("Nothing hidden to believe here.") : status.textContent;
    return;
  }
  const m = belief.measure;
  const bits = m.bits === null ? "" : m.bits > 0
    ? interpolate(gettext(", %(bits)s bits of uncertainty"), { bits: m.bits.toFixed(2) }) : gettext(", certain");
  status.textContent = `${describeHolder(belief)}: ${unitText(m.count, m.unit)}${bits}.`;
  const change = belief.changed;
  body.append(el("p", { class: "beliefs-change" }, ply === 0 ? gettext("At the setup.")
    : change ? interpolate(gettext("This move: %(change)s."), { change: changeText(change, m.unit) })
      : gettext("This move changed nothing here."),
  " ", el("span", { class: "muted" }, gettext("In the move list, beside each move: what it did to the count (red: narrowed it)."))));
  if (belief.kind === "position") body.append(...position(belief));
  else if (belief.kind === "hand") body.append(hand(belief));
  else if (belief.kind === "envelopes") body.append(...envelopes(belief));
}

// --- Mister X: a heat layer of his possible cities -----------------------------------

function drawing() {
  return boardRoot.querySelector(".mx-map svg");
}

function cityName(id) {
  return boardRoot.querySelector(`.mx-city-name[data-city="${id}"]`)?.textContent || String(id);
}

function clearHeat() {
  const map = drawing();
  map?.querySelector(".belief-heat")?.remove();
  map?.classList.remove("belief-heat-on");
}

function position(belief) {
  const toggle = panel.querySelector(".beliefs-heat-toggle");
  toggle.hidden = false;
  const map = drawing();
  const top = belief.cities[0]?.[1] || 1;
  if (map && toggle.querySelector("input").checked) {
    const layer = svg("g", { class: "belief-heat", "data-cities": String(belief.cities.length) });
    for (const [id, p] of belief.cities) {
      const dot = map.querySelector(`.mx-city[data-city="${id}"] circle`);
      if (!dot) continue;
      const share = p / top;
      layer.append(svg("circle", {
        cx: dot.getAttribute("cx"), cy: dot.getAttribute("cy"), r: (9 + 13 * Math.sqrt(share)).toFixed(1),
        class: "belief-heat-spot", "data-city": id, "data-p": String(p),
        "fill-opacity": (0.18 + 0.6 * share).toFixed(2),
      }, tip(interpolate(gettext("%(city)s: %(share)s likely, from the paths consistent with what is public and where the city lies"), { city: cityName(id), share: percent(p) }))));
    }
    map.querySelector(".mx-possible-layer")?.after(layer);
    map.classList.add("belief-heat-on");
  }
  const list = el("ol", { class: "beliefs-cities" });
  for (const [id, p] of belief.cities.slice(0, 8)) {
    list.append(el("li", {}, el("span", { class: "beliefs-name" }, cityName(id)), bar(p), el("span", { class: "beliefs-p" }, percent(p))));
  }
  const more = belief.cities.length > 8 ? el("p", { class: "muted" }, interpolate(gettext("…and %(count)s more."), { count: belief.cities.length - 8 })) : "";
  return [list, more, el("p", { class: "muted beliefs-note" },
    gettext("Each city weighted by how many of Mister X's paths consistent with the public record (tickets shown, cities he could not enter, cities found empty, reveals) end there, times how often Mister X stood in a city so placed (moves from the detectives, moves to his nearest destination) in 1,500 games between Lantern's bots."))];
}

function bar(p) {
  return el("span", { class: "beliefs-bar", "aria-hidden": "true" },
    el("span", { class: "beliefs-fill", style: `width:${(100 * p).toFixed(1)}%` }));
}

// --- Cryptid: the opponent's hand ------------------------------------------------------

function hand(belief) {
  const rows = belief.cards.map((c) => el("tr", {},
    el("th", { scope: "row", title: c.card }, cardName(c.card)), el("td", {}, bar(c.at_least_one)),
    el("td", { class: "beliefs-p" }, percent(c.at_least_one)), el("td", { class: "beliefs-p" }, c.expected.toFixed(1))));
  if (!belief.hand_size) return el("p", {}, interpolate(gettext("%(seat)s holds no cards."), { seat: seatName(belief.about) }));
  return el("div", {},
    el("p", {}, interpolate(ngettext(
      "%(seat)s holds %(count)s card, any %(count)s of the %(unseen)s in its hand and deck (its deck mix less its discards, which are public).",
      "%(seat)s holds %(count)s cards, any %(count)s of the %(unseen)s in its hand and deck (its deck mix less its discards, which are public).",
      belief.hand_size), { seat: seatName(belief.about), count: belief.hand_size, unseen: belief.unseen })),
    el("table", { class: "beliefs-hand" },
      el("thead", {}, el("tr", {}, el("th", {}, gettext("Card")), el("th", {}, gettext("Chance of at least one")), el("th", {}, ""), el("th", {}, gettext("On average")))),
      el("tbody", {}, ...rows)));
}

// --- Cloak & Dagger: what the check sheet proves ----------------------------------------

function envelopes(belief) {
  const known = belief.exact.filter(Boolean).length;
  const grid = el("ol", { class: "beliefs-envelopes" });
  for (const [i, letters] of belief.certain.entries()) {
    const e = { envelope: i + 1, exact: belief.exact[i] };
    const cards = [...letters].join(" ");
    const label = e.exact ? (cards ? interpolate(gettext("holds exactly %(cards)s"), { cards }) : gettext("known empty"))
      : cards ? interpolate(gettext("holds %(cards)s for certain, maybe more"), { cards }) : gettext("unknown");
    grid.append(el("li", { class: e.exact ? "exact" : "doubt", "data-envelope": String(e.envelope), title: interpolate(gettext("Envelope %(number)s: %(label)s"), { number: e.envelope, label }) },
      el("span", { class: "beliefs-env-n" }, String(e.envelope)),
      el("span", { class: "beliefs-env-cards" }, e.exact ? cards || "∅" : `${cards}${cards ? " " : ""}+?`)));
  }
  return [
    el("p", {}, interpolate(gettext("Known exactly: %(known)s of %(total)s envelopes."), { known, total: belief.exact.length }), " ",
      interpolate(ngettext("%(count)s card placed for certain.", "%(count)s cards placed for certain.", belief.located), { count: belief.located })),
    grid,
    el("p", { class: "muted beliefs-note" },
      gettext("Certainties, not probabilities: where the other players went on turns nobody announced is their choice, not chance, so this panel puts no odds on it. (To estimate win chances, the analysis treats those choices as equally likely.)"),
      " ", gettext("“+?” marks an envelope an unseen turn may have changed.")),
  ];
}

if (panel && boardRoot && movesRoot) {
  panel.querySelector(".beliefs-heat-toggle input").addEventListener("change", follow);
  new MutationObserver(() => {
    if ((boardRoot.dataset.view || "all") !== state.view) load();
    else follow();
  }).observe(boardRoot, { attributes: true, attributeFilter: ["data-ply", "data-view"] });
  new MutationObserver(() => {
    if (!movesRoot.querySelector("[data-belief]")) markMoves();
  }).observe(movesRoot, { childList: true });
  if (boardRoot.dataset.view) load();
}
