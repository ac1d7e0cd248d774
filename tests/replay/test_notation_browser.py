"""Notation only when the reader turns it on (issue 35, item 5): the replay's header and
move list say each move as the engine's sentence, fully in the reader's language (a
detective's refill of nothing too); the compact notation (``det2 draws 0 ticket(s)``)
stands beside it only after the reader ticks "Notation". Japanese and Russian, 1400 and
390 px. Screenshots: artifacts/replay/notation-{ja,ru}-{1400,390}.png."""

from __future__ import annotations

import re

import pytest
from django.test import override_settings

from engine import play
from replay.frames import build_frames
from tests.replay.browsing import open_replay

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCRIPTS = {"ja": re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]"), "ru": re.compile(r"[\u0400-\u04ff]")}


def _refill_of_nothing(log: dict, viewer: str) -> int:
    """The ply of a detective's refill that drew no ticket, as ``viewer`` sees it."""
    frames = build_frames(log, viewer, locale="en")["frames"]
    return next(
        f["ply"] for f in frames if f["notation"] and f["notation"].endswith("draws 0 ticket(s)")
    )


@pytest.mark.parametrize(
    ("language", "width"), [("ja", 1400), ("ja", 390), ("ru", 1400), ("ru", 390)]
)
def test_notation_stands_beside_the_sentence_only_when_turned_on(
    page, live_server, club, store_match, screenshot, language, width
):
    script = SCRIPTS[language]
    log = play("mister-x", 1, ["greedy"] * 3)
    with override_settings(LANGUAGE_CODE="en"):
        ply = _refill_of_nothing(log, "mrx")
    match = store_match(club, log)
    page.set_viewport_size({"width": width, "height": 900})
    open_replay(page, live_server, match, f"?lang={language}&view=mrx&ply={ply}")
    notation = build_frames(log, "mrx", locale=language)["frames"][ply]["notation"]
    sentence = page.inner_text("#replay-sentence")
    assert script.search(sentence) and "ticket" not in sentence, sentence
    header = page.inner_text(".replay-now")
    assert notation not in header and not page.is_visible("#replay-notation"), header
    moves = page.locator("#replay-moves")
    assert "ticket(s)" not in moves.inner_text() and " draws " not in moves.inner_text()
    # No notation on hover either while it is off.
    assert page.locator("#replay-moves .move[title]").count() == 0
    screenshot(page, f"notation-{language}-{width}")

    page.check("#replay-notation-toggle")
    page.wait_for_selector("#replay-notation:visible")
    assert page.inner_text("#replay-notation") == notation
    assert page.inner_text("#replay-sentence") == sentence
    current = page.locator(f'#replay-moves button[data-ply="{ply}"]')
    assert current.inner_text().startswith(notation) and current.get_attribute("title") == sentence
    page.uncheck("#replay-notation-toggle")
    assert not page.is_visible("#replay-notation")
