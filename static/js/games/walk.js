// A rejected upload's position at the step chosen, drawn as the replay draws it: the
// game's board module (static/js/replay/boards/<renderer>.js) given the server's frames
// payload of that step (games.selectors.rejected_walkthrough), the last move shown.

import { loadBoard } from "../replay/boards/load.js";

const root = document.getElementById("walk-board");
const data = JSON.parse(document.getElementById("walk-board-data").textContent);

loadBoard(data.renderer).then((module) => {
  const board = module.mount(root, data);
  const frames = data.frames;
  board.update(frames[frames.length - 1], { frames, ply: frames.length - 1 });
  root.dataset.ready = "true";
});

// The step shown (and the refused action after it) in sight in the list of actions,
// which scrolls by itself: on a phone the list is long and the step is near its end.
const list = document.querySelector(".actions-list");
const current = list && (list.querySelector("li.current") || list.querySelector("#offending"));
if (current) list.scrollTop = current.offsetTop - list.offsetTop - list.clientHeight / 3;
