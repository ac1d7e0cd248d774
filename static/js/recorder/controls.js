// The entry of one action, built from nothing but what the engine says is legal (or,
// for chance, the ways it could have come out). The recorder narrows the candidates one
// field at a time — "action", then "card", then "space"… — by clicking one of the values
// the remaining candidates really have. The server narrows while the candidates are
// many (a Cryptid relocation has thousands); once it lists them, the page narrows the
// rest itself. Every button and option comes from a legal action, so an illegal entry
// cannot be made; when one candidate is left, one button records it.

import { el } from "../replay/dom.js";
import { gettext, interpolate } from "../i18n.js";

/** Up to this many values are buttons (20 envelopes fit); more become a drop-down. */
const MAX_BUTTONS = 24;

/** Paths into nested fields are written as the API writes them: ``to/0``, ``left/red``. */
const SEP = "/";

/**
 * ``{path: value}`` for every leaf of ``action``. Nested objects become paths
 * ("left/red"), so a split's two sides are chosen colour by colour instead of out of one
 * list of every combination; lists stay whole ("cards": ["split", "split"]).
 */
export function flatten(action, prefix = "", out = {}) {
  for (const [key, value] of Object.entries(action)) {
    const path = prefix ? `${prefix}${SEP}${key}` : key;
    if (value !== null && typeof value === "object" && !Array.isArray(value)) flatten(value, path, out);
    else out[path] = value;
  }
  return out;
}

/** A value as a stable key (absent and null are one: the API's "absent" is null). */
export function valueKey(value) {
  return JSON.stringify(value === undefined ? null : value);
}

/** A value as the recorder reads it on a button. */
export function valueText(value) {
  if (value === undefined || value === null) return gettext("none");
  if (Array.isArray(value)) return value.length ? value.map(valueText).join(" + ") : gettext("none");
  if (typeof value === "object") {
    const parts = Object.entries(value).map(([k, v]) => `${k} ${valueText(v)}`);
    return parts.length ? parts.join(", ") : gettext("none");
  }
  if (typeof value === "boolean") return value ? gettext("yes") : gettext("no");
  return String(value);
}

/**
 * The engine's words for the fields and values of the actions offered (the API's
 * ``fields``, each value's ``label`` and each listed action's ``labels``), gathered from
 * every answer: the page names no game's parts itself.
 */
export class Words {
  constructor() {
    this.fields = new Map();
    this.values = new Map();
  }

  /** Take in the words of one answer of legal-actions or chance-options. */
  learn(answer) {
    for (const [path, text] of Object.entries(answer.fields || {})) this.fields.set(path, text);
    for (const v of answer.values || []) {
      if (v.label !== undefined) this.values.set(`${answer.field}\u0000${valueKey(v.value)}`, v.label);
    }
    for (const entry of answer.actions || []) {
      const flat = flatten(entry.action);
      for (const [path, text] of Object.entries(entry.labels || {})) this.values.set(`${path}\u0000${valueKey(flat[path])}`, text);
    }
  }

  /** A field's name ("pawn", "コマ"); a field the engine did not name, as written. */
  field(path) {
    return this.fields.get(path) ?? path;
  }

  /** A value as the engine says it; one it did not say, as the log writes it. */
  value(path, value) {
    return this.values.get(`${path}\u0000${valueKey(value)}`) ?? null;
  }
}

/**
 * The step-by-step choice among a list of actions, in the page. ``order`` names the fields
 * asked first (a game's own sense of what is decided first: the envelope before what to do
 * in it); the rest follow in the order the engine writes them.
 */
export class Narrowing {
  constructor(actions, { order = [] } = {}) {
    this.actions = actions;
    this.flat = actions.map((action) => flatten(action));
    const paths = [];
    for (const path of order) if (this.flat.some((f) => path in f)) paths.push(path);
    for (const f of this.flat) for (const path of Object.keys(f)) if (!paths.includes(path)) paths.push(path);
    this.paths = paths;
    /** ``[{path, key, value}]``: the choices made so far, in order. */
    this.chosen = [];
  }

  /** Indexes of the candidates that agree with every choice made so far. */
  remaining() {
    const out = [];
    this.flat.forEach((f, i) => {
      if (this.chosen.every(({ path, key }) => valueKey(f[path]) === key)) out.push(i);
    });
    return out;
  }

  /** The first field on which the remaining candidates differ, with its values; null
   * when one candidate (or a list of identical ones) is left. */
  question() {
    const left = this.remaining();
    if (left.length <= 1) return null;
    for (const path of this.paths) {
      const values = new Map();
      for (const i of left) {
        const value = this.flat[i][path];
        const key = valueKey(value);
        if (!values.has(key)) values.set(key, { key, value: value === undefined ? null : value, count: 0 });
        values.get(key).count += 1;
      }
      if (values.size > 1) return { path, values: sortValues([...values.values()]) };
    }
    return null;
  }

  choose(path, key) {
    this.chosen.push({ path, key, value: JSON.parse(key) });
  }

  /** Take back the choice at ``index`` and every later one. */
  backTo(index) {
    this.chosen = this.chosen.slice(0, index);
  }

  /** The index (into ``actions``) of the one candidate left, or -1. */
  resultIndex() {
    const left = this.remaining();
    return left.length >= 1 && this.question() === null ? left[0] : -1;
  }
}

function sortValues(values) {
  if (values.every((v) => typeof v.value === "number")) return values.sort((a, b) => a.value - b.value);
  return values;
}

/** Values the engine names in words (cities for their numbers) in the reader's order of
 * those words; values said as they are keep the engine's order. */
function sortByLabel(path, values, label) {
  const said = values.map((v) => [v, label(path, v.value)]);
  if (!said.every(([v, text]) => typeof v.value === "number" && text !== String(v.value))) return values;
  const collator = new Intl.Collator(document.documentElement.lang || undefined, { numeric: true });
  return said.sort((a, b) => collator.compare(a[1], b[1])).map(([v]) => v);
}

let controlCount = 0;

/**
 * One action's entry in ``root``. ``load(prefix)`` asks the API for a choice (the shape of
 * legal-actions and chance-options: ``field`` and ``values`` while the server narrows,
 * else ``actions``); ``onDone(entry)`` gets the listed ``{action, notation, chance}``
 * picked (it may return a promise: the confirm button waits for it). Values and fields are
 * said in the engine's words (the answers' labels: a city's name for its number); a value
 * it did not say, as written. ``busy(promise)`` wraps every request (the page shows progress
 * and reports failures). ``focus``: put the keyboard focus on the first control once
 * drawn (after an action entered from the keyboard, the next one starts there).
 * ``notation()``: whether the reader turned notation on (then it is on hover).
 */
export function mountEntry(root, { title, load, order = [], onDone, busy, focus = false, notation = () => false }) {
  const words = new Words();
  const label = (path, value) => words.value(path, value) ?? valueText(value);
  const fieldText = (path) => words.field(path);
  /** The fields the recorder chose while the server was narrowing. */
  let serverSteps = [];
  let answer = null;
  let narrowing = null;

  const prefix = () => Object.fromEntries(serverSteps.map(({ path, value }) => [path, value]));

  /** A request for the next choice is on its way: further clicks wait for it. */
  let loading = false;

  async function fetchAnswer(focus) {
    loading = true;
    let got;
    try {
      got = await busy(load(prefix()));
    } finally {
      loading = false;
    }
    if (!got) return;
    answer = got;
    words.learn(answer);
    narrowing = answer.field ? null : new Narrowing(answer.actions.map((entry) => entry.action), { order });
    draw(focus);
  }

  function questionControls(path, values) {
    const id = `rec-q-${(controlCount += 1)}`;
    const name = fieldText(path);
    const text = interpolate(gettext("%(title)s: %(field)s?"), { title, field: name });
    values = sortByLabel(path, values, label);
    if (values.length <= MAX_BUTTONS) {
      const group = el("div", { role: "group", class: "rec-question", "aria-labelledby": id, "data-field": path },
        el("p", { id, class: "rec-question-label" }, text));
      const choices = el("div", { class: "rec-choices" });
      for (const v of values) {
        choices.append(el("button", { type: "button", class: "rec-choice", "data-field": path, "data-value": valueKey(v.value) }, label(path, v.value)));
      }
      group.append(choices);
      return group;
    }
    const select = el("select", { id, "data-field": path },
      el("option", { value: "" }, gettext("choose…")),
      ...values.map((v) => el("option", { value: valueKey(v.value) }, label(path, v.value))));
    return el("div", { class: "rec-question", "data-field": path },
      el("label", { for: id, class: "rec-question-label" }, text), " ", select);
  }

  function draw(focus) {
    const parts = [];
    const steps = [
      ...serverSteps.map((step, i) => ({ ...step, undo: () => { serverSteps = serverSteps.slice(0, i); fetchAnswer(true); } })),
      ...(narrowing ? narrowing.chosen.map((step, i) => ({ ...step, undo: () => { narrowing.backTo(i); draw(true); } })) : []),
    ];
    if (steps.length) {
      const trail = el("ol", { class: "rec-trail", "aria-label": interpolate(gettext("%(title)s: chosen so far"), { title }) });
      steps.forEach((step) => {
        const button = el("button", { type: "button", class: "rec-step secondary", "data-field": step.path,
          "aria-label": interpolate(gettext("Change %(field)s (%(value)s)"), { field: fieldText(step.path), value: label(step.path, step.value) }) },
        `${fieldText(step.path)}: ${label(step.path, step.value)} ✕`);
        button.addEventListener("click", step.undo);
        trail.append(el("li", {}, button));
      });
      parts.push(trail);
    }
    if (answer.field) {
      parts.push(questionControls(answer.field, answer.values));
    } else if (!answer.actions.length) {
      parts.push(el("p", { class: "rec-none" }, gettext("Nothing is legal here.")));
    } else {
      const question = narrowing.question();
      if (question) {
        parts.push(questionControls(question.path, question.values));
      } else {
        const entry = answer.actions[narrowing.resultIndex()];
        // The engine's sentence of it; its notation on hover when the reader shows notation.
        const said = entry.sentence || entry.notation;
        const confirm = el("button", { type: "button", class: "rec-confirm", "data-action": JSON.stringify(entry.action),
          "data-notation": entry.notation, ...(notation() ? { title: entry.notation } : {}) },
        interpolate(entry.chance ? gettext("Next: what came out — %(action)s") : gettext("Record: %(action)s"), { action: said }));
        let saving = false;
        confirm.addEventListener("click", async () => {
          // While the action is being saved, another click waits (the server would
          // answer a second post the same, but once is enough).
          if (saving) return;
          saving = true;
          try {
            await onDone(entry);
          } finally {
            saving = false;
          }
        });
        parts.push(confirm);
      }
    }
    root.replaceChildren(...parts);
    if (focus) {
      // Keyboard use: after a choice, focus moves on to the next question (or the confirm).
      const next = root.querySelector(".rec-question select, .rec-question button, .rec-confirm");
      if (next) next.focus();
    }
  }

  function choose(path, key) {
    if (loading) return;
    if (answer.field) {
      serverSteps.push({ path, value: JSON.parse(key) });
      fetchAnswer(true);
    } else {
      narrowing.choose(path, key);
      draw(true);
    }
  }

  // Handlers on the root, as properties: the root's content is redrawn on every step.
  // An entry may hold another (the chance of an action, inside the action's entry): each
  // answers only the controls that are its own, never those of the one nested in it.
  root.dataset.entry = "";
  const own = (node) => node && node.closest("[data-entry]") === root;
  root.onclick = (event) => {
    const button = event.target.closest("button.rec-choice");
    if (own(button) && !button.disabled) choose(button.dataset.field, button.dataset.value);
  };
  root.onchange = (event) => {
    const select = event.target.closest("select[data-field]");
    if (own(select) && select.value) choose(select.dataset.field, select.value);
  };
  return fetchAnswer(focus);
}
