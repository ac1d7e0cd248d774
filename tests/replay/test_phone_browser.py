"""Every game's replay at phone width (375 px): nothing scrolls sideways, the board fits,
the controls stay reachable and work."""

from __future__ import annotations

import pytest

from tests.replay.browsing import board_ply, open_replay
from tests.replay.leaks import EXAMPLES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 375, "height": 740}


@pytest.mark.parametrize("example", [e for e in EXAMPLES if e != "cryptid-timeout.json"])
def test_replay_is_usable_at_phone_width(
    page, live_server, club, store_match, example_log, example, screenshot
):
    match = store_match(club, example_log(example))
    page.set_viewport_size(PHONE)
    open_replay(page, live_server, match, "?ply=5")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    board = page.locator("#replay-board svg").first.bounding_box()
    assert board["x"] >= 0 and board["x"] + board["width"] <= PHONE["width"]
    for control in ("first", "prev-round", "prev", "play", "next", "next-round", "last"):
        box = page.locator(f'[data-go="{control}"]').bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], control
        assert box["height"] >= 40, control
    page.click('[data-go="next"]')
    assert board_ply(page) == 6
    screenshot(page, f"phone-{example.removesuffix('.json')}")
