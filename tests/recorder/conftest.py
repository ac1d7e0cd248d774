"""Fixtures for the recorder: a club with an organiser, two members and an outsider,
API clients, and a driver that records a bot-played log through the API."""

from __future__ import annotations

from typing import Any

import pytest

from clubs.models import Club, Membership, Player
from recorder.choices import read_path

HANDLES = ("alice", "bob", "carol", "dmitri", "emi", "farah")


@pytest.fixture
def people(django_user_model):
    make = django_user_model.objects.create_user
    return {
        "organiser": make(username="olga"),
        "member": make(username="mia"),
        "other": make(username="max"),
        "outsider": make(username="otto"),
    }


@pytest.fixture
def club(db, people) -> Club:
    club = Club.objects.create(name="Riverside Deduction Society", slug="riverside")
    Membership.objects.create(user=people["organiser"], club=club, role="organiser")
    Membership.objects.create(user=people["member"], club=club, role="member")
    Membership.objects.create(user=people["other"], club=club, role="member")
    for handle in HANDLES:
        Player.objects.create(club=club, handle=handle)
    return club


@pytest.fixture
def private_club(db, people) -> Club:
    club = Club.objects.create(name="Secret Circle", slug="secret", is_public=False)
    Membership.objects.create(user=people["member"], club=club, role="member")
    for handle in HANDLES:
        Player.objects.create(club=club, handle=handle)
    return club


def within(part: dict[str, Any], whole: dict[str, Any]) -> bool:
    """Every field of ``part`` has the same value in ``whole``."""
    return all(whole.get(key) == value for key, value in part.items())


def choose_through_api(step, target: dict[str, Any]) -> dict[str, Any]:
    """Walk the field-by-field choice (``step(prefix)`` answers one request) towards
    ``target``; return the listed entry that ``target`` completes."""
    prefix: dict[str, Any] = {}
    for _ in range(50):
        body = step(prefix)
        if body["field"] is None:
            listed = [entry for entry in body["actions"] if within(entry["action"], target)]
            assert listed, f"{target} is not among {[e['action'] for e in body['actions']]}"
            return max(listed, key=lambda entry: len(entry["action"]))
        wanted = read_path(target, body["field"])
        assert wanted in [v["value"] for v in body["values"]], (
            body["field"],
            wanted,
            body["values"],
        )
        assert len(body["values"]) <= 40
        prefix = {**body["prefix"], body["field"]: wanted}
    raise AssertionError("the choice never ended")


@pytest.fixture
def ingest(django_capture_on_commit_callbacks):
    """ingest_log (the recorder's finish path), with the rating it queues on commit run
    at once (eager Celery here)."""
    from games.services import ingest_log

    def run(club: Club, log: dict[str, Any]) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return ingest_log(club, log, None)

    return run


# --- the recorder's pages in headless Chromium ---------------------------------------


@pytest.fixture
def signed_in(page, live_server, people) -> Any:
    """``page`` signed in as the club member mia."""
    from tests.recorder.recording import sign_in

    sign_in(page, live_server, people["member"])
    return page
