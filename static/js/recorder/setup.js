// The setup form's seat names follow its options as they change (Mister X names each
// detective seat by the pawns its player moves): the server names them as the engine
// does (recorder.views.record_seat_labels), from step one's query and the options now.

import { gettext, interpolate, pageLanguage } from "../i18n.js";

const form = document.getElementById("rec-setup");
// Each change asks again; only the latest answer is drawn (an earlier one arriving late
// would put back names of pawns since moved).
let latest = 0;

async function followOptions() {
  const asked = ++latest;
  const url = new URL(form.dataset.seatsUrl, location.href);
  url.search = location.search;
  for (const [name, value] of new FormData(form)) {
    if (name.startsWith("option.")) url.searchParams.append(name, value);
  }
  url.searchParams.set("lang", pageLanguage());  // the labels in the page's language
  const response = await fetch(url, {headers: {Accept: "application/json"}});
  if (!response.ok || asked !== latest) return;
  const {labels} = await response.json();
  if (asked !== latest) return;
  for (const [seat, label] of Object.entries(labels)) {
    const pick = form.querySelector(`label[for="${CSS.escape(`id_seat.${seat}`)}"]`);
    if (pick) pick.textContent = label;
    const typed = form.querySelector(`label[for="${CSS.escape(`id_new.${seat}`)}"]`);
    if (typed) typed.textContent = interpolate(gettext("or a new player as %(seat)s"), { seat: label });
  }
}

if (form?.dataset.seatsUrl) {
  form.addEventListener("change", (event) => {
    if (event.target.name?.startsWith("option.")) followOptions();
  });
}
