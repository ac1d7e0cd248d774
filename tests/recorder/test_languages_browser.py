"""The recorder read in Japanese and Russian, in headless Chromium at 1400 and 390 px: the
page's words, the moves as the engine's sentences, and a refused move showing the
server's refusal in the reader's language with its rule id linked to the rule's text in
that language. Screenshots: artifacts/recorder/recorder-{ja,ru}-{1400,390}.png."""

from __future__ import annotations

import json
import re

import pytest

from recorder import services
from tests.recorder.recording import (
    enter_first_choices,
    open_in_language,
    open_rule_link,
    sign_in,
    wait_ready,
)
from tests.recorder.test_api import cloak_log

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCRIPTS = {"ja": re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]"), "ru": re.compile(r"[\u0400-\u04ff]")}
ENGLISH_UI = (
    "Next action",
    "Actions so far",
    "Notation",
    "Undo last action",
    "Stop recording",
    "Loading",
    "to act",
    "Whose action",
    "Record:",
    "draft #",
)


@pytest.mark.parametrize(
    ("language", "width"), [("ja", 1400), ("ja", 390), ("ru", 1400), ("ru", 390)]
)
def test_a_refused_move_is_shown_in_the_readers_language(
    chromium, live_server, club, people, screenshot, language, width
):
    script = SCRIPTS[language]
    # A context of its own: the refused request is logged by the browser as a failed load.
    context, page, errors = open_in_language(
        chromium, live_server, people["member"], language, width
    )
    draft, _ = services.create_draft(
        club,
        people["member"],
        game_id="cloak-and-dagger",
        chance="table",
        setup=cloak_log()["setup"],
        seats=[{"seat": "p1", "player": "alice"}, {"seat": "p2", "player": "bob"}],
    )
    page.goto(f"{live_server.url}/clubs/{club.slug}/record/{draft.pk}/")
    wait_ready(page)
    assert page.get_attribute("html", "lang") == language
    status = page.inner_text("#rec-status")
    assert script.search(status), status
    visible = page.inner_text("main")
    assert [w for w in ENGLISH_UI if w in visible] == []
    # The server's own refusal of an illegal action (p1's first turn must be a drop: CD-3.5),
    # in the reader's language, with the rule id unchanged.
    refusal = page.request.post(
        f"{live_server.url}/api/drafts/{draft.pk}/apply/",
        data=json.dumps(
            {"version": draft.version, "action": {"seat": "p1", "type": "examine", "envelope": 3}}
        ),
        headers={
            "Content-Type": "application/json",
            "X-CSRFToken": next(
                c["value"] for c in page.context.cookies() if c["name"] == "csrftoken"
            ),
        },
    )
    body = refusal.json()
    assert refusal.status == 422 and body["rule"] == "CD-3.5", body
    assert script.search(body["message"]), body

    page.route(
        "**/apply/**",
        lambda route: route.fulfill(
            status=422, content_type="application/json", body=json.dumps(body)
        ),
    )
    questions = enter_first_choices(page)
    assert questions and all(script.search(label) for label in questions), questions
    confirm = page.locator("#rec-entry .rec-confirm")
    assert script.search(confirm.inner_text())
    confirm.click()
    page.wait_for_selector("#rec-alert:not([hidden]) a.rule-link")
    alert = page.locator("#rec-alert")
    link = alert.locator("a.rule-link")
    assert link.inner_text() == "CD-3.5"
    assert body["message"] in alert.inner_text()
    assert script.search(link.get_attribute("title"))
    screenshot(page, f"recorder-{language}-{width}")
    page.unroute("**/apply/**")
    # The rule's text opens in the reader's language, at the rule.
    rule_page = open_rule_link(page, link)
    assert rule_page.evaluate("document.querySelector(':target').id") == "CD-3.5"
    assert rule_page.get_attribute("article.reference-body", "lang") == language
    context.close()
    assert not errors, errors


@pytest.mark.parametrize(("language", "width"), [("ja", 1400), ("ru", 390)])
def test_the_setup_form_asks_in_the_readers_language(
    chromium, live_server, club, people, screenshot, language, width
):
    """The game's own setup (the engine's form schema: boards, missions, cities, tickets)
    in the reader's words, the Mister X cities by their local names."""
    script = SCRIPTS[language]
    context = chromium.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    sign_in(page, live_server, people["member"])
    page.goto(
        f"{live_server.url}/clubs/{club.slug}/record/?game=mister-x&players=3&chance=table&lang={language}"
    )
    form = page.locator("#rec-setup")
    legends = form.locator("legend, label").all_inner_texts()
    english = [text for text in legends if text.strip() and not script.search(text)]
    assert english == [], english
    # The board by its name in the reader's language (Lantern's own, not the printed one).
    boards = form.locator("select[name='option.board'] option").all_inner_texts()
    assert boards and all(script.search(board) for board in boards), boards
    cities = form.locator("select[name$='start'] option").all_inner_texts()
    assert sum(bool(script.search(c)) for c in cities) > len(cities) // 2, cities
    screenshot(page, f"setup-{language}-{width}")
    context.close()
