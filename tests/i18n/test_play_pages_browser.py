"""The ladder, tournament and rules pages read in Japanese and Russian, in headless Chromium
at 1400 and 390 px: no English left of the page's own words (names, game titles and rule
ids stay as they are written). Screenshots: artifacts/i18n/<page>-<lang>-<width>.png."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest

from clubs.models import Membership
from ladder.models import Ladder
from ladder.services import apply_match
from tests.ladder.factories import make_match
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CRYPTID = "cryptid-urban-legends"
BASE = datetime(2026, 9, 1, 19, 0, tzinfo=UTC)
SCRIPTS = {"ja": re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]"), "ru": re.compile(r"[\u0400-\u04ff]")}
# The English of these pages, which must not be left on a translated one.
ENGLISH = (
    "Player",
    "Rating",
    "Games",
    "Recent matches",
    "rated match",
    "Standings",
    "Points",
    "Round",
    "Crosstable",
    "How pairings are made",
    "How the tie-breaks",
    "Contents",
    "Also:",
    "Rules",
    "Played",
    "Winner",
    "No one",
    "Board",
    "Why this pairing",
    "ladder",
)


@pytest.fixture
def pages(club, django_user_model):
    plays = [("ann", "ben", "cryptid"), ("ben", "ann", "scientist"), ("ann", "cat", "cryptid")]
    for day, (cryptid, scientist, winner) in enumerate(plays):
        match = make_match(
            club,
            CRYPTID,
            [("cryptid", cryptid), ("scientist", scientist)],
            winner,
            played_at=BASE + timedelta(days=3 * day),
        )
        apply_match(match.pk)
    ladder = Ladder.objects.get(club=club, game=CRYPTID)
    organiser = django_user_model.objects.create_user(username="olga")
    Membership.objects.create(user=organiser, club=club, role=Membership.Role.ORGANISER)
    event = services.create_tournament(
        club=club, name="Winter Open", game=CRYPTID, format="swiss", rounds=3, created_by=organiser
    )
    for handle in ("ann", "ben", "cat", "dan"):
        services.enter_handle(event, handle)
    services.start_tournament(event)
    base = f"/clubs/{club.slug}/ladders/{ladder.url_key}"
    return {
        "standings": f"{base}/",
        "player": f"{base}/players/ann/",
        "event": f"/tournaments/{event.pk}/",
        "round": f"/tournaments/{event.pk}/rounds/1/",
        "rules": "/rules/cryptid-urban-legends/",
    }


@pytest.mark.parametrize("language", ["ja", "ru"])
@pytest.mark.parametrize("width", [1400, 390])
def test_ladder_tournament_and_rules_pages_in_the_readers_language(
    page, live_server, pages, screenshot, language, width
):
    page.set_viewport_size({"width": width, "height": 900})
    for name, path in pages.items():
        page.goto(f"{live_server.url}{path}?lang={language}")
        assert page.get_attribute("html", "lang") == language
        text = page.inner_text("main")
        assert SCRIPTS[language].search(text), name
        # Rule texts quote ids and English names; the page's own words are what is checked.
        checked = page.inner_text("main .reference-toc") if name == "rules" else text
        left = [
            w
            for w in ENGLISH
            if re.search(rf"\b{w}\b", checked.replace("Cryptid: Urban Legends", ""))
        ]
        assert left == [], (name, left)
        if name == "event":
            # The tie-breaks' arithmetic: its words in the reader's language too.
            page.click("details.tiebreaks-explained summary")
            sums = page.locator("details.tiebreaks-explained td code").all_inner_texts()
            assert sums and all(SCRIPTS[language].search(s) for s in sums), sums
        if name == "round":
            # Why each pairing was made: the reader's language, only the handles in Latin.
            for why in page.locator("td.explanation").all_inner_texts():
                assert SCRIPTS[language].search(why), why
                assert not re.search(
                    r"[A-Za-z]", re.sub(r"(?<![A-Za-z])(ann|ben|cat|dan)(?![A-Za-z])", "", why)
                ), why
        screenshot(page, f"{name}-{language}-{width}")
