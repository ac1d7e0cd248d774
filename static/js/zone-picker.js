// A time zone <select data-zone-picker> made searchable: a search field above it keeps
// only the zones whose label (offset, country and city in the reader's language, IANA
// name) holds every word typed, and picks the first of them. Without this module the
// <select> works as it is.
for (const select of document.querySelectorAll("select[data-zone-picker]")) {
  const search = document.createElement("input");
  search.type = "search";
  search.className = "zone-search";
  search.placeholder = select.dataset.searchPlaceholder || "";
  search.setAttribute("aria-label", select.dataset.searchLabel || search.placeholder);
  search.setAttribute("aria-controls", select.id);
  select.before(search);
  const options = [...select.options];
  search.addEventListener("input", () => {
    const words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
    let first = null;
    for (const option of options) {
      const text = `${option.text} ${option.value}`.toLowerCase();
      const shown = words.every((word) => text.includes(word));
      option.hidden = !shown;
      if (shown && !first && option.value) first = option;
    }
    if (first && words.length) select.value = first.value;
    select.size = words.length ? Math.min(8, Math.max(2, options.filter((o) => !o.hidden).length)) : 0;
  });
}
