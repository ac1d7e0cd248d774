"""The match list stays cheap as it grows (bench/load/ reads it hundreds of times a
second): a fixed number of queries per page, and each match its own links."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

import engine
from games.models import Upload
from games.services import ingest_log

pytestmark = pytest.mark.django_db

URL = "/api/clubs/riverside/matches/"


def store_bot_matches(club, count: int) -> None:
    for seed in range(count):
        log = engine.play("cryptid-urban-legends", seed, ["greedy", "random"],
                          players=["alice", "bob"])
        ingest_log(club, log, None, source=Upload.Source.SITE)


def queries_for_list(client) -> tuple[int, dict]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(URL)
    assert response.status_code == 200
    return len(queries), response.json()


def test_the_list_costs_the_same_queries_for_two_matches_or_twenty(api, club):
    store_bot_matches(club, 2)
    few, _ = queries_for_list(api(None))
    store_bot_matches(club, 20)
    many, body = queries_for_list(api(None))
    assert len(body["results"]) > 2
    assert many == few == 3  # club, page of matches, seats with their players


def test_every_listed_match_links_to_itself(api, club):
    store_bot_matches(club, 12)
    _, body = queries_for_list(api(None))
    for match in body["results"]:
        pk = match["id"]
        assert match["url"] == f"http://testserver/api/matches/{pk}/"
        assert match["page_url"] == f"http://testserver/matches/{pk}/"
        assert match["replay_url"] == f"http://testserver/matches/{pk}/replay"
        assert match["log_url"] == f"http://testserver/api/matches/{pk}/log"
        assert {seat["player"] for seat in match["seats"]} == {"alice", "bob"}


def test_two_requests_answer_the_same_body(api, club):
    """Fields are worked out once per serializer class: the second list is the first."""
    store_bot_matches(club, 5)
    _, first = queries_for_list(api(None))
    _, second = queries_for_list(api("member"))
    assert first == second


def test_an_upload_answers_with_its_seats_in_one_query(api, club):
    """Not one query per seat to name its players (a Mister X table has up to six)."""
    log = engine.play("mister-x", 3, ["greedy"] * 4, players=["alice", "bob", "carol", "dan"])
    with CaptureQueriesContext(connection) as queries:
        response = api("organiser").post(URL, log, format="json")
    assert response.status_code == 201, response.json()
    assert len(response.json()["seats"]) == 4
    one_player_each = [q["sql"] for q in queries.captured_queries
                       if 'FROM "games_player" WHERE "games_player"."id" =' in q["sql"]]
    assert one_player_each == []
