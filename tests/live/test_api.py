"""``/api/tables/``: another client (a phone app, a member's bot) opens a table, takes a
seat with a token, follows the news by polling and plays its seat; the OpenAPI schema
describes it all."""

from __future__ import annotations

import json
from urllib.parse import urlencode

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from clubs.models import Club
from tests.live.conftest import CRYPTID, seats
from tests.live.twins import first_walked

pytestmark = pytest.mark.django_db


def token_client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


def open_cryptid(client: APIClient):
    """A Cryptid table at riverside, the client in the cryptid's seat, the scientist's free."""
    return client.post(
        "/api/tables/",
        {"club": "riverside", "game": CRYPTID, "seats": seats(CRYPTID, "me", "free")},
        format="json",
    )


def walk(client: APIClient, url: str) -> dict:
    """The seat's action chosen through legal-actions field by field (first values)."""
    prefix: dict = {}
    for _ in range(30):
        body = client.get(url, {"prefix": json.dumps(prefix)} if prefix else {}).json()
        if body["field"] is None:
            return first_walked([entry["action"] for entry in body["actions"]])
        prefix = {**body["prefix"], body["field"]: body["values"][0]["value"]}
    raise AssertionError("the choice never narrowed down")


def test_two_token_clients_play_a_whole_game(club, people):
    ann, ben = token_client(people["ann"]), token_client(people["ben"])
    opened = open_cryptid(ann)
    assert opened.status_code == 201, opened.json()
    table = opened.json()
    assert table["status"] == "open" and table["your_seat"] == "cryptid"
    listed = ben.get("/api/tables/", {"club": "riverside"}).json()
    assert [t["id"] for t in listed] == [table["id"]]
    url = f"/api/tables/{table['id']}/"
    joined = ben.post(f"{url}take-seat/", {}, format="json").json()
    assert joined["status"] == "playing" and joined["your_seat"] == "scientist"
    clients = {"cryptid": ann, "scientist": ben}
    seen = {"cryptid": 0, "scientist": 0}
    for _ in range(200):
        news = {
            seat: clients[seat].get(f"{url}news/", {"since": seen[seat]}).json() for seat in clients
        }
        for seat, body in news.items():
            seen[seat] = body["n"]
        if news["cryptid"]["status"] != "playing":
            break
        seat = news["cryptid"]["position"]["to_act"][0]
        assert news[seat]["position"]["your_turn"]
        action = walk(clients[seat], f"{url}legal-actions/")
        moved = clients[seat].post(
            f"{url}act/", {"seen": seen[seat], "action": action}, format="json"
        )
        assert moved.status_code == 200, moved.json()
    final = ann.get(url).json()
    assert final["status"] == "finished" and final["match"] is not None


def test_refusals_say_why(club, people):
    ann, ben, otto = (token_client(people[who]) for who in ("ann", "ben", "outsider"))
    table = open_cryptid(ann).json()
    url = f"/api/tables/{table['id']}/"
    assert otto.get(url).status_code == 403
    assert otto.post(f"{url}take-seat/", {}, format="json").status_code == 403
    assert APIClient().get(url).status_code == 401
    ben.post(f"{url}take-seat/", {}, format="json")
    assert ben.post(f"{url}take-seat/", {}, format="json").status_code == 409  # closed
    n = ann.get(url).json()["last_event"]
    # the scientist may not move for the cryptid, nor anyone against an old event
    wrong = ben.post(
        f"{url}act/", {"seen": n, "action": {"seat": "cryptid", "type": "x"}}, format="json"
    )
    assert wrong.status_code == 422 and wrong.json()["rule"] == "LIVE-SEAT"
    stale = ann.post(
        f"{url}act/", {"seen": n - 1, "action": {"seat": "cryptid", "type": "x"}}, format="json"
    )
    assert stale.status_code == 409 and stale.json()["error"] == "stale"
    illegal = ann.post(
        f"{url}act/", {"seen": n, "action": {"seat": "cryptid", "type": "fly"}}, format="json"
    )
    assert illegal.status_code == 422 and illegal.json()["rule"]
    # ``since`` left out is everything; given, it is an event number, not "" nor "²"
    assert ann.get(f"{url}news/").json()["n"] == n
    for bad in ("", "-1", "x", "\u00b2", "1000000000"):
        refused = ann.get(f"{url}news/", {"since": bad})
        assert refused.status_code == 400 and refused.json()["field"] == "since", bad
    # Who may not watch the table learns only that, whatever the move (stale, malformed,
    # another's seat); a table nobody may see, or none at all, is not found.
    for body in ({"seen": n, "action": {"seat": "cryptid"}}, {"seen": 0}, {}):
        assert otto.post(f"{url}act/", body, format="json").status_code == 403
    assert APIClient().post(f"{url}act/", {"seen": n}, format="json").status_code == 401
    assert ann.post("/api/tables/999999/act/", {"seen": 0}, format="json").status_code == 404
    Club.objects.filter(slug="riverside").update(is_public=False)
    assert otto.post(f"{url}act/", {"seen": n}, format="json").status_code == 404
    assert (
        ann.post(
            "/api/tables/",
            {"club": "riverside", "game": CRYPTID, "seats": seats(CRYPTID, "bot", "bot")},
            format="json",
        ).status_code
        == 422
    )


def test_the_schema_describes_the_tables(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    for path in (
        "/api/tables/",
        "/api/tables/{table_id}/",
        "/api/tables/{table_id}/take-seat/",
        "/api/tables/{table_id}/news/",
        "/api/tables/{table_id}/legal-actions/",
        "/api/tables/{table_id}/act/",
    ):
        assert path in schema["paths"], path


def test_a_multipart_body_carries_the_seats_and_the_clock_as_json_parts(club, people):
    """The schema offers multipart, where OpenAPI sends an object or a list of objects as
    one JSON part: a table opens from such a body with its clock, and a part that is not
    what the schema says is a 400 naming it, never passed over (an untimed table)."""
    ann = token_client(people["ann"])
    clock = {"kind": "realtime", "minutes": 5, "increment": 3}
    body = {"club": "riverside", "game": CRYPTID, "seats": json.dumps(seats(CRYPTID, "me", "free"))}
    opened = ann.post("/api/tables/", {**body, "clock": json.dumps(clock)}, format="multipart")
    assert opened.status_code == 201, opened.content
    assert opened.json()["clock"]["kind"] == "realtime"
    # The list as a part an object, as the seats' two parts.
    parted = {**body, "seats": [json.dumps(seat) for seat in seats(CRYPTID, "me", "free")]}
    assert ann.post("/api/tables/", parted, format="multipart").status_code == 201
    for field, part in (
        ("clock", '{"kind": "realtime", "minutes": -5}'),
        ("clock", "[1"),
        ("seats", '{"seat": "cryptid"}'),
        ("seats", "cryptid"),
    ):
        refused = ann.post("/api/tables/", {**body, field: part}, format="multipart")
        assert refused.status_code == 400 and field in refused.content.decode(), part


def test_a_move_is_json_and_only_json(club, people):
    """An action is any JSON value, which a form cannot carry whole (an empty list or null
    is no part at all): the schema offers act as JSON only, and a form is a 415."""
    ann = token_client(people["ann"])
    table = open_cryptid(ann).json()
    url = f"/api/tables/{table['id']}/act/"
    body = {"seen": 1, "action": "[]"}
    for refused in (
        ann.post(url, body, format="multipart"),
        ann.post(url, urlencode(body), content_type="application/x-www-form-urlencoded"),
    ):
        assert refused.status_code == 415, refused.content
    schema = ann.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    content = schema["paths"]["/api/tables/{table_id}/act/"]["post"]["requestBody"]["content"]
    assert list(content) == ["application/json"]
