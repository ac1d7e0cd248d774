// The rating history's hover values: pointing at (or tapping, or tabbing to) a match's
// dot shows its date, rating and change at once, beside the dot (the SVG <title> stays
// for screen readers and for pages without scripts).

const figure = document.getElementById("rating-history");
if (figure) {
  const tip = figure.querySelector("#chart-tip");
  const drawing = figure.querySelector("svg");
  const scroller = figure.querySelector(".chart-scroll");
  // On a narrow screen the chart scrolls sideways: start at the latest matches.
  scroller.scrollLeft = scroller.scrollWidth;
  let shown = null;

  const show = (dot) => {
    if (shown) shown.classList.remove("active");
    shown = dot;
    dot.classList.add("active");
    tip.textContent = dot.dataset.text;
    tip.hidden = false;
    const box = figure.getBoundingClientRect();
    const at = dot.getBoundingClientRect();
    const left = Math.min(Math.max(0, at.left - box.left - tip.offsetWidth / 2), box.width - tip.offsetWidth);
    tip.style.left = `${left}px`;
    tip.style.top = `${at.top - box.top - tip.offsetHeight - 6}px`;
  };
  const hide = () => {
    if (shown) shown.classList.remove("active");
    shown = null;
    tip.hidden = true;
  };

  // The nearest dot along x to the pointer: a step line is read left to right.
  drawing.addEventListener("pointermove", (event) => {
    let best = null;
    let distance = Infinity;
    for (const dot of drawing.querySelectorAll(".dot")) {
      const r = dot.getBoundingClientRect();
      const d = Math.abs(r.left + r.width / 2 - event.clientX);
      if (d < distance) { best = dot; distance = d; }
    }
    if (best) show(best);
  });
  drawing.addEventListener("pointerleave", hide);
  // The tip is placed for the layout it was shown in: a turned phone or a resized window
  // would leave it where the dot no longer is (and past the screen's edge).
  window.addEventListener("resize", hide);
  for (const dot of drawing.querySelectorAll(".dot")) {
    dot.addEventListener("focus", () => show(dot));
    dot.addEventListener("blur", hide);
  }
}
