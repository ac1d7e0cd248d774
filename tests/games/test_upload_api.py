"""POST /api/clubs/{slug}/matches/ and friends, through the real HTTP stack (DRF APIClient).

The logs are the examples of docs/examples/ (recorded at a table), whose results are
stated in docs/examples/README.md.
"""

from __future__ import annotations

import hashlib
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

import engine
from clubs.models import Player
from games.models import Match, MatchLog, MatchSeat, Upload

pytestmark = pytest.mark.django_db

URL = "/api/clubs/riverside/matches/"


def post_json(client, url: str, body: str | bytes):
    return client.post(url, data=body, content_type="application/json")


def test_a_valid_upload_stores_the_match_its_seats_outcomes_and_log(api, people, example_log):
    log = example_log("cryptid-escape.json")
    response = post_json(api("member"), URL, json.dumps(log))

    assert response.status_code == 201, response.json()
    body = response.json()
    match = Match.objects.get()
    assert body["id"] == match.pk
    assert response["Location"] == body["url"] == f"http://testserver/api/matches/{match.pk}/"
    assert body["replay_url"] == f"http://testserver/matches/{match.pk}/replay"
    assert match.game == "cryptid-urban-legends"
    assert match.status == "valid"
    assert match.winner == "cryptid"
    assert match.result["reason"] == "escape"
    assert match.result == engine.replay(log).result
    assert match.rules_version == engine.get_game("cryptid-urban-legends").rules_version != ""
    assert match.action_count == len(log["actions"])
    assert match.uploaded_by == people["member"]
    seats = {(s.seat, s.player.handle, s.outcome) for s in MatchSeat.objects.all()}
    assert seats == {("cryptid", "alice", "win"), ("scientist", "bob", "loss")}
    assert MatchLog.objects.get(match=match).document == log
    upload = Upload.objects.get()
    assert (upload.status, upload.match, upload.source) == ("accepted", match, "api")


def test_the_same_log_again_returns_the_existing_match_not_a_second_one(api, example_log):
    log = example_log("cryptid-escape.json")
    first = post_json(api("member"), URL, json.dumps(log))
    # Same log, other whitespace and key order: same canonical JSON, same match.
    again = post_json(api("organiser"), URL, json.dumps(log, indent=3, sort_keys=True))

    assert first.status_code == 201
    assert again.status_code == 200
    assert again.json()["id"] == first.json()["id"]
    assert again["Location"] == first.json()["url"]
    assert Match.objects.count() == 1
    assert list(Upload.objects.order_by("id").values_list("status", flat=True)) == [
        "accepted",
        "duplicate",
    ]


def test_an_illegal_action_is_422_with_index_and_rule_and_only_the_upload_is_stored(
    api, people, example_log
):
    log = example_log("cryptid-illegal-draw.json")  # action 14 draws 1 card where 2 are due
    response = post_json(api("member"), URL, json.dumps(log))

    assert response.status_code == 422
    body = response.json()
    assert body["error"] == "illegal"
    assert body["index"] == 14
    assert body["rule"] == "CUL-3.7"
    assert body["rule_url"] == "http://testserver/rules/cryptid-urban-legends/#CUL-3.7"
    assert body["message"].startswith("action 14 (Cryptid: draw cards): ")
    assert Match.objects.count() == 0
    assert MatchSeat.objects.count() == 0
    assert MatchLog.objects.count() == 0
    upload = Upload.objects.get()
    assert body["upload"] == upload.pk
    assert (upload.status, upload.error, upload.error_index, upload.error_rule) == (
        "rejected",
        "illegal",
        14,
        "CUL-3.7",
    )
    assert upload.uploaded_by == people["member"]
    assert json.loads(upload.document_text) == log  # kept, to step through its valid part
    # the upload, read again later, still links its rule
    listed = api("member").get("/api/clubs/riverside/uploads/").json()["results"][0]
    assert (listed["rule"], listed["rule_url"]) == ("CUL-3.7", body["rule_url"])


@pytest.mark.parametrize(
    ("body", "rule"),
    [
        (b'{"format": "lantern-log/1", "game": ', "LOG-JSON"),
        (b"[1, 2, 3]", "LOG-JSON"),
        (
            b'{"format": "lantern-log/2", "game": "mister-x", "seats": [], "actions": []}',
            "LOG-FORMAT",
        ),
    ],
)
def test_malformed_json_is_400_and_recorded(api, body, rule):
    response = post_json(api("member"), URL, body)

    assert response.status_code == 400
    error = response.json()
    assert (error["error"], error["index"], error["rule"]) == ("malformed", None, rule)
    assert error["message"]
    assert Match.objects.count() == 0
    assert Upload.objects.get().error == "malformed"


def test_a_10_mb_body_is_413_without_being_stored(api):
    body = b'{"format": "lantern-log/1", "pad": "' + b"x" * (10 * 1024 * 1024) + b'"}'
    response = post_json(api("member"), URL, body)

    assert response.status_code == 413
    error = response.json()
    assert error["error"] == "too_large"
    assert error["size"] == len(body)
    upload = Upload.objects.get()
    assert (upload.error, upload.size, upload.document_text) == ("too_large", len(body), "")
    assert Match.objects.count() == 0


def test_a_10_mb_file_is_413_too(api):
    big = SimpleUploadedFile("big.json", b" " * (10 * 1024 * 1024), "application/json")
    response = api("member").post(URL, {"file": big}, format="multipart")
    assert response.status_code == 413
    assert response.json()["error"] == "too_large"


def test_a_log_can_be_sent_as_a_file(api, example_log):
    text = json.dumps(example_log("cloak-documents.json"), indent=2).encode()
    Player.objects.bulk_create(
        Player(club_id=Player.objects.first().club_id, handle=entry["player"])
        for entry in example_log("cloak-documents.json")["seats"]
        if entry["player"] not in ("alice", "bob")
    )
    response = api("member").post(
        URL,
        {"file": SimpleUploadedFile("night.json", text, "application/json")},
        format="multipart",
    )
    assert response.status_code == 201, response.json()
    assert response.json()["winner"] == example_log("cloak-documents.json")["result"]["winner"]
    assert Upload.objects.get().name == "night.json"


def test_unknown_handles_are_listed_for_a_member_and_created_for_an_organiser(
    api, club, example_log
):
    log = example_log("cryptid-escape.json")
    log["seats"][0]["player"] = "zoe"
    log["seats"][1]["player"] = "yann"

    refused = post_json(api("member"), URL, json.dumps(log))
    assert refused.status_code == 422
    body = refused.json()
    assert body["error"] == "unknown_players"
    assert body["handles"] == ["yann", "zoe"]
    assert "yann, zoe" in body["message"]
    assert not Player.objects.filter(handle__in=["zoe", "yann"]).exists()

    stored = post_json(api("organiser"), URL, json.dumps(log))
    assert stored.status_code == 201
    assert set(Player.objects.filter(club=club).values_list("handle", flat=True)) == {
        "alice",
        "bob",
        "zoe",
        "yann",
    }
    assert {s["player"] for s in stored.json()["seats"]} == {"zoe", "yann"}


def test_a_non_member_cannot_upload_to_a_public_club(api, example_log):
    body = json.dumps(example_log("cryptid-escape.json"))

    outsider = post_json(api("outsider"), URL, body)
    assert outsider.status_code == 403
    assert outsider.json()["error"] == "forbidden"
    anonymous = post_json(api(None), URL, body)
    assert anonymous.status_code in (401, 403)
    assert anonymous.json()["error"] == "not_authenticated"
    # ...but may read it: the club is public.
    assert api("outsider").get(URL).status_code == 200
    assert Match.objects.count() == 0
    assert Upload.objects.count() == 0


def test_a_private_club_is_404_to_an_outsider_everywhere(api, private_club, example_log):
    log = example_log("cryptid-escape.json")
    member = api("member")
    match_id = post_json(member, "/api/clubs/secret/matches/", json.dumps(log)).json()["id"]

    for client in (api("outsider"), api(None)):
        for response in (
            client.get("/api/clubs/secret/matches/"),
            post_json(client, "/api/clubs/secret/matches/", json.dumps(log)),
            client.get(f"/api/matches/{match_id}/"),
            client.get(f"/api/matches/{match_id}/log"),
            client.get("/api/clubs/secret/matches/export.zip"),
            client.get("/api/clubs/secret/imports/"),
        ):
            assert response.status_code == 404
            assert response.json()["error"] == "not_found"
        assert client.get("/clubs/secret/").status_code == 404
        assert client.get(f"/matches/{match_id}/").status_code == 404
    assert member.get(f"/api/matches/{match_id}/").status_code == 200
    assert Match.objects.count() == 1


def test_match_detail_has_the_log_and_the_log_endpoint_serves_the_stored_document(api, example_log):
    log = example_log("misterx-destination.json")
    Player.objects.bulk_create(
        [Player(club=Player.objects.first().club, handle=e["player"]) for e in log["seats"]],
        ignore_conflicts=True,
    )
    match_id = post_json(api("member"), URL, json.dumps(log)).json()["id"]

    detail = api(None).get(f"/api/matches/{match_id}/")
    assert detail.status_code == 200
    assert detail.json()["log"] == log
    assert detail.json()["winner"] == "mrx"

    raw = api(None).get(f"/api/matches/{match_id}/log")
    assert raw.status_code == 200
    assert raw["Content-Type"] == "application/json"
    assert json.loads(raw.content) == log
    digest = hashlib.sha256(raw.content).hexdigest()
    assert digest == Match.objects.get().content_hash == detail.json()["content_hash"]


def test_the_log_schema_is_the_engines(api):
    response = api(None).get("/api/schema/log.json")
    assert response.status_code == 200
    assert response.json() == json.loads(json.dumps(engine.log_schema()))


def test_the_openapi_schema_documents_uploads_and_their_errors(api):
    response = api(None).get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    paths = json.loads(response.content)["paths"]
    post = paths["/api/clubs/{slug}/matches/"]["post"]
    assert set(post["responses"]) >= {"200", "201", "400", "403", "404", "413", "422", "429"}
    assert set(post["requestBody"]["content"]) == {"application/json", "multipart/form-data"}
    for path in (
        "/api/matches/{match_id}/",
        "/api/matches/{match_id}/log",
        "/api/schema/log.json",
        "/api/clubs/{slug}/imports/",
        "/api/imports/{import_id}/",
        "/api/clubs/{slug}/uploads/",
    ):
        assert path in paths
    parameters = {p["name"] for p in paths["/api/clubs/{slug}/matches/"]["get"]["parameters"]}
    assert parameters >= {"game", "player", "status", "played_from", "played_to", "cursor"}


def test_uploads_are_throttled(api, example_log, settings):
    settings.LANTERN_UPLOAD_RATE = "2/min"
    client = api("member")
    body = json.dumps(example_log("cryptid-escape.json"))
    assert [post_json(client, URL, body).status_code for _ in range(2)] == [201, 200]
    third = post_json(client, URL, body)
    assert third.status_code == 429
    assert third.json()["error"] == "throttled"
    assert int(third["Retry-After"]) > 0
    # Reading is not throttled.
    assert client.get(URL).status_code == 200


def test_an_upload_with_an_api_token(people, example_log):
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    token = Token.objects.create(user=people["member"])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    response = post_json(client, URL, json.dumps(example_log("cryptid-escape.json")))
    assert response.status_code == 201
    assert Match.objects.get().uploaded_by == people["member"]
    client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    refused = post_json(client, URL, json.dumps(example_log("cryptid-escape.json")))
    assert refused.status_code == 401
    assert refused.json()["error"] == "authentication_failed"


def test_a_handle_longer_than_the_database_allows_is_400_not_an_error(api, example_log):
    log = example_log("cryptid-escape.json")
    log["seats"][0]["player"] = "x" * 65
    response = post_json(api("organiser"), URL, json.dumps(log))
    assert response.status_code == 400
    body = response.json()
    assert (body["error"], body["rule"]) == ("malformed", "LOG-SEATS")
    assert "at most 64 characters" in body["message"]
    assert Match.objects.count() == 0
