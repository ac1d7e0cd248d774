"""Spectators after the table, in a browser: a member who did not play a game that just
ended online goes from the club page to its match and its replay, which shows the game
as a spectator saw it and says when the rest opens; a player of it sees everything."""

from __future__ import annotations

import pytest

from engine import PUBLIC
from tests.live.browsers import signed_in
from tests.live.test_watchers_replay import DELAY, played  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_member_who_did_not_play_replays_it_as_a_spectator_until_the_delay(
    chromium,
    live_server,
    played,  # noqa: F811
    people,
):
    errors: list[str] = []
    cat = signed_in(chromium, live_server.url, people["cat"], errors)
    cat.goto(f"{live_server.url}/clubs/{played.club.slug}/")
    cat.locator(f'a[href="/matches/{played.pk}/"]').first.click()
    cat.wait_for_selector(".match-hidden time")
    assert cat.locator(f'a[href="/api/matches/{played.pk}/log"]').count() == 0
    cat.get_by_role("link", name="Watch the replay").click()
    cat.wait_for_selector("#replay-board svg, #replay-board .board, #replay-board > *")
    assert cat.locator("#replay-view option").evaluate_all("o => o.map(x => x.value)") == [PUBLIC]
    sentence = cat.locator("#replay-hidden").inner_text()
    moment = cat.locator("#replay-hidden time")
    opens = moment.get_attribute("datetime")
    # a moment, not a number of minutes (the moment itself may hold the digits: "11-30")
    assert opens and str(DELAY) not in sentence.replace(moment.inner_text(), "")
    cat.keyboard.press("End")
    scrub = "document.querySelector('#replay-scrub')"
    cat.wait_for_function(f"{scrub}.value === {scrub}.max")
    assert cat.locator("#replay-analysis").count() == 0
    ann = signed_in(chromium, live_server.url, people["ann"], errors)
    ann.goto(f"{live_server.url}/matches/{played.pk}/replay")
    ann.wait_for_selector("#replay-board > *")
    assert ann.locator("#replay-view option").first.get_attribute("value") == "all"
    assert ann.locator("#replay-hidden").count() == 0
    for page in (cat, ann):
        page.context.close()
    assert not errors, errors
