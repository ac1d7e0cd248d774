"""The match list stays cheap as it grows (bench/load/ reads it hundreds of times a
second): a fixed number of queries per page, and each match its own links."""

from __future__ import annotations

import copy
import json

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory

import engine
from games.api.serializers import MatchSummarySerializer
from games.models import Match, Upload
from games.selectors import with_seat_summaries
from games.services import ingest_log

pytestmark = pytest.mark.django_db

URL = "/api/clubs/riverside/matches/"


@pytest.fixture
def store_bot_matches(django_capture_on_commit_callbacks):
    """``store_bot_matches(club, count)``: bot-played matches, committed (the club's
    cached list moves on)."""

    def store(club, count: int) -> None:
        with django_capture_on_commit_callbacks(execute=True):
            for seed in range(count):
                log = engine.play(
                    "cryptid-urban-legends", seed, ["greedy", "random"], players=["alice", "bob"]
                )
                ingest_log(club, log, None, source=Upload.Source.SITE)

    return store


def queries_for_list(client) -> tuple[int, dict]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(URL)
    assert response.status_code == 200
    return len(queries), response.json()


def test_the_list_costs_the_same_queries_for_two_matches_or_twenty(api, club, store_bot_matches):
    store_bot_matches(club, 2)
    few, _ = queries_for_list(api(None))
    store_bot_matches(club, 20)
    many, body = queries_for_list(api(None))
    assert len(body["results"]) > 2
    assert many == few == 3  # club, page of matches, seats with their players


def test_every_listed_match_links_to_itself(api, club, store_bot_matches):
    store_bot_matches(club, 12)
    _, body = queries_for_list(api(None))
    for match in body["results"]:
        pk = match["id"]
        assert match["url"] == f"http://testserver/api/matches/{pk}/"
        assert match["page_url"] == f"http://testserver/matches/{pk}/"
        assert match["replay_url"] == f"http://testserver/matches/{pk}/replay"
        assert match["log_url"] == f"http://testserver/api/matches/{pk}/log"
        assert {seat["player"] for seat in match["seats"]} == {"alice", "bob"}


def test_two_requests_answer_the_same_body(api, club, store_bot_matches):
    """Fields are worked out once per serializer class: the second list is the first."""
    store_bot_matches(club, 5)
    _, first = queries_for_list(api(None))
    cache.clear()  # computed again, not read from games.read_cache
    _, second = queries_for_list(api("member"))
    assert first == second


def test_an_upload_answers_with_its_seats_in_one_query(api, club):
    """Not one query per seat to name its players (a Mister X table has up to six)."""
    log = engine.play("mister-x", 3, ["greedy"] * 4, players=["alice", "bob", "carol", "dan"])
    with CaptureQueriesContext(connection) as queries:
        response = api("organiser").post(URL, log, format="json")
    assert response.status_code == 201, response.json()
    assert len(response.json()["seats"]) == 4
    one_player_each = [
        q["sql"]
        for q in queries.captured_queries
        if 'FROM "games_player" WHERE "games_player"."id" =' in q["sql"]
    ]
    assert one_player_each == []


def generic_walk(serializer, match) -> dict:
    """What DRF's ModelSerializer makes of the match, field by field."""
    return serializers.ModelSerializer.to_representation(serializer, match)


def test_the_written_out_summary_equals_the_generic_walk(api, club):
    """MatchSummarySerializer.to_representation spells its fields out for speed; it
    must say exactly what DRF's field-by-field walk says, for every game, finished or
    not, with or without a played time, and voided."""
    for game, bots, players in [
        ("cryptid-urban-legends", ["greedy", "random"], ["alice", "bob"]),
        ("mister-x", ["greedy"] * 3, ["alice", "bob", "carol"]),
        ("cloak-and-dagger", ["random"] * 4, ["alice", "bob", "carol", "dan"]),
    ]:
        log = engine.play(game, 11, bots, players=players)
        ingest_log(club, log, None, source=Upload.Source.SITE)
        unfinished = copy.deepcopy(log)
        unfinished["actions"] = unfinished["actions"][: len(unfinished["actions"]) // 2]
        unfinished.pop("played_at", None)
        unfinished.pop("result", None)
        ingest_log(club, unfinished, None, source=Upload.Source.SITE)
    Match.objects.filter(pk=Match.objects.order_by("id").first().pk).update(
        is_void=True, void_reason="wrong table", played_at=None
    )
    matches = list(Match.objects.select_related("club").order_by("id"))
    assert {m.status for m in matches} == {"valid", "unfinished"}
    assert any(m.played_at is None for m in matches)
    request = APIRequestFactory().get(URL)
    serializer = MatchSummarySerializer(context={"request": Request(request)})
    for match in with_seat_summaries(matches):
        written_out = serializer.to_representation(match)
        generic = generic_walk(serializer, match)
        assert json.loads(json.dumps(written_out)) == json.loads(json.dumps(generic))
        assert list(written_out) == list(generic)  # the same keys, in the same order
        assert written_out["seats"] and [s["player"] for s in written_out["seats"]] == [
            seat.player.handle for seat in match.seats.order_by("id")
        ]
