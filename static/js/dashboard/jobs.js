// The dashboard's ladder recomputes, kept current: polls /dashboard/jobs.json and
// redraws the three tables (queued and running with their progress bars, failed with a
// Retry button, finished lately). The page is complete without this script; it only
// keeps it fresh. Rows are built with text nodes, never HTML strings: names are data.

import { el } from "../replay/dom.js";
import { gettext, inPageLanguage, interpolate } from "../i18n.js";

// how often to ask while a job is queued or running, and while none is (milliseconds)
const ACTIVE_EVERY = 1000;
const IDLE_EVERY = 4000;
const ERROR_EVERY = 10000;

const section = document.getElementById("jobs");

function ladder(job) {
  return `${job.club} · ${job.ladder}`;
}

function statusCell(job) {
  const cell = el("td", {}, job.phase ? `${job.status_label} (${job.phase_label})` : job.status_label);
  if (job.stalled) {
    cell.append(" ", el("strong", { class: "status-rejected" }, gettext("stalled")), " ",
      el("span", { class: "muted" }, interpolate(gettext("no sign of life since %(seen)s"), { seen: job.last_seen })));
  }
  return cell;
}

function progressCell(job) {
  if (job.status === "queued") return el("td", {}, el("span", { class: "muted" }, gettext("waiting for a worker")));
  if (!job.total) return el("td", {}, el("progress", {}), " ", el("span", { class: "count" }, gettext("reading matches")));
  return el(
    "td",
    {},
    el("progress", { max: job.total, value: job.progress }, `${job.percent} %`),
    " ",
    el("span", { class: "count" }, `${job.progress} / ${job.total}`),
  );
}

function retryForm(job) {
  const token = el("input", { type: "hidden", name: "csrfmiddlewaretoken", value: section.dataset.csrf });
  return el("form", { method: "post", action: job.retry_url, class: "inline" }, token, el("button", { type: "submit" }, gettext("Retry")));
}

const ROWS = {
  active: (job) => [
    el("td", {}, `#${job.id}`),
    el("td", {}, ladder(job)),
    el("td", {}, job.reason),
    statusCell(job),
    progressCell(job),
    el("td", {}, job.retry_url ? retryForm(job) : ""),
  ],
  failed: (job) => [
    el("td", {}, `#${job.id}`),
    el("td", {}, ladder(job)),
    el("td", {}, job.reason),
    el("td", {}, job.finished || "—"),
    el("td", {}, el("pre", { class: "job-error" }, job.error)),
    el("td", {}, retryForm(job)),
  ],
  finished: (job) => [
    el("td", {}, `#${job.id}`),
    el("td", {}, ladder(job)),
    el("td", {}, job.reason),
    el("td", {}, String(job.total)),
    el("td", {}, job.finished || "—"),
    el("td", {}, job.error ? el("pre", { class: "job-error" }, job.error) : ""),
  ],
};

function render(jobs) {
  for (const [group, build] of Object.entries(ROWS)) {
    const body = section.querySelector(`tbody[data-group="${group}"]`);
    const columns = body.closest("table").querySelectorAll("thead th").length;
    const rows = (jobs[group] || []).map((job) =>
      el("tr", { "data-job-id": job.id, "data-status": job.status }, ...build(job)),
    );
    if (!rows.length) rows.push(el("tr", { class: "empty" }, el("td", { colspan: columns, class: "muted" }, gettext("None."))));
    body.replaceChildren(...rows);
  }
}

function note(text) {
  section.querySelector(".jobs-note").textContent = text;
}

async function poll() {
  let wait = IDLE_EVERY;
  try {
    const response = await fetch(inPageLanguage(section.dataset.url), {
      credentials: "same-origin",
      headers: { Accept: "application/json" },
      cache: "no-store",
    });
    if (!response.ok) throw new Error(`the server answered ${response.status}`);
    const { jobs } = await response.json();
    render(jobs);
    note("");
    if (jobs.active.length) wait = ACTIVE_EVERY;
  } catch (error) {
    note(interpolate(gettext("(not refreshed: %(error)s)"), { error: error.message }));
    wait = ERROR_EVERY;
  }
  setTimeout(schedule, wait);
}

function schedule() {
  // A hidden tab does not poll; it catches up when shown again.
  if (document.hidden) {
    document.addEventListener("visibilitychange", schedule, { once: true });
    return;
  }
  poll();
}

// On a narrow screen the uploads chart scrolls sideways: start at the latest days.
for (const scroller of document.querySelectorAll(".chart-scroll")) scroller.scrollLeft = scroller.scrollWidth;

if (section) {
  const first = section.querySelector('tbody[data-group="active"] tr[data-job-id]');
  setTimeout(schedule, first ? ACTIVE_EVERY : IDLE_EVERY);
}
