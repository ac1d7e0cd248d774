"""Two tabs writing one draft at once: exactly one write wins, the other is refused (409:
stale, or closed where the winning write finished the draft) and told to reload — unless
the two are the same request (a double click), which is applied once and answered twice
the same.

On PostgreSQL (marker ``integration``) two requests with the same version are held just
before they take the draft's row lock, then released together. The conditional UPDATE
on the version is tested on its own too (any database): it is what holds even where
``select_for_update`` is a no-op (SQLite)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from rest_framework.test import APIClient

from engine import play
from recorder import services
from recorder.models import Draft

LOG = play("cloak-and-dagger", 21, ["greedy", "greedy"], players=["alice", "bob"])


def _create(client: APIClient) -> dict:
    response = client.post(
        "/api/drafts/",
        {
            "club": "riverside",
            "game": "cloak-and-dagger",
            "chance": "table",
            "seats": [{"seat": "p1", "player": "alice"}, {"seat": "p2", "player": "bob"}],
            "setup": LOG["setup"],
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    return response.json()


def _race(people, monkeypatch, verbs: tuple[str, str]) -> tuple[dict, int, list]:
    """Two writes of one version, held until both have read the draft, then let go."""
    creator = APIClient()
    creator.force_authenticate(people["member"])
    draft = _create(creator)
    for action in LOG["actions"][:2]:
        draft = creator.post(
            f"/api/drafts/{draft['id']}/apply/",
            {"version": draft["version"], "action": action},
            format="json",
        ).json()
    version = draft["version"]
    both_ready = threading.Barrier(2, timeout=30)
    real_locked = services._locked

    def wait_then_lock(draft_id, request):
        both_ready.wait()  # neither takes the lock before both have read the draft
        return real_locked(draft_id, request)

    monkeypatch.setattr(services, "_locked", wait_then_lock)
    responses = [None, None]

    def write(slot: int, who: str, verb: str) -> None:
        try:
            client = APIClient()
            client.force_authenticate(people[who])
            body = {"version": version}
            if verb.startswith("apply"):
                # "apply-other": another action than the first tab's (a real conflict).
                action = LOG["actions"][2]
                body["action"] = (
                    {**action, "envelope": action["envelope"] % 20 + 1}
                    if verb == "apply-other"
                    else action
                )
            responses[slot] = client.post(
                f"/api/drafts/{draft['id']}/{verb.split('-')[0]}/", body, format="json"
            )
        finally:
            connection.close()

    threads = [
        threading.Thread(target=write, args=(0, "member", verbs[0])),
        threading.Thread(target=write, args=(1, "member", verbs[1])),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return draft, version, responses


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "verbs", [("apply", "apply-other"), ("apply", "undo"), ("finish", "apply")]
)
def test_two_concurrent_writes_of_one_version_one_wins(
    require_postgres, people, club, monkeypatch, verbs
):
    draft, version, responses = _race(people, monkeypatch, verbs)
    codes = sorted(r.status_code for r in responses)
    assert codes == [200, 409], [r.json() for r in responses]
    loser = next(r for r in responses if r.status_code == 409).json()
    winner = next(r for r in responses if r.status_code == 200).json()
    # Which thread takes the row lock first is the database's choice. Where the winner
    # closed the draft (a finish that won), the loser finds it closed: that refusal comes
    # before the version check, and the page says "finished elsewhere — reload".
    # Otherwise the loser's version is stale and it is told to reload.
    if winner["status"] == Draft.Status.RECORDING:
        assert loser["error"] == "stale" and "reload" in loser["message"], loser
    else:
        assert loser["error"] == "closed" and winner["status"] in loser["message"], loser
    stored = Draft.objects.get(pk=draft["id"])
    assert stored.version == version + 1
    assert stored.status == winner["status"]
    assert stored.actions == winner["document"]["actions"]


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("verb", ["apply", "undo", "finish"])
def test_the_same_write_twice_at_once_is_applied_once(
    require_postgres, people, club, monkeypatch, verb
):
    """A double click: the second request waits for the first's row lock, then finds its
    own request answered and gets that answer."""
    draft, version, responses = _race(people, monkeypatch, (verb, verb))
    assert [r.status_code for r in responses] == [200, 200], [r.json() for r in responses]
    # The same JSON (PostgreSQL's jsonb hands the stored actions back with their keys in
    # its own order, so the bytes of a repeat may order an object's keys differently).
    assert responses[0].json() == responses[1].json()
    stored = Draft.objects.get(pk=draft["id"])
    assert stored.version == version + 1
    assert stored.actions == responses[0].json()["document"]["actions"]


@pytest.mark.django_db
def test_the_conditional_update_refuses_a_version_already_written(people, club):
    creator = APIClient()
    creator.force_authenticate(people["member"])
    made = _create(creator)
    draft = Draft.objects.get(pk=made["id"])
    services._save(draft, draft.version, actions=LOG["actions"][:1], moves=[{}])
    stale = Draft.objects.get(pk=made["id"])
    stale.version -= 1  # what a second writer read before the first wrote
    with pytest.raises(services.StaleDraft):
        services._save(stale, stale.version, actions=LOG["actions"][:2], moves=[{}, {}])
    assert Draft.objects.get(pk=made["id"]).actions == LOG["actions"][:1]
