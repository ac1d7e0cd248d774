"""The main pages of the site at 1400 px and 390 px wide, from the demo data (what
``make run`` shows), as a visitor, the demo member and the demo organiser: each page
answers 200 without a script error, and no page is wider than the screen.

Saved under artifacts/journeys/, or LANTERN_SCREENSHOTS
(``LANTERN_SCREENSHOTS=docs/screenshots`` refreshes the committed ones: the first
screen of each page)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from games.models import Match
from ladder.models import Ladder
from pages.demo import (
    DEMO_PASSWORD,
    seed_demo_clubs,
    seed_demo_matches,
    seed_demo_people,
    seed_demo_tournaments,
)
from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / os.environ.get("LANTERN_SCREENSHOTS", "artifacts/journeys")
WIDTHS = {1400: 900, 390: 844}


def test_screenshots_of_the_main_pages(chromium, live_server, settings):
    settings.DEBUG = True  # the demo accounts exist only then
    seed_demo_clubs()
    seed_demo_matches(6)
    seed_demo_tournaments()
    seed_demo_people()
    swiss = Tournament.objects.get(format="swiss")
    match = Match.objects.filter(club__slug="riverside", status="valid").order_by("-id").first()
    ladder = Ladder.objects.filter(club__slug="riverside").order_by("game").first()
    pending = swiss.pairings.filter(status="pending").order_by("board").first()
    pages = {
        None: {
            "home-visitor": "/",
            "clubs": "/clubs/",
            "ladder": f"/clubs/riverside/ladders/{ladder.url_key}/",
        },
        "member": {
            "home-member": "/",
            "club": "/clubs/riverside/",
            "match": f"/matches/{match.pk}/",
        },
        "organiser": {
            "manage": "/clubs/riverside/manage/",
            "tournament": f"/tournaments/{swiss.pk}/",
            "round": f"/tournaments/{swiss.pk}/rounds/{swiss.current_round}/",
            "pairing-record": f"/tournaments/{swiss.pk}/pairings/{pending.pk}/record",
        },
    }
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for who, named in pages.items():
        for width, height in WIDTHS.items():
            context = chromium.new_context(viewport={"width": width, "height": height})
            page = context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda exc, errors=errors: errors.append(str(exc)))
            if who:
                page.goto(f"{live_server.url}/accounts/login/")
                page.fill("#id_username", who)
                page.fill("#id_password", DEMO_PASSWORD)
                page.get_by_role("button", name="Sign in").click()
                page.wait_for_selector("text=Your clubs")
            for name, path in named.items():
                response = page.goto(live_server.url + path)
                assert response.status == 200, path
                overflow = page.evaluate(
                    "document.documentElement.scrollWidth - document.documentElement.clientWidth"
                )
                assert overflow <= 1, f"{path} is {overflow}px wider than {width}px"
                page.screenshot(path=str(SCREENSHOTS / f"{name}-{width}.png"))
            context.close()
            assert not errors, errors
