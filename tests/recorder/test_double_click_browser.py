"""A hurried recorder in headless Chromium: every button of an action double-clicked, and
a write sent twice by the page (a retry whose first answer was lost). Each action is
applied once and the page never says "changed in another tab"."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from recorder.models import Draft
from tests.recorder.recording import ply, record, scripted_game, wait_ready

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def table_draft(people: dict[str, Any], log: dict[str, Any]) -> dict[str, Any]:
    client = APIClient()
    client.force_authenticate(people["member"])
    response = client.post(
        "/api/drafts/",
        {
            "club": "riverside",
            "game": log["game"],
            "chance": "table",
            "seats": [
                {"seat": entry["seat"], "player": handle}
                for entry, handle in zip(log["seats"], ("alice", "bob"), strict=False)
            ],
            "setup": log["setup"],
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    return response.json()


def test_double_clicked_actions_are_applied_once(signed_in, live_server, club, people, screenshot):
    page = signed_in
    log = scripted_game("cloak-and-dagger", 2, lambda log: len(log["actions"]) >= 6)
    draft = table_draft(people, log)
    page.goto(f"{live_server.url}/clubs/riverside/record/{draft['id']}/")
    wait_ready(page)
    for index, target in enumerate(log["actions"][:6]):
        record(page, target, double_click=True)
        assert ply(page) == index + 1
    assert page.locator("#rec-alert").is_hidden()
    # The undo button double-clicked takes back one action.
    page.get_by_role("button", name="Undo last action").dblclick()
    page.wait_for_function("document.querySelector('#recorder').dataset.ply === '5'")
    wait_ready(page)
    page.wait_for_timeout(300)  # a second undo, if one went out, would be answered by now
    assert page.locator("#rec-alert").is_hidden()
    assert Draft.objects.get(pk=draft["id"]).actions == log["actions"][:5]
    screenshot(page, "double-clicked")


def test_a_write_sent_twice_by_the_page_is_applied_once(signed_in, live_server, club, people):
    page = signed_in
    log = scripted_game("cloak-and-dagger", 2, lambda log: len(log["actions"]) >= 2)
    draft = table_draft(people, log)
    page.goto(f"{live_server.url}/clubs/riverside/record/{draft['id']}/")
    wait_ready(page)
    # The page's own API client, as a retry after a lost answer would send it.
    answers = page.evaluate(
        """async ([version, action]) => {
        const { DraftApi } = await import("/static/js/recorder/api.js");
        const config = JSON.parse(document.getElementById("recorder-config").textContent);
        const api = new DraftApi(config.urls, config.csrfToken);
        // One after the other: the second is the retry of a write whose answer was lost.
        // (Two at once meet at the row lock: tests/recorder/test_concurrency.py, PostgreSQL.)
        const first = await api.apply(version, action);
        return [first, await api.apply(version, action)];
    }""",
        [draft["version"], log["actions"][0]],
    )
    assert answers[0] == answers[1]
    assert answers[0]["ply"] == 1 and answers[0]["version"] == draft["version"] + 1
    stored = Draft.objects.get(pk=draft["id"])
    assert stored.actions == log["actions"][:1] and stored.version == draft["version"] + 1


def test_start_recording_is_sent_once(signed_in, live_server, club):
    from tests.recorder.recording import choose_game

    page = signed_in
    choose_game(
        page,
        live_server,
        club,
        "Cloak & Dagger",
        "dealt at the table: I enter what came out",
        players=2,
    )
    page.get_by_label("Player 1 (spies D/d)", exact=True).select_option(label="alice")
    page.get_by_label("Player 2 (spies E/e)", exact=True).select_option(label="bob")
    # Count the sendings the page lets through, holding them here (no navigation), as
    # a slow answer would: the second click lands while the first is on its way.
    page.evaluate("""() => { window.sent = 0; window.addEventListener("submit", (event) => {
        if (!event.defaultPrevented) window.sent += 1; event.preventDefault(); }); }""")
    button = page.get_by_role("button", name="Start recording")
    button.click()
    page.wait_for_function("document.querySelector('#rec-setup button[type=submit]').disabled")
    assert page.get_attribute("#rec-setup", "aria-busy") == "true"
    page.evaluate("document.querySelector('#rec-setup').requestSubmit()")  # Enter, once more
    assert page.evaluate("window.sent") == 1
    assert Draft.objects.count() == 0  # nothing was sent: the test held it
