// The browser's time zone, kept in a cookie the server reads (accounts.middleware): dates
// are shown in it from the next page on, for as long as the person chose no zone of
// their own on their settings page. On a page the server drew in UTC for want of a zone
// (<body data-zone-unknown>: the first visit, or cookies refused), the page's own times
// are written again here in the browser's zone, in the format the server wrote them in.
const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
const kept = document.cookie.split("; ").find((c) => c.startsWith("lantern_tz="));
// IANA names (Asia/Tokyo, America/Argentina/Buenos_Aires) are letters, digits and / _ + -:
// a cookie holds them as they are.
const usable = Boolean(zone) && /^[A-Za-z0-9/_+-]+$/.test(zone);
if (usable && (!kept || kept.slice("lantern_tz=".length) !== zone)) {
  const secure = location.protocol === "https:" ? "; secure" : "";
  document.cookie = `lantern_tz=${zone}; path=/; max-age=31536000; samesite=lax${secure}`;
}

const language = document.documentElement.lang || "en";

/** The parts of `instant` in `zone`: numbers, and the month's names in the page's language. */
function partsOf(instant, zone) {
  const numbers = {};
  const numeric = new Intl.DateTimeFormat("en-US", {
    timeZone: zone, year: "numeric", month: "numeric", day: "numeric",
    hour: "numeric", minute: "numeric", second: "numeric", hourCycle: "h23",
  });
  for (const part of numeric.formatToParts(instant)) numbers[part.type] = Number(part.value);
  const name = (options) => new Intl.DateTimeFormat(language, { timeZone: zone, ...options });
  const inDate = name({ day: "numeric", month: "long" }).formatToParts(instant);
  return {
    ...numbers,
    monthName: name({ month: "long" }).format(instant),
    // the month as a date says it (Russian: "ноября", where the month alone is "ноябрь")
    monthInDate: (inDate.find((part) => part.type === "month") || {}).value,
    monthShort: name({ month: "short" }).format(instant),
  };
}

const two = (n) => String(n).padStart(2, "0");

/** Django's date format characters the site's formats use; null for one it does not. */
const WRITERS = {
  Y: (p) => String(p.year), y: (p) => two(p.year % 100),
  m: (p) => two(p.month), n: (p) => String(p.month),
  d: (p) => two(p.day), j: (p) => String(p.day),
  H: (p) => two(p.hour), G: (p) => String(p.hour),
  i: (p) => two(p.minute), s: (p) => two(p.second),
  F: (p) => p.monthName, E: (p) => p.monthInDate, M: (p) => p.monthShort,
};

/** `instant` written in `format` (Django's date format) in `zone`; null when the format
 * has a character this does not write (the server's text then stays). */
function write(instant, format, zone) {
  const parts = partsOf(instant, zone);
  let out = "";
  for (let i = 0; i < format.length; i += 1) {
    const c = format[i];
    if (c === "\\") {
      i += 1;
      out += format[i] ?? "";
    } else if (WRITERS[c]) {
      out += WRITERS[c](parts);
    } else if (/[A-Za-z]/.test(c)) {
      return null;
    } else {
      out += c;
    }
  }
  return out;
}

if (usable && document.body.hasAttribute("data-zone-unknown")) {
  for (const element of document.querySelectorAll("time[datetime][data-format]")) {
    const instant = new Date(element.getAttribute("datetime"));
    const text = Number.isNaN(instant.getTime()) ? null : write(instant, element.dataset.format, zone);
    if (text !== null) element.textContent = text;
  }
}
