"""The rating history in a real browser: hovering the chart shows the nearest match's
values; the chart fits a phone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from ladder.models import Ladder
from ladder.services import apply_match
from tests.ladder.factories import make_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CRYPTID = "cryptid-urban-legends"
BASE = datetime(2026, 9, 1, 19, 0, tzinfo=UTC)


def test_hover_shows_the_values_of_a_match(page, live_server, club, screenshot):
    plays = [
        ("ann", "ben", "cryptid"),
        ("ben", "ann", "scientist"),
        ("ann", "cat", "cryptid"),
        ("cat", "ann", "cryptid"),
        ("ann", "ben", "scientist"),
    ]
    days = [0, 3, 20, 21, 50]
    for day, (cryptid, scientist, winner) in zip(days, plays, strict=True):
        match = make_match(
            club,
            CRYPTID,
            [("cryptid", cryptid), ("scientist", scientist)],
            winner,
            played_at=BASE + timedelta(days=day),
        )
        apply_match(match.pk)
    ladder = Ladder.objects.get(club=club, game=CRYPTID)
    page.goto(f"{live_server.url}/clubs/{club.slug}/ladders/{ladder.url_key}/players/ann/")
    dots = page.locator("#rating-history circle.dot")
    assert dots.count() == 5
    # Ann played both roles: two colours, and the caption names them.
    assert page.locator("#rating-history circle.dot.role-1").count() >= 1
    assert "Cryptid" in page.inner_text("#rating-history figcaption")  # the role by name
    dot = dots.nth(2)
    box = dot.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    tip = page.locator("#chart-tip")
    assert tip.is_visible()
    assert tip.inner_text() == dot.get_attribute("data-text")
    assert tip.inner_text().startswith("2026-09-21: ")
    labels = page.locator("#rating-history .x-label").all_text_contents()
    assert labels and all(label.endswith(("Sep", "Oct")) for label in labels), labels
    screenshot(page, "player-chart-1280")
    page.set_viewport_size({"width": 390, "height": 844})
    wide = page.evaluate("""() => [...document.querySelectorAll('body *')]
        .filter(e => e.getBoundingClientRect().right > 391)
        .map(e => e.tagName + '.' + e.getAttribute('class'))""")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, wide[:8]
    screenshot(page, "player-chart-390")
