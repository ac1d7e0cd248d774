"""The recorder's choices in the reader's words (issue 35, item 2): playing against a bot
in Japanese and in Russian, at 1400 and 390 px, every question, button, drop-down option
and chosen step says the engine's words (a pawn's colour, a city's name, a ticket, what
to do), never a log code (``red``, ``train/secret``, ``refill``, ``examine``), and Cloak &
Dagger's spies keep their letters' case everywhere (``D/d``, never ``D/D``).
Screenshots: artifacts/recorder/words-{game}-{ja,ru}-{1400,390}.png."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from engine import get_game
from recorder import services
from tests.recorder.recording import choose_at_random, open_in_language, ply, wait_ready

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCRIPTS = {"ja": re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]"), "ru": re.compile(r"[\u0400-\u04ff]")}
#: (game, the human's seats, the bot's seat)
TABLES = [
    ("mister-x", ["det1", "det2"], "mrx"),
    ("cloak-and-dagger", ["p1"], "p2"),
    ("cryptid-urban-legends", ["scientist"], "cryptid"),
]
HANDLES = ("alice", "bob", "carol")
#: what the entry shows: the questions, their buttons and options, and the chosen steps
SHOWN = (
    "#rec-entry .rec-question-label, #rec-entry button.rec-choice, "
    "#rec-entry option, #rec-entry .rec-step"
)


def _table(game: str, humans: list[str], bot: str) -> list[dict[str, Any]]:
    """The seats in the game's order: the bot in ``bot``, a club player in each other."""
    players = dict(zip(humans, HANDLES, strict=False))
    order = get_game(game).seat_ids(get_game(game).normalize_options({}), len(humans) + 1)
    return [
        {"seat": s, "bot": "random"} if s == bot else {"seat": s, "player": players[s]}
        for s in order
    ]


def _untranslated(text: str, script: re.Pattern[str]) -> bool:
    """A label with a Latin word of three letters or more (a log code: ``red``, ``refill``,
    ``train/secret``) once the players' names are taken out, or none of the language's
    script at all (digits alone are fine: a number of cards)."""
    for handle in HANDLES:
        text = text.replace(handle, "")
    text = text.replace("✕", "").strip()
    if not text or re.fullmatch(r"[\d\s.,()/:?+×№]+", text):
        return False
    return bool(re.search(r"[A-Za-z]{3,}", text)) or not script.search(text)


def _enter_one(page: Any, rng: random.Random, seen: list[str]) -> None:
    """Enter a legal action by seeded clicks, noting every label shown on the way."""
    before = ply(page)
    for _ in range(40):
        wait_ready(page)
        seen.extend(t for t in page.locator(SHOWN).all_inner_texts() if t)
        confirm = page.locator("#rec-entry .rec-confirm")
        if confirm.count():
            version = page.eval_on_selector("#recorder", "e => Number(e.dataset.version)")
            confirm.click()
            page.wait_for_function(
                "v => Number(document.querySelector('#recorder').dataset.version) > v"
                " || !!document.querySelector('#rec-entry .rec-chance')",
                arg=version,
            )
            if ply(page) > before:
                return
            continue
        choose_at_random(page, rng)
    raise AssertionError("no action could be entered")


@pytest.mark.parametrize(
    ("language", "width"), [("ja", 1400), ("ja", 390), ("ru", 1400), ("ru", 390)]
)
def test_every_choice_against_a_bot_is_in_the_readers_words(
    chromium, live_server, club, people, screenshot, language, width
):
    script = SCRIPTS[language]
    context, page, errors = open_in_language(
        chromium, live_server, people["member"], language, width
    )
    for game, humans, bot in TABLES:
        draft, _ = services.create_draft(
            club, people["member"], game_id=game, chance="server", seats=_table(game, humans, bot)
        )
        page.goto(f"{live_server.url}/clubs/{club.slug}/record/{draft.pk}/")
        wait_ready(page)
        rng = random.Random(f"{game}-{language}")
        seen: list[str] = []
        for _ in range(5):
            if page.locator("#rec-entry-box").is_hidden():
                break  # the game is over
            _enter_one(page, rng, seen)
        assert len(seen) >= 3, seen
        codes = sorted({text for text in seen if _untranslated(text, script)})
        assert codes == [], f"{game}: {codes}"
        # The spies' letters as the engine writes them: a heading never turns d into D.
        shown = page.inner_text("main")
        assert not re.search(r"\b([A-Z])/\1\b", shown), shown
        screenshot(page, f"words-{game}-{language}-{width}")
    context.close()
    assert not errors, errors


@pytest.mark.parametrize(
    ("language", "width"), [("ja", 1400), ("ja", 390), ("ru", 1400), ("ru", 390)]
)
def test_the_start_choice_names_every_city_in_the_readers_language(
    chromium, live_server, club, people, screenshot, language, width
):
    """Issue 35, item 6: Mister X's start, its pawns' cities and the tickets dealt at the
    table are chosen by their names in the reader's language, every one of them."""
    script = SCRIPTS[language]
    context, page, errors = open_in_language(
        chromium, live_server, people["member"], language, width
    )
    page.goto(f"{live_server.url}/clubs/{club.slug}/record/?game=mister-x&players=3&chance=table")
    page.wait_for_selector("#rec-setup")
    options = page.eval_on_selector_all(
        'select[name^="setup."] option:not([value=""])', "os => os.map(o => o.textContent)"
    )
    assert len(options) > 100
    assert sorted({o for o in options if re.search(r"[A-Za-z]", o) or not script.search(o)}) == []
    screenshot(page, f"words-start-{language}-{width}")
    context.close()
    assert not errors, errors
