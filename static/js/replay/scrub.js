// The scrub bar: a range input over every ply, with a marker where each round starts
// (a click on a marker jumps there). Labels thin out so they never overlap.

import { el } from "./dom.js";
import { gettext, interpolate } from "../i18n.js";

/** Round starts: [{round, ply}] for the first action of each round. */
export function roundStarts(frames) {
  const starts = [];
  for (const frame of frames) {
    if (frame.ply === 0 || frame.round === null || frame.round === undefined) continue;
    if (!starts.length || starts[starts.length - 1].round !== frame.round) starts.push({ round: frame.round, ply: frame.ply });
  }
  return starts;
}

/** Set up ``input`` (a range) and ``marks`` (its round markers) for ``frames``. */
export function mountScrub(input, marks, frames, onJump) {
  const last = Math.max(1, frames.length - 1);
  input.max = String(frames.length - 1);
  input.oninput = () => onJump(Number(input.value));
  const starts = roundStarts(frames);
  const width = marks.getBoundingClientRect().width || 300;
  // A label needs about 2rem; label every n-th round so that neighbours keep apart.
  const every = Math.max(1, Math.ceil((starts.length * 32) / width));
  marks.replaceChildren(...starts.map(({ round, ply }, i) => {
    const labelled = i % every === 0;
    return el("button", {
      type: "button",
      class: `round-mark${labelled ? " labelled" : ""}`,
      style: `left: ${(100 * ply) / last}%`,
      "data-ply": String(ply),
      "data-round": String(round),
      title: interpolate(gettext("Round %(round)s"), { round }),
      "aria-label": interpolate(gettext("Round %(round)s"), { round }),
    }, labelled ? String(round) : "");
  }));
  marks.onclick = (event) => {
    const mark = event.target.closest("button[data-ply]");
    if (mark) onJump(Number(mark.dataset.ply));
  };
}

/** Move the bar to ``ply``; ``text`` says the move for screen readers. */
export function setScrub(input, ply, text) {
  input.value = String(ply);
  input.setAttribute("aria-valuetext", text);
}
