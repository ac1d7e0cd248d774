"""The recorder refuses in the reader's language, with the same rule id: the engine's
refusals (``IllegalAction.text``) and the recorder's own (REC-*)."""

from __future__ import annotations

import re

import pytest

from tests.recorder.test_api import new_draft, post

pytestmark = pytest.mark.django_db

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
CYRILLIC = re.compile(r"[\u0400-\u04ff]")


def test_a_recorder_refusal_is_said_in_the_readers_language_with_the_same_rule(api, club):
    client = api("member")
    draft = new_draft(client)
    action = {"seat": "p1", "type": "examine", "envelope": 3}  # p1's first turn must be a drop
    answers = {}
    for language in ("en", "ja", "ru"):
        response = client.post(
            f"/api/drafts/{draft['id']}/apply/?lang={language}",
            {"version": draft["version"], "action": action},
            format="json",
        )
        assert response.status_code == 422
        answers[language] = response.json()
    assert {a["rule"] for a in answers.values()} == {"CD-3.5"}
    assert JAPANESE.search(answers["ja"]["message"]) and CYRILLIC.search(answers["ru"]["message"])
    assert not JAPANESE.search(answers["en"]["message"])
    # The recorder's own refusals too (REC-*): undo is off against a bot.
    bot_draft = client.post(
        "/api/drafts/?lang=ru",
        {
            "club": "riverside",
            "game": "cloak-and-dagger",
            "chance": "server",
            "seats": [{"seat": "p1", "player": "alice"}, {"seat": "p2", "bot": "greedy"}],
        },
        format="json",
    ).json()
    refused = post(client, bot_draft, "undo", version=bot_draft["version"])
    english = refused.json()
    russian = client.post(
        f"/api/drafts/{bot_draft['id']}/undo/?lang=ru",
        {"version": bot_draft["version"]},
        format="json",
    ).json()
    assert english["rule"] == russian["rule"] == "REC-UNDO"
    assert CYRILLIC.search(russian["message"]) and not CYRILLIC.search(english["message"])
