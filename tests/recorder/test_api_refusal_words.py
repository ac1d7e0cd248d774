"""The drafts API's refusals of a malformed request are said in the reader's language
(the parameter they concern keeps its API name), like every other answer of the API."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from engine import play

pytestmark = pytest.mark.django_db

SAID = {
    "ja": (
        "が必要です",
        "のいずれかでなければなりません",
        "JSON でなければなりません",
        "オブジェクト",
    ),
    "ru": ("нужен параметр", "должен быть одним из", "в формате JSON", "объектом вида"),
}


@pytest.mark.parametrize("language", SAID)
def test_a_malformed_drafts_request_is_refused_in_the_readers_language(club, people, language):
    client = APIClient()
    client.force_authenticate(people["member"])
    no_club, bad_status, not_json, not_object = SAID[language]
    lang = f"lang={language}"
    assert no_club in client.get(f"/api/drafts/?{lang}").json()["message"]
    answer = client.get(f"/api/drafts/?club=riverside&status=someday&{lang}").json()
    assert bad_status in answer["message"]
    log = play("cloak-and-dagger", 1, ["greedy", "greedy"])
    draft = client.post(
        "/api/drafts/",
        {
            "club": "riverside",
            "game": "cloak-and-dagger",
            "chance": "table",
            "setup": log["setup"],
            "seats": [{"seat": "p1", "player": "alice"}, {"seat": "p2", "player": "bob"}],
        },
        format="json",
    ).json()
    legal = f"/api/drafts/{draft['id']}/legal-actions/"
    assert not_json in client.get(f"{legal}?prefix={{&{lang}").json()["message"]
    assert not_object in client.get(f"{legal}?prefix=[1]&{lang}").json()["message"]
    nul_path = client.get(legal, {"prefix": '{"type\\u0000": 1}', "lang": language})
    assert nul_path.status_code == 400 and not_object in nul_path.json()["message"]
