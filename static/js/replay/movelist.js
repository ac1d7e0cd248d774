// The move list: every action as the engine's plain sentence (its compact notation
// shown instead only when the reader asks for it), grouped by round and phase; a click
// jumps.

import { groupByRoundAndPhase } from "./navigation.js";
import { el } from "./dom.js";
import { gettext, interpolate } from "../i18n.js";

/** Fill ``root`` with the grouped move list; ``onJump(ply)`` runs on a click. Without
 * ``onJump`` (the recorder, which shows where the game stands, not its history) the
 * moves are text, not buttons, and there is no "Setup" entry; ``frames`` may then be
 * the actions alone. A frame with ``bot`` set is marked as a bot's move. */
export function renderMoveList(root, frames, onJump, { notation = false, phases = {} } = {}) {
  root.replaceChildren();
  if (onJump) {
    const start = el("button", { class: "move move-setup", type: "button", "data-ply": "0" }, gettext("Setup"));
    root.append(el("div", { class: "moves-setup" }, start));
  }
  for (const round of groupByRoundAndPhase(frames)) {
    const section = el("section", { class: "moves-round", "data-round": String(round.round) });
    // A game without rounds (Cloak & Dagger's turns) has no round headings.
    if (round.round !== null && round.round !== undefined) section.append(el("h3", {}, interpolate(gettext("Round %(round)s"), { round: round.round })));
    for (const phase of round.phases) {
      const list = el("ol", { class: "moves-phase-list" });
      for (const frame of phase.frames) {
        // Both name the seat themselves ("Anna examines an envelope", "p2 examine ?"). The
        // notation shows only when the reader turned it on; then the sentence is on hover.
        const shown = notation ? frame.notation : frame.sentence ?? frame.notation;
        const attributes = { class: "move", "data-ply": String(frame.ply), "data-seat": frame.seat || "", "data-notation": frame.notation || "" };
        if (notation && frame.sentence) attributes.title = frame.sentence;
        const badge = frame.bot ? el("span", { class: "badge move-bot" }, gettext("bot")) : "";
        list.append(
          el(
            "li",
            { value: String(frame.ply), class: frame.bot ? "move-by-bot" : "" },
            onJump
              ? el("button", { ...attributes, type: "button" }, shown || "", badge)
              : el("span", attributes, shown || "", badge),
          ),
        );
      }
      const label = phase.phase ? el("h4", {}, phases[phase.phase] || phase.phase) : "";
      section.append(el("div", { class: "moves-phase", "data-phase": phase.phase || "" }, label, list));
    }
    root.append(section);
  }
  // A property, not addEventListener: the list is rebuilt on every change of perspective.
  root.onclick = onJump ? (event) => {
    const button = event.target.closest("button[data-ply]");
    if (button && root.contains(button)) onJump(Number(button.dataset.ply));
  } : null;
}

/** Mark the move of ``ply`` as current and keep it in sight (the list scrolls by itself,
 * never the page). */
export function highlightMove(root, ply) {
  for (const old of root.querySelectorAll('[aria-current="step"]')) old.removeAttribute("aria-current");
  const current = root.querySelector(`button[data-ply="${ply}"]`);
  if (!current) return;
  current.setAttribute("aria-current", "step");
  const box = root.getBoundingClientRect();
  const item = current.getBoundingClientRect();
  if (item.top < box.top || item.bottom > box.bottom) {
    root.scrollTop += item.top - box.top - box.height / 2 + item.height / 2;
  }
}
