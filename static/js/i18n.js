// The page's words in the reader's language. Django's JavaScript catalog
// (django.views.i18n.JavaScriptCatalog at /jsi18n/?lang=…, loaded by the page as a plain
// script before its modules: templates/_jsi18n.html) defines ``django.gettext`` and
// friends with the djangojs catalog of locale/<lang>/; without it (a module loaded on its
// own, a test page) the English source text is used.
//
// Strings are marked by calling these with a literal (``gettext("Setup")``), which is
// what ``makemessages -d djangojs`` extracts; values go in through ``interpolate`` with
// named placeholders (``%(ply)s``), so a translation may put them in any order.

const catalog = () => globalThis.django;

/** ``text`` in the reader's language. */
export function gettext(text) {
  return catalog()?.gettext(text) ?? text;
}

/** The form of ``singular``/``plural`` for ``count`` in the reader's language (Russian
 * has three forms, Japanese one; the catalog's Plural-Forms chooses). */
export function ngettext(singular, plural, count) {
  return catalog()?.ngettext(singular, plural, count) ?? (count === 1 ? singular : plural);
}

/** ``text`` in the reader's language, told apart from the same English word elsewhere. */
export function pgettext(context, text) {
  return catalog()?.pgettext(context, text) ?? text;
}

/** ``format`` with each ``%(name)s`` replaced by ``values[name]``. */
export function interpolate(format, values) {
  return format.replace(/%\((\w+)\)s/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

/** The page's language (``<html lang>``): ``en``, ``ja`` or ``ru``. */
export function pageLanguage() {
  return document.documentElement.lang || "en";
}

/** ``url`` (relative to the page, or a URL) asking for the page's language: what the
 * server answers (moves, refusals, labels) speaks the language the page was drawn in,
 * which a shared link's ``?lang=`` may have chosen over the cookie and the browser's. */
export function inPageLanguage(url) {
  const full = new URL(url, window.location.href);
  full.searchParams.set("lang", pageLanguage());
  return full;
}
