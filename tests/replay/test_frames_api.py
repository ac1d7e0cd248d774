"""The frames API and its selector, on the toy game (apart from any real game's rules)."""

from __future__ import annotations

import gzip
import json

import pytest
from django.core.cache import cache

from clubs.models import Club, Membership
from replay.frames import build_frames
from tests.replay.toy_game import toy_log

pytestmark = pytest.mark.django_db

# Round 1: north draws 3, south 8; both guess wrong. Round 2: north draws 5, south 1;
# north guesses south's 1 and wins (south's guess never comes: 7 actions).
LOG = toy_log(cards=[(3, 8), (5, 1)], guesses=[(4, 4), (1, 9)])
del LOG["actions"][-1]


@pytest.fixture(autouse=True)
def _own_empty_cache(settings):
    # A cache of this test's own: clearing a configured Redis would flush Celery's
    # broker keys on the same database.
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    cache.clear()


def test_frames_of_the_all_seeing_view_show_every_card(toy_game):
    payload = build_frames(LOG, "all")
    assert [f["ply"] for f in payload["frames"]] == list(range(8))
    assert payload["frames"][2]["view"]["hands"] == {"north": [3], "south": [8]}
    assert payload["frames"][2]["notation"] == "south draws 8"
    assert payload["status"] == "finished"
    assert payload["frames"][-1]["view"]["winner"] == "north"
    assert [v["id"] for v in payload["viewers"]] == ["all", "north", "south"]
    assert payload["viewers"][1]["label"] == "north (nora)"


def test_a_frame_carries_the_round_and_phase_its_action_was_played_in(toy_game):
    frames = build_frames(LOG, "all")["frames"]
    # Ply 2 (south's draw) ends round 1's draw phase: the state after it is already
    # in the guess phase, but the move belongs to the draw phase.
    assert frames[2]["view"]["phase"] == "guess"
    assert (frames[2]["round"], frames[2]["phase"]) == (1, "draw")
    # Ply 4 ends round 1; the state after it is round 2.
    assert frames[4]["view"]["round"] == 2
    assert (frames[4]["round"], frames[4]["phase"]) == (1, "guess")
    assert (frames[0]["round"], frames[0]["phase"], frames[0]["seat"]) == (1, "draw", None)


def test_a_seat_sees_its_own_cards_and_only_the_count_of_the_others(toy_game):
    frames = build_frames(LOG, "north")["frames"]
    assert frames[2]["view"]["hands"] == {"north": [3], "south": 1}
    assert frames[2]["action"] == {"seat": "south", "type": "draw"}
    assert frames[2]["notation"] == "south draws a card"
    assert frames[1]["notation"] == "north draws 3"
    text = json.dumps(build_frames(LOG, "north"))
    assert '"card": 8' not in text.replace(" ", "") and '"card":8' not in text


def test_api_serves_frames_with_an_etag_and_answers_304(client, club, store_match, toy_game):
    match = store_match(club, LOG)
    url = f"/api/matches/{match.pk}/frames?view=south"
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["viewer"] == "south"
    assert body["match"] == match.pk
    assert body["frames"][1]["action"] == {"seat": "north", "type": "draw"}
    etag = response["ETag"]
    again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    assert again.content == b""
    # Another perspective is another entity.
    north = client.get(f"/api/matches/{match.pk}/frames?view=north")
    assert north["ETag"] != etag
    assert client.get(f"/api/matches/{match.pk}/frames", HTTP_IF_NONE_MATCH=etag).status_code == 200


def test_api_default_view_is_all_seeing_and_unknown_views_are_422(
    client, club, store_match, toy_game
):
    match = store_match(club, LOG)
    assert client.get(f"/api/matches/{match.pk}/frames").json()["viewer"] == "all"
    response = client.get(f"/api/matches/{match.pk}/frames?view=east")
    assert response.status_code == 422
    assert response.json()["error"] == "unknown_view"
    assert "north" in response.json()["message"]


def test_api_serves_the_cached_payload_without_replaying(
    client, club, store_match, toy_game, monkeypatch
):
    match = store_match(club, LOG)
    first = client.get(f"/api/matches/{match.pk}/frames?view=north").content

    def no_replay(*args, **kwargs):
        raise AssertionError("the cached payload should have been served")

    monkeypatch.setattr("replay.selectors.build_frames", no_replay)
    assert client.get(f"/api/matches/{match.pk}/frames?view=north").content == first


def test_private_club_matches_are_404_to_outsiders_and_served_to_members(
    client, user, store_match, toy_game
):
    secret = Club.objects.create(name="Secret Circle", slug="secret", is_public=False)
    match = store_match(secret, LOG)
    url = f"/api/matches/{match.pk}/frames"
    assert client.get(url).status_code == 404
    assert client.get(f"/matches/{match.pk}/replay").status_code == 404
    client.force_login(user)
    assert client.get(url).status_code == 404
    Membership.objects.create(user=user, club=secret)
    assert client.get(url).status_code == 200
    assert client.get(f"/matches/{match.pk}/replay").status_code == 200


def test_missing_match_is_404(client, db):
    assert client.get("/api/matches/999/frames").status_code == 404


def test_frames_endpoint_is_in_the_openapi_schema(client, db):
    schema = client.get("/api/schema/?format=json").json()
    operation = schema["paths"]["/api/matches/{match_id}/frames"]["get"]
    assert operation["operationId"] == "match_frames"
    assert {p["name"] for p in operation["parameters"]} >= {"match_id", "view"}
    assert "ReplayFrames" in schema["components"]["schemas"]


def test_a_rejected_log_gives_the_frames_of_its_valid_part(example_log, db):
    log = example_log("cryptid-illegal-draw.json")  # action 14 draws 1 card (CUL-3.7)
    payload = build_frames(log, "all")
    assert payload["status"] == "rejected"
    assert [f["ply"] for f in payload["frames"]] == list(range(15))  # setup + actions 0..13
    assert payload["error"]["index"] == 14 and payload["error"]["rule"] == "CUL-3.7"
    # The rejection's sentence could name hidden facts: a seat does not get it.
    seat = build_frames(log, "cryptid")
    assert seat["status"] == "rejected" and seat["error"] is None
    assert len(seat["frames"]) == 15


def test_mister_x_payload_carries_the_board_once(example_log, db):
    log = example_log("misterx-destination.json")
    payload = build_frames(log, "det1")
    board = payload["static"]["board"]
    assert {c["id"] for c in board["cities"]} >= {
        payload["frames"][0]["view"]["pawns"][p] for p in board["pawns"]
    }
    assert all(
        "board" not in f["view"] or isinstance(f["view"]["board"], str) for f in payload["frames"]
    )


def test_a_log_the_engine_can_no_longer_set_up_is_a_clear_422(
    client, club, store_match, example_log
):
    match = store_match(club, example_log("cloak-documents.json"))
    document = match.log.document
    document["setup"] = {"pile": ["Q"]}  # as if a rule had changed since it was stored
    match.log.save()
    response = client.get(f"/api/matches/{match.pk}/frames?view=p1")
    assert response.status_code == 422
    body = response.json()
    assert (
        body["error"] == "unreplayable" and body["rule"].startswith("CD-") and body["index"] is None
    )
    # Said in the reader's language, like every engine refusal.
    in_japanese = client.get(
        f"/api/matches/{match.pk}/frames?view=p1", HTTP_ACCEPT_LANGUAGE="ja"
    ).json()
    assert in_japanese["rule"] == body["rule"] and in_japanese["message"] != body["message"]
    # The page itself still opens and says what went wrong.
    assert client.get(f"/matches/{match.pk}/replay").status_code == 200


def test_frames_go_gzipped_to_clients_that_take_gzip(client, club, store_match, toy_game):
    match = store_match(club, LOG)
    url = f"/api/matches/{match.pk}/frames?view=north"
    plain = client.get(url)
    assert "Content-Encoding" not in plain
    packed = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed["Vary"]
    assert gzip.decompress(packed.content) == plain.content
    assert len(packed.content) < len(plain.content)
    refused = client.get(url, HTTP_ACCEPT_ENCODING="gzip;q=0, identity")
    assert "Content-Encoding" not in refused
    # Both share one weak ETag; a client may send it back in either form.
    assert packed["ETag"] == plain["ETag"] and plain["ETag"].startswith('W/"')
    strong_form = plain["ETag"].removeprefix("W/")
    assert client.get(url, HTTP_IF_NONE_MATCH=f'"other", {strong_form}').status_code == 304
