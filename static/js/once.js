// A form marked data-once is sent once: a second click (or Enter) while the first
// request is on its way is ignored, and its buttons say so. Coming back to the page
// (the browser's Back, from its cache) makes it sendable again.
for (const form of document.querySelectorAll("form[data-once]")) {
  form.addEventListener("submit", (event) => {
    if (form.dataset.sent) {
      event.preventDefault();
      return;
    }
    form.dataset.sent = "true";
    form.setAttribute("aria-busy", "true");
    // Disabled after this event, so the clicked button's name and value are still sent.
    setTimeout(() => {
      for (const button of form.querySelectorAll("button[type=submit], button:not([type])")) {
        button.disabled = true;
      }
    });
  });
}
window.addEventListener("pageshow", (event) => {
  if (!event.persisted) return;
  for (const form of document.querySelectorAll("form[data-once][data-sent]")) {
    delete form.dataset.sent;
    form.removeAttribute("aria-busy");
    for (const button of form.querySelectorAll("button")) button.disabled = false;
  }
});
