// Starts ReDoc (the site's copy, drf-spectacular-sidecar) on the schema named by its
// container: a file rather than an inline script, so the page's policy keeps
// script-src 'self'.
//
// The bundle draws a "by Redocly" logo from their CDN, which the page's policy refuses
// (a console error, and a request to a third party). The image is dropped before it is
// asked for: an <img>'s address on that CDN is never set, the image is hidden instead;
// every other image and attribute goes through untouched.
const THEIR_CDN = "https://cdn.redoc.ly/";
const src = Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, "src");
Object.defineProperty(HTMLImageElement.prototype, "src", {
  ...src,
  set(value) {
    if (String(value).startsWith(THEIR_CDN)) this.hidden = true;
    else src.set.call(this, value);
  },
});
const setAttribute = Element.prototype.setAttribute;
Element.prototype.setAttribute = function (name, value) {
  if (this instanceof HTMLImageElement && name === "src" && String(value).startsWith(THEIR_CDN)) {
    this.hidden = true;
    return;
  }
  setAttribute.call(this, name, value);
};

const container = document.getElementById("redoc-container");
window.Redoc.init(container.dataset.specUrl, JSON.parse(container.dataset.settings || "{}"), container);
