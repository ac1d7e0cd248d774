"""Whole games recorded through the API, entered as a person at the table would: each
action chosen from the legal actions field by field, its chance outcome from the chance
options. The games are bot-played logs (engine.play); the match the draft becomes must
be valid and its stored log must hold exactly the actions applied."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine import play, replay
from games.models import Match, Upload
from recorder.models import Draft
from tests.recorder.conftest import HANDLES, choose_through_api

pytestmark = pytest.mark.django_db


def record(client, log: dict[str, Any], *, setup: dict[str, Any]) -> dict[str, Any]:
    """Record ``log`` through the API in table mode; return the finished draft."""
    seats = [{"seat": e["seat"], "player": e["player"]} for e in log["seats"]]
    response = client.post(
        "/api/drafts/",
        {
            "club": "riverside",
            "game": log["game"],
            "options": log["options"],
            "seats": seats,
            "chance": "table",
            "setup": setup,
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    draft = response.json()
    assert draft["chance"] == "table" and draft["document"]["seed"] is None
    url = f"/api/drafts/{draft['id']}/"
    for ply, recorded in enumerate(log["actions"]):
        assert recorded["seat"] in draft["to_act"] or draft["seat"] is not None

        def legal(prefix, seat=recorded["seat"]):
            response = client.get(
                f"{url}legal-actions/", {"seat": seat, "prefix": json.dumps(prefix)}
            )
            assert response.status_code == 200, response.json()
            return response.json()

        entry = choose_through_api(legal, recorded)
        if entry["chance"]:

            def chance(prefix, action=entry["action"]):
                response = client.post(
                    f"{url}chance-options/", {"action": action, "prefix": prefix}, format="json"
                )
                assert response.status_code == 200, response.json()
                return response.json()

            entry = choose_through_api(chance, recorded)
            assert entry["chance"] is False
        assert entry["action"] == recorded, f"ply {ply}"
        response = client.post(
            f"{url}apply/", {"version": draft["version"], "action": entry["action"]}, format="json"
        )
        assert response.status_code == 200, response.json()
        after = response.json()
        assert after["version"] == draft["version"] + 1 and after["ply"] == ply + 1
        assert after["moves"][-1]["notation"] == entry["notation"]
        draft = after
    assert draft["is_over"] and draft["seat"] is None and draft["result"] == log["result"]
    response = client.post(f"{url}finish/", {"version": draft["version"]}, format="json")
    assert response.status_code == 200, response.json()
    return response.json()


def _bot_log(game: str, seed: int, bots: list[str]) -> dict[str, Any]:
    """A bot-played log, its cards and tickets drawn written as sorted lists: a draw is a
    multiset (a seeded game writes them in drawing order, the table in any order), and
    the chance options list each multiset once, sorted."""
    log = play(game, seed, bots, players=list(HANDLES[: len(bots)]))
    for action in log["actions"]:
        for field in ("cards", "tickets"):
            if isinstance(action.get(field), list):
                action[field] = sorted(action[field])
    assert replay({**log, "seed": None}).status == "finished"  # still the same game
    return log


@pytest.mark.parametrize("seed", [3, 11])
def test_a_cryptid_game_recorded_at_the_table_becomes_a_valid_match(api, club, seed):
    log = _bot_log("cryptid-urban-legends", seed, ["greedy", "random"])
    done = record(api("member"), log, setup=log["setup"])  # hands and blocks as dealt
    assert done["status"] == "finished"
    match = Match.objects.get(pk=done["match"])
    assert match.status == Match.Status.VALID and match.result == log["result"]
    assert match.log.document["actions"] == log["actions"]
    assert match.log.document["seed"] is None and match.with_bots is False
    assert done["match_url"].endswith(f"/matches/{match.pk}/")
    upload = Upload.objects.get(match=match)
    assert upload.source == Upload.Source.RECORDER and upload.status == Upload.Status.ACCEPTED


def test_a_cryptid_relocation_is_entered_space_by_space(api, club):
    log = _bot_log("cryptid-urban-legends", 174, ["greedy", "greedy"])
    assert any(action["type"] == "relocate" for action in log["actions"])
    done = record(api("member"), log, setup=log["setup"])
    assert Match.objects.get(pk=done["match"]).log.document["actions"] == log["actions"]


def test_a_cloak_game_with_envelope_contents_entered_at_the_table(api, club):
    log = _bot_log("cloak-and-dagger", 5, ["greedy", "random", "greedy"])
    # No pile in the setup: every card placed is entered as it came out (chance options).
    done = record(api("member"), log, setup={})
    match = Match.objects.get(pk=done["match"])
    assert match.status == Match.Status.VALID and match.result == log["result"]
    assert match.log.document["actions"] == log["actions"]
    assert match.log.document["setup"] == {}


def test_a_mister_x_game_with_refills_entered_at_the_table(api, club):
    log = _bot_log("mister-x", 2, ["greedy", "greedy", "greedy"])
    done = record(api("organiser"), log, setup=log["setup"])
    match = Match.objects.get(pk=done["match"])
    assert match.status == Match.Status.VALID and match.result == log["result"]
    assert match.log.document["actions"] == log["actions"]


def test_a_game_stopped_early_becomes_an_unfinished_match(api, club):
    log = _bot_log("cloak-and-dagger", 8, ["greedy", "greedy"])
    client = api("member")
    draft = client.post(
        "/api/drafts/",
        {
            "club": "riverside",
            "game": "cloak-and-dagger",
            "chance": "table",
            "seats": [{"seat": e["seat"], "player": e["player"]} for e in log["seats"]],
            "setup": log["setup"],
        },
        format="json",
    ).json()
    for action in log["actions"][:5]:
        draft = client.post(
            f"/api/drafts/{draft['id']}/apply/",
            {"version": draft["version"], "action": action},
            format="json",
        ).json()
    done = client.post(
        f"/api/drafts/{draft['id']}/finish/", {"version": draft["version"]}, format="json"
    ).json()
    match = Match.objects.get(pk=done["match"])
    assert (
        match.status == Match.Status.UNFINISHED
        and match.log.document["actions"] == log["actions"][:5]
    )
    assert Draft.objects.get(pk=draft["id"]).status == Draft.Status.FINISHED
