"""From the club page: an organiser opens a Cloak & Dagger table and gives its free seat to a
guest by a one-time link; a person who is not signed in opens the link, gives a name and
plays. The organiser asks to take back a move, the guest agrees (the tab's title says it is
their turn to answer), and the move is gone from both pages; a member watches from the
club page with the public view. The sound on one's turn, once turned on, is remembered; the
link, opened again, is spent."""

from __future__ import annotations

import re
from typing import Any

import pytest

from clubs.models import Membership
from live.models import Table
from tests.live.test_play_browser import n_of, signed_in

pytestmark = [pytest.mark.browser, pytest.mark.live, pytest.mark.django_db(transaction=True)]


def play_first(page: Any) -> None:
    """Enter one move: the first value of every question, then confirm (as the twin tests'
    scripted seats do), and wait for the table's answer."""
    before = n_of(page)
    for _ in range(20):
        confirm = page.locator("#live-entry .rec-confirm")
        if confirm.count():
            confirm.click()
            page.wait_for_function(f"Number(document.querySelector('#live').dataset.n) > {before}")
            return
        question = page.locator("#live-entry .rec-question").last
        question.wait_for(timeout=5000)
        buttons = question.locator("button.rec-choice")
        if buttons.count():
            buttons.first.click()
        else:
            values = question.locator("select option").evaluate_all(
                "els => els.map(e => e.value).filter(Boolean)"
            )
            question.locator("select").select_option(value=values[0])
        page.wait_for_timeout(100)
    raise AssertionError("no move could be entered")


def test_a_guest_plays_by_a_link_and_agrees_to_a_takeback(
    chromium, asgi_server, club, people, settings
):
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost", "testserver"]
    Membership.objects.filter(user=people["ann"], club=club).update(role="organiser")
    club.guests_at_tables = True
    club.save()
    errors: list[str] = []
    ann = signed_in(chromium, asgi_server, people["ann"], errors)
    ann.goto(f"{asgi_server}/clubs/riverside/")
    ann.get_by_role("link", name="Open a table").click()
    ann.select_option("select[name=game]", "cloak-and-dagger")
    ann.locator("#live-choose button[type=submit]").click()
    ann.get_by_role("button", name="Open the table").click()
    ann.wait_for_selector('#live[data-status="open"]')
    ann.locator(".live-guest-links button").first.click()
    link = ann.locator("#live-guest-link").input_value()
    assert re.search(r"/tables/seat/[\w-]{40,}/$", link)

    guest_context = chromium.new_context(viewport={"width": 390, "height": 800}, bypass_csp=True)
    guest = guest_context.new_page()
    guest.on("pageerror", lambda exc: errors.append(str(exc)))
    guest.goto(link)
    guest.fill("#id_name", "Kenji")
    guest.click("#live-take-linked-seat")
    for page in (ann, guest):
        page.wait_for_selector('#live[data-status="playing"] #live-link[data-state="live"]')
    table = Table.objects.get()
    assert table.seats.get(seat="p2").player == "Kenji"

    # A member watches from the club page, with what is announced to all.
    cat = signed_in(chromium, asgi_server, people["cat"], errors)
    cat.goto(f"{asgi_server}/clubs/riverside/")
    cat.locator(".live-table-list").get_by_role("link", name="Watch").click()
    cat.wait_for_selector('#live[data-status="playing"]')
    assert cat.locator("#live-sound-toggle").count() == 0  # a watcher has no turn

    play_first(ann)  # p1's first move: a drop, nothing drawn by chance
    guest.wait_for_function("Number(document.querySelector('#live').dataset.ply) === 1")
    ann.locator('[data-takeback="ask"]').click()
    guest.wait_for_selector('[data-takeback="agree"]')
    guest.wait_for_function("document.title.startsWith('●')")  # their answer is awaited
    guest.locator('[data-takeback="agree"]').click()
    for page in (ann, guest, cat):
        page.wait_for_function("Number(document.querySelector('#live').dataset.ply) === 0")
    ann.wait_for_function("document.querySelector('#live').dataset.turn === 'true'")
    # The turn came back: the keyboard's focus is on its first choice.
    ann.wait_for_function(
        "document.activeElement && document.activeElement.closest('#live-entry .rec-question')"
    )
    assert ann.locator("#live-moves .rec-empty").count() == 1
    table.refresh_from_db()
    assert table.actions == [] and table.takeback_by == ""

    # The sound on one's turn is off until turned on, and remembered by the browser.
    assert not ann.locator("#live-sound-toggle").is_checked()
    ann.locator("#live-sound-toggle").check()
    ann.reload()
    ann.wait_for_selector('#live-link[data-state="live"]')
    assert ann.locator("#live-sound-toggle").is_checked()
    assert ann.evaluate("localStorage.getItem('lantern.live.sound')") == "on"

    # The link was spent: opened again, it says so.
    again = guest_context.new_page()
    answer = again.goto(link)
    assert answer.status == 410
    for page in (ann, cat):
        page.context.close()
    guest_context.close()
    assert not errors, errors
