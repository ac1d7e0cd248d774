// Zoom and pan for an SVG drawing by its viewBox: the mouse wheel zooms around the
// pointer, one finger or the mouse drags, two fingers pinch, and buttons zoom in, out
// and back to the whole drawing. ``onChange(scale)`` runs after every change with the
// screen pixels per drawing unit, so the caller can keep labels a readable size. The
// caller may also frame a part of the drawing (``focus``: following the action on a
// small screen) until the reader moves the view; a button follows it again.

import { el } from "../dom.js";
import { gettext } from "../../i18n.js";

const MAX_ZOOM = 12;
const STEP = 1.6;

/** Make ``drawing`` (an <svg>) zoomable within ``home`` ([x, y, w, h], the whole view). */
export function panZoom(drawing, home, onChange, { onFollow = null } = {}) {
  let view = [...home];
  const pointers = new Map();
  let pinch = null;
  /** The reader moved the view: ``focus`` leaves it alone until "follow" is pressed. */
  let moved = false;

  const scale = () => (drawing.getBoundingClientRect().width || 1) / view[2];
  const zoom = () => home[2] / view[2];

  function apply() {
    drawing.setAttribute("viewBox", view.map((v) => v.toFixed(2)).join(" "));
    drawing.dataset.zoom = zoom().toFixed(2);
    // At the whole view a vertical swipe scrolls the page; zoomed in, a swipe pans the map.
    drawing.style.touchAction = zoom() > 1.01 ? "none" : "pan-y";
    buttons.out.disabled = zoom() <= 1.01;
    buttons.home.disabled = zoom() <= 1.01;
    buttons.in.disabled = zoom() >= MAX_ZOOM - 0.01;
    if (buttons.follow) buttons.follow.setAttribute("aria-pressed", String(!moved));
    onChange(scale());
  }

  /** Frame the drawing points ``points`` ([[x, y], …]) with a margin, at least ``minWidth``
   * drawing units wide; nothing when the reader has moved the view. */
  function focus(points, minWidth = home[2] / 3) {
    if (moved || !points.length) return;
    const xs = points.map((p) => p[0]);
    const ys = points.map((p) => p[1]);
    const aspect = home[3] / home[2];
    let w = Math.max(minWidth, (Math.max(...xs) - Math.min(...xs)) * 1.3, ((Math.max(...ys) - Math.min(...ys)) * 1.3) / aspect);
    w = Math.min(home[2], w);
    const cx = (Math.max(...xs) + Math.min(...xs)) / 2;
    const cy = (Math.max(...ys) + Math.min(...ys)) / 2;
    view = [cx - w / 2, cy - (w * aspect) / 2, w, w * aspect];
    clamp();
    apply();
  }

  /** Keep the view inside the drawing (no panning off into nothing). */
  function clamp() {
    const [hx, hy, hw, hh] = home;
    view[2] = Math.min(hw, Math.max(hw / MAX_ZOOM, view[2]));
    view[3] = view[2] * (hh / hw);
    view[0] = Math.min(hx + hw - view[2], Math.max(hx, view[0]));
    view[1] = Math.min(hy + hh - view[3], Math.max(hy, view[1]));
  }

  /** The drawing point under screen point (clientX, clientY). */
  function toDrawing(clientX, clientY) {
    const r = drawing.getBoundingClientRect();
    return [view[0] + ((clientX - r.left) / r.width) * view[2], view[1] + ((clientY - r.top) / r.height) * view[3]];
  }

  /** Zoom by ``factor`` keeping the drawing point (px, py) where it is on screen. */
  function zoomBy(factor, px = view[0] + view[2] / 2, py = view[1] + view[3] / 2) {
    const w = view[2] / factor;
    const h = view[3] / factor;
    view = [px - ((px - view[0]) * w) / view[2], py - ((py - view[1]) * h) / view[3], w, h];
    clamp();
    apply();
  }

  function reset() {
    view = [...home];
    apply();
  }

  drawing.addEventListener("wheel", (event) => {
    event.preventDefault();
    moved = true;
    const [px, py] = toDrawing(event.clientX, event.clientY);
    zoomBy(Math.exp(-event.deltaY * (event.deltaMode === 1 ? 0.05 : 0.0015)), px, py);
  }, { passive: false });

  drawing.addEventListener("pointerdown", (event) => {
    if (event.pointerType === "mouse" && event.button !== 0) return;
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    // Keep getting this pointer's moves when it leaves the drawing mid-drag.
    if (drawing.setPointerCapture && event.isTrusted) drawing.setPointerCapture(event.pointerId);
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      pinch = { distance: Math.hypot(a.x - b.x, a.y - b.y), width: view[2] };
    }
  });

  drawing.addEventListener("pointermove", (event) => {
    const before = pointers.get(event.pointerId);
    if (!before) return;
    const now = { x: event.clientX, y: event.clientY };
    pointers.set(event.pointerId, now);
    if (pointers.size >= 2 && pinch) {
      const [a, b] = [...pointers.values()];
      const distance = Math.hypot(a.x - b.x, a.y - b.y);
      const [px, py] = toDrawing((a.x + b.x) / 2, (a.y + b.y) / 2);
      moved = true;
      zoomBy(view[2] / (pinch.width * (pinch.distance / Math.max(1, distance))), px, py);
      return;
    }
    if (zoom() <= 1.01) return; // nothing to pan at the whole view
    moved = true;
    const r = drawing.getBoundingClientRect();
    view[0] -= ((now.x - before.x) / r.width) * view[2];
    view[1] -= ((now.y - before.y) / r.height) * view[3];
    clamp();
    apply();
    drawing.classList.add("mx-panning");
  });

  const release = (event) => {
    pointers.delete(event.pointerId);
    if (pointers.size < 2) pinch = null;
    if (!pointers.size) drawing.classList.remove("mx-panning");
  };
  drawing.addEventListener("pointerup", release);
  drawing.addEventListener("pointercancel", release);

  const buttons = {
    in: el("button", { type: "button", class: "map-zoom-in", title: gettext("Zoom in (or the mouse wheel, or pinch)"), "aria-label": gettext("Zoom in") }, "+"),
    out: el("button", { type: "button", class: "map-zoom-out", title: gettext("Zoom out"), "aria-label": gettext("Zoom out") }, "−"),
    home: el("button", { type: "button", class: "map-zoom-home", title: gettext("Whole board"), "aria-label": gettext("Whole board") }, "⤢"),
  };
  if (onFollow) {
    buttons.follow = el("button", { type: "button", class: "map-follow", title: gettext("Follow the action: show where the last move happened"),
      "aria-label": gettext("Follow the action"), "aria-pressed": "true" }, "◎");
    buttons.follow.addEventListener("click", () => {
      moved = false;
      onFollow();
    });
  }
  buttons.in.addEventListener("click", () => { moved = true; zoomBy(STEP); });
  buttons.out.addEventListener("click", () => { moved = true; zoomBy(1 / STEP); });
  buttons.home.addEventListener("click", () => { moved = true; reset(); });
  const controls = el("div", { class: "map-zoom", role: "group", "aria-label": gettext("Zoom") },
    buttons.in, buttons.out, buttons.home, ...(buttons.follow ? [buttons.follow] : []));

  // A resized page changes the screen size of a drawing unit.
  if (typeof ResizeObserver !== "undefined") new ResizeObserver(() => onChange(scale())).observe(drawing);

  return { controls, zoomBy, reset, apply, scale, focus };
}
