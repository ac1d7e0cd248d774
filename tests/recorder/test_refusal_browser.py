"""A refusal the recorder's page shows names its rule as a link to the rule's text.

The page offers only legal actions, so a refusal reaches it when the server and the page
disagree (an engine changed under an open page, another client's request). The test
answers one write with the body the server really sends for such a refusal, taken from
the API, and checks what the page makes of it."""

from __future__ import annotations

import json

import pytest

from tests.recorder.recording import (
    choose_game,
    choose_seat,
    enter_first_choices,
    open_rule_link,
    sign_in,
    start_recording,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_refusal_links_its_rule_to_the_rule_text(chromium, live_server, club, people, screenshot):
    # A context of its own: the refused request is logged by the browser as a failed load,
    # which the shared ``page`` fixture counts as a page error.
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    sign_in(page, live_server, people["member"])
    choose_game(
        page,
        live_server,
        club,
        "Cloak & Dagger",
        "dealt at the table: I enter what came out",
        players=2,
    )
    choose_seat(page, "p1", "alice")
    choose_seat(page, "p2", "bob")
    start_recording(page)
    draft = page.get_attribute("#recorder", "data-draft")
    # The server's own answer to an illegal action: p1's first turn must be a drop, so an
    # examine is refused under CD-3.5.
    refusal = page.request.post(
        f"{live_server.url}/api/drafts/{draft}/apply/",
        data=json.dumps({"version": 1, "action": {"seat": "p1", "type": "examine", "envelope": 3}}),
        headers={
            "Content-Type": "application/json",
            "X-CSRFToken": next(
                c["value"] for c in page.context.cookies() if c["name"] == "csrftoken"
            ),
        },
    )
    body = refusal.json()
    assert refusal.status == 422 and body["rule"] == "CD-3.5", body
    assert body["rule_url"] == f"{live_server.url}/rules/cloak-and-dagger/#CD-3.5"

    def refuse(route):
        route.fulfill(status=422, content_type="application/json", body=json.dumps(body))

    page.route("**/apply/**", refuse)
    # Enter p1's first action as a person would: the first choice at each question, then confirm.
    enter_first_choices(page)
    page.locator("#rec-entry .rec-confirm").click()
    page.wait_for_selector("#rec-alert:not([hidden]) a.rule-link")
    link = page.locator("#rec-alert a.rule-link")
    assert link.inner_text() == "CD-3.5"
    assert link.get_attribute("href") == body["rule_url"]
    assert body["message"] in page.inner_text("#rec-alert")
    screenshot(page, "refusal-rule-link")
    page.unroute("**/apply/**")
    # One click opens the rule's text (in a tab of its own: the game stays on screen).
    rule_page = open_rule_link(page, link)
    assert rule_page.evaluate("document.querySelector(':target').id") == "CD-3.5"
    context.close()
    assert not errors, errors
