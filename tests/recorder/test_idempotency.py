"""The same write posted twice (a double click, a retry after a timeout) is applied once
and answered exactly as the first time; a different write against the same version is
still stale (409), and a repeat is answered only to the person who made the write."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import IntegrityError, transaction

from games.models import Match
from recorder.models import Draft, DraftWrite
from tests.recorder.test_api import advance, cloak_log, new_draft, post

pytestmark = pytest.mark.django_db


def twice(client, draft: dict[str, Any], verb: str, **body: Any):
    first = post(client, draft, verb, **body)
    second = post(client, draft, verb, **body)
    return first, second


def test_an_action_posted_twice_is_applied_once_and_answered_the_same(api, club):
    client = api("member")
    draft = advance(client, new_draft(client), 1)
    action = cloak_log()["actions"][1]
    first, second = twice(client, draft, "apply", version=draft["version"], action=action)
    assert (first.status_code, second.status_code) == (200, 200), second.json()
    assert second.json() == first.json()
    stored = Draft.objects.get(pk=draft["id"])
    assert stored.actions == cloak_log()["actions"][:2]
    assert stored.version == draft["version"] + 1 == first.json()["version"]
    assert DraftWrite.objects.filter(draft=stored).count() == 2


def test_a_different_action_at_the_same_version_is_stale(api, club):
    client = api("member")
    draft = advance(client, new_draft(client), 1)
    action = cloak_log()["actions"][1]
    assert post(client, draft, "apply", version=draft["version"], action=action).status_code == 200
    other = {**action, "envelope": action["envelope"] % 20 + 1}
    response = post(client, draft, "apply", version=draft["version"], action=other)
    assert response.status_code == 409 and response.json()["error"] == "stale"
    # The same body with another query is another request (its answer would differ).
    response = client.post(
        f"/api/drafts/{draft['id']}/apply/?static=1",
        {"version": draft["version"], "action": action},
        format="json",
    )
    assert response.status_code == 409 and response.json()["error"] == "stale"
    assert Draft.objects.get(pk=draft["id"]).actions == cloak_log()["actions"][:2]


def test_only_the_latest_write_is_answered_again(api, club):
    """A repeat of an older write, once another write came after it, is stale: the page
    that sends it is behind and must reload."""
    client = api("member")
    draft = new_draft(client)
    actions = cloak_log()["actions"]
    assert (
        post(client, draft, "apply", version=draft["version"], action=actions[0]).status_code == 200
    )
    assert (
        post(client, draft, "apply", version=draft["version"] + 1, action=actions[1]).status_code
        == 200
    )
    response = post(client, draft, "apply", version=draft["version"], action=actions[0])
    assert response.status_code == 409 and response.json()["error"] == "stale"
    assert Draft.objects.get(pk=draft["id"]).actions == actions[:2]


def test_undo_posted_twice_takes_back_one_action(api, club):
    client = api("member")
    draft = advance(client, new_draft(client), 3)
    first, second = twice(client, draft, "undo", version=draft["version"])
    assert (first.status_code, second.status_code) == (200, 200)
    assert second.json() == first.json()
    assert Draft.objects.get(pk=draft["id"]).actions == cloak_log()["actions"][:2]


def test_finish_posted_twice_stores_one_match(api, club):
    client = api("member")
    draft = advance(client, new_draft(client), 2)
    first, second = twice(client, draft, "finish", version=draft["version"])
    assert (first.status_code, second.status_code) == (200, 200), second.json()
    assert second.json() == first.json()
    assert Match.objects.count() == 1
    assert first.json()["match"] == Match.objects.get().pk


def test_abandon_posted_twice_is_answered_the_same(api, club):
    client = api("member")
    draft = new_draft(client)
    first, second = twice(client, draft, "abandon", version=draft["version"])
    assert (first.status_code, second.status_code) == (200, 200)
    assert second.json() == first.json()
    assert Draft.objects.get(pk=draft["id"]).version == draft["version"] + 1


def test_a_repeat_by_someone_else_is_not_given_the_first_answer(api, club):
    """The answer was drawn with its writer's eyes: the same request from another person
    (an organiser storing the same draft at the same moment) is refused as any late write."""
    member, organiser = api("member"), api("organiser")
    draft = advance(member, new_draft(member), 2)
    assert post(member, draft, "finish", version=draft["version"]).status_code == 200
    response = post(organiser, draft, "finish", version=draft["version"])
    assert response.status_code == 409 and response.json()["error"] == "closed"
    assert Match.objects.count() == 1


def test_against_a_bot_the_repeat_says_what_the_first_said_and_no_more(api, club):
    """A seat's answer (its eyes: no envelope contents it has not seen) is replayed as it
    was: the same as what that person reads of the draft right after."""
    client = api("member")
    response = client.post(
        "/api/drafts/",
        {
            "club": "riverside",
            "game": "cloak-and-dagger",
            "seats": [{"seat": "p1", "player": "alice"}, {"seat": "p2", "bot": "greedy"}],
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    draft = response.json()
    assert draft["viewer"] == "p1" and draft["document"] is None
    choice = client.get(f"/api/drafts/{draft['id']}/legal-actions/").json()
    while choice["field"] is not None:
        choice = client.get(
            f"/api/drafts/{draft['id']}/legal-actions/",
            {
                "prefix": json.dumps(
                    {**choice["prefix"], choice["field"]: choice["values"][0]["value"]}
                ),
            },
        ).json()
    action = choice["actions"][0]["action"]
    first, second = twice(client, draft, "apply", version=draft["version"], action=action)
    assert (first.status_code, second.status_code) == (200, 200)
    assert second.json() == first.json() == client.get(f"/api/drafts/{draft['id']}/").json()
    assert second.json()["document"] is None and second.json()["viewer"] == "p1"


def test_each_version_is_written_from_once_in_the_database(api, club, people):
    client = api("member")
    draft = advance(client, new_draft(client), 1)
    with pytest.raises(IntegrityError), transaction.atomic():
        DraftWrite.objects.create(
            draft_id=draft["id"],
            version=draft["version"] - 1,
            user=people["member"],
            kind="apply",
            fingerprint="0" * 64,
        )
