// Starts ReDoc (the site's copy, drf-spectacular-sidecar) on the schema named by its
// container: a file rather than an inline script, so the page's policy keeps
// script-src 'self'.
const container = document.getElementById("redoc-container");
window.Redoc.init(container.dataset.specUrl, JSON.parse(container.dataset.settings || "{}"), container);
