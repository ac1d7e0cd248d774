"""``/api/matches/{id}/beliefs?view=``: each perspective's beliefs after every ply, cached
and ETag'd as the frames are; a seat gets its own, the all-seeing view every seat's."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from clubs.models import Club, Membership
from engine import play

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _own_empty_cache(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    cache.clear()


def _holders(body: dict) -> set[str]:
    return {b["holder"] for entry in body["plies"] for b in entry["beliefs"]}


def test_each_perspective_gets_its_own_beliefs(client, club, store_match, example_log):
    log = example_log("cryptid-escape.json")
    match = store_match(club, log)
    url = f"/api/matches/{match.pk}/beliefs"
    body = client.get(url).json()
    assert body["viewer"] == "all" and body["game"] == "cryptid-urban-legends"
    assert [e["ply"] for e in body["plies"]] == list(range(len(log["actions"]) + 1))
    assert _holders(body) == {"cryptid", "scientist"}
    for seat in ("cryptid", "scientist"):
        own = client.get(f"{url}?view={seat}").json()
        assert _holders(own) == {seat}
        # the seat's own belief, as the all-seeing perspective shows it
        assert [e["beliefs"] for e in own["plies"]] == [
            [b for b in e["beliefs"] if b["holder"] == seat] for e in body["plies"]
        ]


def test_mister_x_belief_is_public_so_every_perspective_gets_it(client, club, store_match):
    log = play("mister-x", 7, ["greedy", "greedy", "greedy"])
    match = store_match(club, log)
    url = f"/api/matches/{match.pk}/beliefs"
    answers = [
        client.get(f"{url}?view={view}").json()["plies"]
        for view in ("all", "mrx", "det1", "detectives")
    ]
    assert all(answer == answers[0] for answer in answers)
    assert _holders({"plies": answers[0]}) == {"detectives"}


def test_etag_304_cache_and_unknown_view(client, club, store_match, example_log, monkeypatch):
    match = store_match(club, example_log("cloak-documents.json"))
    url = f"/api/matches/{match.pk}/beliefs?view=p1"
    first = client.get(url)
    assert first.status_code == 200 and first["Content-Type"] == "application/json"
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    assert client.get(f"/api/matches/{match.pk}/beliefs?view=p2")["ETag"] != first["ETag"]
    # the frames' ETag of the same perspective is another entity
    assert client.get(f"/api/matches/{match.pk}/frames?view=p1")["ETag"] != first["ETag"]

    def no_replay(*args, **kwargs):
        raise AssertionError("the cached beliefs should have been served")

    bad = client.get(f"/api/matches/{match.pk}/beliefs?view=p9")
    assert bad.status_code == 422 and bad.json()["error"] == "unknown_view"
    monkeypatch.setattr("replay.selectors.build_beliefs", no_replay)
    assert client.get(url).content == first.content


def test_private_club_beliefs_are_404_to_outsiders(client, user, store_match, example_log):
    secret = Club.objects.create(name="Secret Circle", slug="secret", is_public=False)
    match = store_match(secret, example_log("cryptid-escape.json"))
    url = f"/api/matches/{match.pk}/beliefs"
    assert client.get(url).status_code == 404
    client.force_login(user)
    assert client.get(url).status_code == 404
    Membership.objects.create(user=user, club=secret)
    assert client.get(url).status_code == 200


def test_beliefs_endpoint_is_in_the_openapi_schema(client, db):
    schema = client.get("/api/schema/?format=json").json()
    operation = schema["paths"]["/api/matches/{match_id}/beliefs"]["get"]
    assert operation["operationId"] == "match_beliefs"
    assert "ReplayBeliefs" in schema["components"]["schemas"]
