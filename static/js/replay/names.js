// How the replay page names a seat or a team: as its perspective list does
// ("Mister X (alice)", "detectives (team)"), which the server wrote from the engine's roles.

/** A card or ticket by its name in the page's language (the page's ``cardWords``, from
 * the engine: Split, Разделение), or its log id. */
export function cardName(card) {
  return cardWords()[card] || card;
}

let words = null;
function cardWords() {
  if (words === null) {  // read once: the page's config does not change
    const config = document.getElementById("replay-config");
    words = config ? JSON.parse(config.textContent).cardWords || {} : {};
  }
  return words;
}

/** The page's name of ``seat`` (a seat or team id), or the id itself. */
export function seatName(seat) {
  const option = document.querySelector(`#replay-view option[value="${CSS.escape(seat)}"]`);
  return option ? option.textContent.trim() : seat;
}
