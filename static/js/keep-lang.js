// A page opened with ?lang=ja (a shared link) keeps that language as the reader moves on:
// every link and search form of this site on the page carries the same ?lang=, and so does
// the address every other form posts to (the views that redirect after a post keep it: see
// config.query.keeping_language). The language switcher is left alone: it chooses. Without
// ?lang= in the address nothing changes (the account, the cookie or the browser decide).
const lang = new URLSearchParams(window.location.search).get("lang");

/** Carries the page's ?lang= into the links and forms under ``root`` (a part a script drew
 * after the page loaded calls it too); nothing without ?lang= in the address. */
export function keepLanguage(root) {
  if (!lang) return;
  for (const link of root.querySelectorAll("a[href]")) {
    const url = new URL(link.getAttribute("href"), window.location.href);
    if (url.origin !== window.location.origin || url.pathname.startsWith("/api/") || url.searchParams.has("lang")) continue;
    url.searchParams.set("lang", lang);
    link.setAttribute("href", url.pathname + url.search + url.hash);
  }
  for (const form of root.querySelectorAll('form[method="get"], form:not([method])')) {
    if (form.querySelector('input[name="lang"]')) continue;
    const input = document.createElement("input");
    input.type = "hidden";
    input.name = "lang";
    input.value = lang;
    form.append(input);
  }
  for (const form of root.querySelectorAll('form[method="post"]:not(.lang-switch)')) {
    const url = new URL(form.getAttribute("action") || window.location.href, window.location.href);
    if (url.origin !== window.location.origin || url.pathname.startsWith("/api/") || url.searchParams.has("lang")) continue;
    url.searchParams.set("lang", lang);
    form.setAttribute("action", url.pathname + url.search + url.hash);
  }
}

if (lang) {
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", () => keepLanguage(document));
  } else {
    keepLanguage(document);
  }
}
