"""A real-time table in two browsers, opened from the club page with a clock: each page
shows both clocks, the one whose turn it is counts down; when it reaches zero the page
asks the server, which settles the time-out (no countdown task runs where tasks are
eager), and both pages say the game ended on time, in Japanese and in Russian.

The table is opened with the form's shortest control (3 + 2); the clock that runs is then
set to a few seconds in the database, so the test waits seconds, not minutes."""

from __future__ import annotations

from datetime import timedelta

import pytest

from live.models import Table, TableSeat
from tests.live.test_play_browser import signed_in

pytestmark = [pytest.mark.browser, pytest.mark.live, pytest.mark.django_db(transaction=True)]


def test_a_real_time_clock_runs_out_in_the_browsers(
    chromium, asgi_server, club, people, settings, screenshot
):
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost", "testserver"]
    errors: list[str] = []
    ann = signed_in(chromium, asgi_server, people["ann"], errors)
    ben = signed_in(chromium, asgi_server, people["ben"], errors)

    ann.goto(f"{asgi_server}/clubs/riverside/?lang=ja")
    ann.locator('a[href*="/tables/new/"]').click()
    ann.select_option("select[name=game]", "cryptid-urban-legends")
    ann.locator("#live-choose button[type=submit]").click()
    ann.select_option("select[name=clock]", "realtime:3+2")
    ann.locator("#live-setup button[type=submit]").click()
    ann.wait_for_selector('#live[data-status="open"] #live-link[data-state="live"]')
    table = Table.objects.get()
    assert (table.clock, table.clock_minutes, table.clock_increment) == ("realtime", 3, 2)
    # The form's redirect drops ?lang (a member's own language is their settings'): ask again.
    ann.goto(f"{asgi_server}/clubs/riverside/tables/{table.pk}/?lang=ja")

    # The club's list says each table's clock.
    ben.goto(f"{asgi_server}/clubs/riverside/?lang=ru")
    assert "реальное время 3 + 2" in ben.locator(".live-table-list").inner_text()
    for width in (1400, 390):
        ben.set_viewport_size({"width": width, "height": 900})
        ben.locator(".live-table-list").scroll_into_view_if_needed()
        screenshot(ben, f"clock-club-list-ru-{width}")
    ben.goto(f"{asgi_server}/clubs/riverside/tables/{table.pk}/?lang=ru")
    ben.locator("#live-take-seat").click()
    ben.wait_for_selector('#live[data-status="playing"]')
    ben.goto(f"{asgi_server}/clubs/riverside/tables/{table.pk}/?lang=ru")
    for page in (ann, ben):
        page.wait_for_selector('#live[data-status="playing"] .live-clock[data-running="true"]')
        assert page.locator(".live-clock").count() == 2

    # The running clock counts down on the page between the server's answers.
    first = ann.locator('.live-clock[data-running="true"] .time').inner_text()
    ann.wait_for_timeout(1300)
    later = ann.locator('.live-clock[data-running="true"] .time').inner_text()
    assert first.startswith("3:00") or first.startswith("2:5"), first
    assert later != first

    for page, lang in ((ann, "ja"), (ben, "ru")):
        for width in (1400, 390):
            page.set_viewport_size({"width": width, "height": 900})
            page.wait_for_timeout(100)
            screenshot(page, f"clock-running-{lang}-{width}")

    # A short clock for the seat to act: a few seconds left, as of now.
    table.refresh_from_db()
    running = TableSeat.objects.get(table=table, turn_since__isnull=False)
    from live import clocks

    at = clocks.now()
    TableSeat.objects.filter(pk=running.pk).update(clock_ms=3000, turn_since=at)
    Table.objects.filter(pk=table.pk).update(due_at=at + timedelta(seconds=3))
    for page in (ann, ben):
        page.reload()
        page.wait_for_selector('#live-link[data-state="live"]')
    for page in (ann, ben):
        page.wait_for_selector('#live[data-status="finished"]', timeout=20000)
        page.wait_for_selector('#live-done a[data-link="match"]')
    table.refresh_from_db()
    assert (table.status, table.ending, table.ended_seat) == ("finished", "time", running.seat)
    assert table.match is not None and table.match.result["reason"] == "time"
    said_ja = ann.locator("#live-status").inner_text()
    said_ru = ben.locator("#live-status").inner_text()
    assert "持ち時間が切れた" in said_ja, said_ja
    assert "время вышло" in said_ru, said_ru
    assert ann.locator('.live-clock[data-running="true"]').count() == 0
    assert ann.locator("#live-abandon-box").is_hidden()
    for page, lang in ((ann, "ja"), (ben, "ru")):
        for width in (1400, 390):
            page.set_viewport_size({"width": width, "height": 900})
            page.wait_for_timeout(100)
            screenshot(page, f"clock-ended-{lang}-{width}")
        page.context.close()
    assert not errors, errors


def test_a_player_who_left_is_claimed_from_the_page(
    chromium, asgi_server, club, people, settings, screenshot, monkeypatch
):
    """Ben closes his page; once he has been away past the grace period (a few seconds
    here), Ann's page offers the claim, and one click wins the game for her side."""
    from live import clocks, services
    from tests.live.conftest import CRYPTID, seats

    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost", "testserver"]
    settings.LIVE_ABSENCE_GRACE = 3
    monkeypatch.setattr(clocks, "HERE_FOR", timedelta(seconds=1))
    errors: list[str] = []
    ann = signed_in(chromium, asgi_server, people["ann"], errors)
    ben = signed_in(chromium, asgi_server, people["ben"], errors)
    ann.goto(f"{asgi_server}/clubs/riverside/tables/new/?game=cryptid-urban-legends&lang=ru")
    for width in (1400, 390):
        ann.set_viewport_size({"width": width, "height": 900})
        ann.locator("select[name=clock]").scroll_into_view_if_needed()
        screenshot(ann, f"clock-form-ru-{width}")
    table = services.open_table(
        club,
        people["ann"],
        game_id=CRYPTID,
        seats=seats(CRYPTID, "me", "free"),
        clock={"kind": "realtime", "minutes": 10, "increment": 5},
    )
    services.take_seat(table.pk, people["ben"])
    url = f"{asgi_server}/clubs/riverside/tables/{table.pk}/"
    ben.goto(f"{url}?lang=ja")
    ben.wait_for_selector('#live-link[data-state="live"]')
    ann.goto(f"{url}?lang=ja")
    ann.wait_for_selector('#live-link[data-state="live"]')
    assert ann.locator("#live-claim").is_hidden()
    ben.context.close()  # his socket closes: away from now
    ann.wait_for_timeout(3500)
    ann.reload()
    ann.wait_for_selector("#live-claim:not([hidden])")
    assert ann.locator('.live-clock[data-seat="scientist"] .away').count() == 1
    for width in (1400, 390):
        ann.set_viewport_size({"width": width, "height": 900})
        ann.wait_for_timeout(100)
        screenshot(ann, f"clock-claim-ja-{width}")
    ann.locator("#live-claim-button").click()
    ann.wait_for_selector('#live[data-status="finished"]')
    table.refresh_from_db()
    assert (table.ending, table.ended_seat) == ("claim", "scientist")
    assert "申し立て" in ann.locator("#live-status").inner_text()
    ann.context.close()
    assert not errors, errors
