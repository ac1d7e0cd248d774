"""The replay page read in Japanese and in Russian, in headless Chromium at 1400 and 390 px:
every move as the engine's sentence in the reader's language, the page's own words and
the board's panels from the catalogs, the Mister X map's cities by their local names.
Screenshots: artifacts/replay/replay-{ja,ru}-{1400,390}.png."""

from __future__ import annotations

import re

import pytest

from engine import get_game, play
from engine.core.messages import render
from replay.frames import build_frames
from tests.replay.browsing import open_replay

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
CYRILLIC = re.compile(r"[\u0400-\u04ff]")
# Words of the page's English that must not be left on a translated page.
ENGLISH_UI = (
    "Moves",
    "Perspective",
    "Loading",
    "Setup",
    "Round ",
    "Move ",
    "Notation",
    "Copy link",
    "Legend",
    "Speed",
    "Analysis",
    "Played",
    "Result",
)


def _check_page(page, script: re.Pattern[str]) -> None:
    sentence = page.inner_text("#replay-sentence")
    assert script.search(sentence), sentence
    position = page.inner_text("#replay-position")
    assert script.search(position), position
    moves = page.locator("#replay-moves button.move")
    assert moves.count() > 10
    for i in (1, 5, moves.count() - 1):
        assert script.search(moves.nth(i).inner_text())
    visible = page.inner_text("main")
    left = [word for word in ENGLISH_UI if re.search(rf"\b{word}\b", visible)]
    assert left == [], left


@pytest.mark.parametrize("width", [1400, 390])
def test_a_mister_x_replay_in_japanese(page, live_server, club, store_match, screenshot, width):
    log = play(
        "mister-x", 1, ["greedy"] * 3
    )  # on the europe/1 board, whose cities have Japanese names
    match = store_match(club, log)
    page.set_viewport_size({"width": width, "height": 900})
    open_replay(page, live_server, match, "?lang=ja&ply=8")
    assert page.get_attribute("html", "lang") == "ja"
    _check_page(page, JAPANESE)
    # The sentence is the engine's own Japanese sentence of that move.
    expected = build_frames(log, "all", locale="ja")["frames"][8]["sentence"]
    assert page.inner_text("#replay-sentence") == expected
    # The board names its cities as Japanese readers know them (GeoNames' names).
    labels = page.locator(".mx-city-name")
    names = [labels.nth(i).text_content() for i in range(min(labels.count(), 40))]
    assert sum(bool(JAPANESE.search(n or "")) for n in names) > 20, names
    # The role of each seat in the header, as the Japanese edition names it.
    game = get_game(log["game"])
    assert render(game.seat_label("mrx", _table(game, log)), "ja") in page.inner_text(
        ".replay-players"
    )
    # The board by its Japanese name, still Lantern's own; the perspectives by role.
    assert "ヨーロッパ（Lantern）" in page.get_attribute(".mx-board", "aria-label")
    assert "Lantern's own" not in page.inner_text("main")
    perspectives = page.locator("#replay-view option").all_text_contents()
    assert perspectives and all(JAPANESE.search(p) for p in perspectives), perspectives
    screenshot(page, f"replay-ja-{width}")


@pytest.mark.parametrize("width", [1400, 390])
def test_a_cryptid_replay_in_russian(
    page, live_server, club, store_match, example_log, screenshot, width
):
    match = store_match(club, example_log("cryptid-escape.json"))
    page.set_viewport_size({"width": width, "height": 900})
    open_replay(page, live_server, match, "?lang=ru&ply=9")
    assert page.get_attribute("html", "lang") == "ru"
    _check_page(page, CYRILLIC)
    # The board's panels in Russian, with the game's words of the Russian edition.
    panels = page.inner_text(".board-panels")
    assert "Колода" in panels and "Сброс" in panels and "Универсальная карта" in panels
    screenshot(page, f"replay-ru-{width}")


def _table(game, log):
    from engine.core.game import Table

    return Table(
        {e["seat"]: e["player"] for e in log["seats"]},
        game.normalize_options(log.get("options") or {}),
    )


def test_a_shared_link_speaks_its_language_to_a_signed_in_reader(
    page, live_server, club, store_match, django_user_model
):
    """A signed-in reader who chose no language opens a link with ?lang=ja: the page is
    Japanese, and so is everything its scripts fetch (the moves, the beliefs), though the
    browser asks for English and a signed-in reader gets no language cookie from a link."""
    from tests.recorder.recording import sign_in

    log = play("mister-x", 1, ["greedy"] * 3)
    match = store_match(club, log)
    reader = django_user_model.objects.create_user(username="kenji")
    sign_in(page, live_server, reader)
    open_replay(page, live_server, match, "?lang=ja&ply=8")
    assert page.get_attribute("html", "lang") == "ja"
    _check_page(page, JAPANESE)
    page.wait_for_selector(".beliefs-status")
    page.wait_for_function(
        "document.querySelector('.beliefs-status').textContent.trim().length > 0"
    )
    assert JAPANESE.search(page.inner_text(".beliefs-status"))
