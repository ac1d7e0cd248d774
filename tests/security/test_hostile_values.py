"""Dates at the calendar's limits and JSON nested thousands deep, on every path that
reads a date or parses JSON itself (issue #17): each a clear 4xx, nothing lost."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from rest_framework.test import APIClient

from games import bundles
from games.models import Match, Upload
from games.services import create_import, run_import
from recorder.models import Draft
from tests.games.logs import bot_log, compact

pytestmark = pytest.mark.django_db

#: With their offsets applied these fall outside years 1..9999 (datetime cannot hold them).
EDGES = ["9999-12-31T23:59:59-14:00", "0001-01-01T00:00:00+14:00"]
DEEP = 50_000


def deep_json() -> str:
    return "[" * DEEP + "]" * DEEP


def api_as(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def browser_as(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def dated(played_at: str, seed: int = 3) -> dict:
    log = bot_log("cryptid-urban-legends", seed, ["alice", "bob"])
    log["meta"]["played_at"] = played_at
    return log


@pytest.mark.parametrize("played_at", EDGES)
def test_an_upload_played_beyond_the_calendar_is_a_clear_400(people, public_club, played_at):
    before = Match.objects.count()
    response = api_as(people["member"]).post(
        f"/api/clubs/{public_club.club.slug}/matches/",
        data=json.dumps(dated(played_at)),
        content_type="application/json",
    )
    assert response.status_code == 400, response.content
    body = response.json()
    assert (body["error"], body["rule"]) == ("malformed", "LOG-META")
    assert played_at in body["message"] and "calendar" in body["message"]
    assert Match.objects.count() == before
    assert Upload.objects.get(pk=body["upload"]).error_rule == "LOG-META"


#: meta.played_at values that name no moment: refused, not stored as "date unknown".
NOT_DATES = ["2026-13-45T99:99:99Z", "nan", 1e308, "", True, {"year": 2026}]


@pytest.mark.parametrize("played_at", NOT_DATES, ids=repr)
def test_log_meta_a_played_at_that_is_not_a_date_is_refused_naming_the_field(
    people, public_club, played_at
):
    before = Match.objects.count()
    response = api_as(people["member"]).post(
        f"/api/clubs/{public_club.club.slug}/matches/",
        data=json.dumps(dated(played_at)),
        content_type="application/json",
    )
    assert response.status_code == 400, response.content
    body = response.json()
    assert (body["error"], body["rule"]) == ("malformed", "LOG-META")
    assert body["path"] == "meta.played_at" and json.dumps(played_at) in body["message"]
    assert "meta.played_at" not in body["message"]  # the sentence names it in words
    assert Match.objects.count() == before


@pytest.mark.parametrize("played_at", [None, "2026-11-20", "2026-11-20T19:00:00+09:00"])
def test_log_meta_a_played_at_left_null_or_written_in_iso_8601_is_accepted(
    people, public_club, played_at
):
    response = api_as(people["member"]).post(
        f"/api/clubs/{public_club.club.slug}/matches/",
        data=json.dumps(dated(played_at, 8)),
        content_type="application/json",
    )
    assert response.status_code == 201, response.content


def test_the_calendars_last_moment_in_utc_is_still_accepted(people, public_club):
    response = api_as(people["member"]).post(
        f"/api/clubs/{public_club.club.slug}/matches/",
        data=json.dumps(dated("9999-12-31T23:59:59+00:00")),
        content_type="application/json",
    )
    assert response.status_code == 201, response.content
    assert Match.objects.get(pk=response.json()["id"]).played_at.year == 9999


def test_a_bulk_import_with_one_such_line_keeps_its_valid_lines(people, public_club):
    lines = [
        compact(dated("2026-11-20T19:00:00Z", 5)),
        compact(dated(EDGES[0], 6)),
        compact(dated("2026-11-21T19:00:00+01:00", 7)),
    ]
    run = create_import(
        public_club.club,
        bundles.write_json_lines(lines),
        "edge.jsonl",
        people["organiser"],
        enqueue=False,
    )
    run = run_import(run.pk)
    assert (run.status, run.accepted, run.rejected) == ("done", 2, 1)
    assert Upload.objects.get(import_run=run, status="rejected").error_rule == "LOG-META"


@pytest.mark.parametrize("played_at", EDGES)
def test_a_draft_played_beyond_the_calendar_is_a_clear_400(people, public_club, played_at):
    response = api_as(people["member"]).post(
        "/api/drafts/",
        {
            "club": public_club.club.slug,
            "game": "cloak-and-dagger",
            "played_at": played_at,
            "seats": [
                {"seat": "p1", "player": public_club.handles[0]},
                {"seat": "p2", "bot": "random"},
            ],
        },
        format="json",
    )
    assert response.status_code == 400, response.content
    assert "played_at" in json.dumps(response.json())


def test_a_choice_prefix_nested_thousands_deep_is_a_400(people, public_club):
    draft = Draft.objects.filter(club=public_club.club).first()
    client = api_as(draft.created_by)
    for prefix in (deep_json(), json.dumps({"envelope": json.loads("[" * 40 + "]" * 40)})):
        response = client.get(f"/api/drafts/{draft.pk}/legal-actions/", {"prefix": prefix})
        assert response.status_code == 400, response.content[:200]
        assert response.json()["field"] == "prefix" and "nested" in response.json()["message"]


def test_a_tournament_result_file_nested_thousands_deep_is_refused_and_kept(people, public_club):
    pairing = public_club.pairings[0]
    before = Upload.objects.count()
    response = api_as(people["organiser"]).post(
        f"/api/pairings/{pairing.pk}/result/",
        {"file": SimpleUploadedFile("deep.json", deep_json().encode())},
        format="multipart",
    )
    assert response.status_code == 400, response.content[:300]
    assert response.json()["rule"] == "LOG-JSON"
    assert Upload.objects.count() == before + 1  # the attempt is kept, as for any upload
    page = browser_as(people["organiser"]).post(
        f"/tournaments/{pairing.tournament.pk}/pairings/{pairing.pk}/result",
        {"log": SimpleUploadedFile("deep.json", deep_json().encode())},
    )
    assert page.status_code in (200, 302, 400, 422), page.status_code


def test_an_import_of_one_document_nested_thousands_deep_is_one_rejection(people, public_club):
    data = ("{\n" + '"meta": ' + deep_json() + "\n}").encode()
    run = create_import(public_club.club, data, "deep.json", people["organiser"], enqueue=False)
    run = run_import(run.pk)
    assert run.status == "done" and run.rejected >= 1 and run.accepted == 0


def test_the_setup_forms_board_option_nested_thousands_deep_is_a_form_error(people, public_club):
    browser = browser_as(people["member"])
    url = f"/clubs/{public_club.club.slug}/record/?game=mister-x&players=2&chance=server"
    page = browser.get(url).content.decode()
    assert 'name="option.board"' in page
    response = browser.post(
        url,
        {
            "option.board": deep_json(),
            "seat.mrx": public_club.handles[0],
            "seat.det1": "bot:greedy",
        },
    )
    assert response.status_code == 422, response.status_code
    # The board is a choice among the boards the engine ships: anything else is not one.
    assert "Select a valid choice" in response.content.decode()


def test_log_length_a_log_of_more_actions_than_any_club_game_is_refused(
    people, public_club, django_capture_on_commit_callbacks
):
    from engine import play
    from engine.core.envelope import MAX_ACTIONS
    from replay.selectors import match_viewers

    log = play(
        "cloak-and-dagger",
        2,
        ["random", "random"],
        max_actions=MAX_ACTIONS + 1,
        players=public_club.handles[:2],
    )
    assert len(log["actions"]) == MAX_ACTIONS + 1 and log["result"] is None
    response = api_as(people["member"]).post(
        f"/api/clubs/{public_club.club.slug}/matches/",
        data=json.dumps(log),
        content_type="application/json",
    )
    assert response.status_code == 400, response.content[:300]
    assert (
        response.json()["rule"] == "LOG-LENGTH" and str(MAX_ACTIONS) in response.json()["message"]
    )
    log["actions"] = log["actions"][:MAX_ACTIONS]  # at the bound: an unfinished match
    with django_capture_on_commit_callbacks(execute=True):
        accepted = api_as(people["member"]).post(
            f"/api/clubs/{public_club.club.slug}/matches/",
            data=json.dumps(log),
            content_type="application/json",
        )
    assert accepted.status_code == 201, accepted.content[:300]
    # Its replay is served by pages of views (replay.frames): every perspective, its end too.
    match = Match.objects.get(pk=accepted.json()["id"])
    client = api_as(people["member"])
    for viewer in match_viewers(match):
        frames = client.get(f"/api/matches/{match.pk}/frames?view={viewer}&ply={MAX_ACTIONS}")
        assert frames.status_code == 200 and len(frames.json()["frames"]) == MAX_ACTIONS + 1
        assert "view" in frames.json()["frames"][MAX_ACTIONS]


def test_log_length_the_recorder_stops_a_draft_at_the_bound(people, public_club, monkeypatch):
    from recorder import services as recorder_services

    monkeypatch.setattr(recorder_services, "MAX_ACTIONS", 2)
    client = api_as(people["member"])
    draft = client.post(
        "/api/drafts/",
        {
            "club": public_club.club.slug,
            "game": "cloak-and-dagger",
            "seats": [
                {"seat": "p1", "player": public_club.handles[0]},
                {"seat": "p2", "bot": "random"},
            ],
        },
        format="json",
    ).json()
    draft = client.post(
        f"/api/drafts/{draft['id']}/apply/",
        {"version": draft["version"], "action": {"seat": "p1", "type": "drop", "envelope": 1}},
        format="json",
    ).json()
    assert draft["ply"] == 2
    refused = client.post(
        f"/api/drafts/{draft['id']}/apply/",
        {"version": draft["version"], "action": {"seat": "p1", "type": "open", "envelope": 1}},
        format="json",
    )
    assert refused.status_code == 422 and refused.json()["rule"] == "LOG-LENGTH"
