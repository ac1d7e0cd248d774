// The new club form's preview of the club's address, as the name (or the address) is
// typed: the server reads the name (kanji need a dictionary) and says which address is
// free (clubs.views.club_address).
const preview = document.querySelector("[data-address-url]");
const output = document.getElementById("address-preview");
const name = document.getElementById("id_name");
const slug = document.getElementById("id_slug");

let timer = null;
let asked = 0;

async function refresh() {
  const number = ++asked;
  const query = new URLSearchParams({ name: name.value, slug: slug.value });
  const response = await fetch(`${preview.dataset.addressUrl}?${query}`, {
    headers: { Accept: "application/json" },
  });
  if (!response.ok || number !== asked) return;
  const { address } = await response.json();
  output.value = `${preview.dataset.prefix}${address || "…"}/`;
}

if (preview && output && name && slug) {
  for (const input of [name, slug]) {
    input.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(refresh, 250);
    });
  }
  // typed before this module ran, or filled in by the browser
  if (name.value || slug.value) refresh();
}
