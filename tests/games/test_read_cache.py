"""A club's match list and its ladders' standings are cached (games.read_cache) and
never served once something they show has changed: a stored match, a rename, a merge,
a void, a rating. The version moves when the change commits, not before."""

from __future__ import annotations

from unittest import mock

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

import engine
from clubs import services as club_services
from clubs.models import Player
from games import services as game_services
from games.models import Match, Upload
from games.services import ingest_log
from ladder.models import Ladder

pytestmark = pytest.mark.django_db

URL = "/api/clubs/riverside/matches/"


def store(club, seed: int, players=("alice", "bob")) -> Match:
    log = engine.play("cryptid-urban-legends", seed, ["greedy", "random"], players=list(players))
    return ingest_log(club, log, None, source=Upload.Source.SITE)


def listed(client, url: str = URL) -> tuple[dict, int]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, response.content
    return response.json(), len(queries)


def ids(body: dict) -> list[int]:
    return [match["id"] for match in body["results"]]


def handles(body: dict) -> set[str]:
    return {seat["player"] for match in body["results"] for seat in match["seats"]}


def test_a_repeated_list_is_answered_from_the_cache(api, club, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        store(club, 1)
        store(club, 2)
    first, first_queries = listed(api(None))
    again, again_queries = listed(api("member"))
    assert again == first and len(first["results"]) == 2
    assert first_queries == 3  # club, page, seats
    assert again_queries == 1  # the club (who may see it is decided before the cache)


def test_each_url_has_its_own_answer(api, club, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        store(club, 1)
        mister_x = engine.play("mister-x", 1, ["greedy"] * 2, players=["alice", "bob"])
        ingest_log(club, mister_x, None, source=Upload.Source.SITE)
    everything, _ = listed(api(None))
    only_cryptid, _ = listed(api(None), URL + "?game=cryptid-urban-legends")
    one_a_page, _ = listed(api(None), URL + "?limit=1")
    assert len(everything["results"]) == 2
    assert [m["game"] for m in only_cryptid["results"]] == ["cryptid-urban-legends"]
    assert len(one_a_page["results"]) == 1 and one_a_page["next"]
    other_host = api(None).get(URL, HTTP_HOST="localhost").json()
    assert other_host["results"][0]["url"].startswith("http://localhost/")
    assert everything["results"][0]["url"].startswith("http://testserver/")


def test_a_stored_match_is_listed_once_its_upload_commits(
    api, club, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        store(club, 1)
    before, _ = listed(api(None))
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        new = store(club, 2)
        # Not committed yet: the version has not moved, the cached answer stands (a
        # reader now would still see the old rows under it: no harm done).
        during, queries = listed(api(None))
        assert during == before and queries == 1
    for callback in callbacks:  # the commit
        callback()
    after, _ = listed(api(None))
    assert ids(after) == [new.pk, *ids(before)]


def test_an_upload_through_the_api_is_listed_at_once(api, club, django_capture_on_commit_callbacks):
    listed(api(None))
    log = engine.play("cryptid-urban-legends", 5, ["greedy", "random"], players=["alice", "bob"])
    with django_capture_on_commit_callbacks(execute=True):
        response = api("organiser").post(URL, log, format="json")
    assert response.status_code == 201
    after, _ = listed(api(None))
    assert ids(after) == [response.json()["id"]]


def test_a_rename_shows_in_the_list_and_the_standings(
    api, club, people, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        store(club, 1)
    ladder = Ladder.objects.get(club=club)
    standings_url = f"/api/ladders/{ladder.pk}/standings/"
    assert handles(listed(api(None))[0]) == {"alice", "bob"}
    assert {r["handle"] for r in listed(api(None), standings_url)[0]["results"]} == {"alice", "bob"}
    with django_capture_on_commit_callbacks(execute=True):
        club_services.rename_player(
            people["organiser"], Player.objects.get(handle="alice"), "alicia"
        )
    assert handles(listed(api(None))[0]) == {"alicia", "bob"}
    assert {r["handle"] for r in listed(api(None), standings_url)[0]["results"]} == {
        "alicia",
        "bob",
    }


def test_a_merge_and_a_void_show_at_once(api, club, people, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        first = store(club, 1)
        store(club, 2, players=("carol", "bob"))
    ladder = Ladder.objects.get(club=club)
    standings_url = f"/api/ladders/{ladder.pk}/standings/"
    assert handles(listed(api(None))[0]) == {"alice", "bob", "carol"}
    games_before = {r["handle"]: r["games"] for r in listed(api(None), standings_url)[0]["results"]}
    assert games_before == {"alice": 1, "bob": 2, "carol": 1}
    with django_capture_on_commit_callbacks(execute=True):
        club_services.merge_players(
            people["organiser"],
            Player.objects.get(handle="carol"),
            Player.objects.get(handle="alice"),
        )
    assert handles(listed(api(None))[0]) == {"alice", "bob"}
    games_after = {r["handle"]: r["games"] for r in listed(api(None), standings_url)[0]["results"]}
    assert games_after == {"alice": 2, "bob": 2}
    with django_capture_on_commit_callbacks(execute=True):
        game_services.void_match(people["organiser"], first, "wrong table")
    games_voided = {r["handle"]: r["games"] for r in listed(api(None), standings_url)[0]["results"]}
    assert games_voided == {"alice": 1, "bob": 1}


def test_standings_follow_every_rating(api, club, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        store(club, 1)
    ladder = Ladder.objects.get(club=club)
    url = f"/api/ladders/{ladder.pk}/standings/"
    first, first_queries = listed(api(None), url)
    again, again_queries = listed(api(None), url)
    assert again == first and again_queries < first_queries
    for seed in (2, 3):
        with django_capture_on_commit_callbacks(execute=True):
            store(club, seed)
        body, _ = listed(api(None), url)
        assert (
            sum(r["games"] for r in body["results"])
            == 2 * Ladder.objects.get(pk=ladder.pk).rated_matches
        )


def test_a_private_clubs_cached_list_stays_private(
    api, private_club, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        store(private_club, 1)
    url = "/api/clubs/secret/matches/"
    assert len(listed(api("member"), url)[0]["results"]) == 1  # now cached
    assert api("outsider").get(url).status_code == 404
    assert api(None).get(url).status_code == 404


def test_without_a_reachable_cache_every_read_is_computed(
    api, club, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        store(club, 1)
    expected, _ = listed(api(None))
    with (
        mock.patch.object(cache, "get", side_effect=ConnectionError("redis is down")),
        mock.patch.object(cache, "set", side_effect=ConnectionError("redis is down")),
    ):
        body, queries = listed(api(None))
        with django_capture_on_commit_callbacks(execute=True):
            new = store(club, 2)  # the version cannot move: logged, the upload stands
        after, _ = listed(api(None))
    assert body == expected and queries == 3
    assert ids(after)[0] == new.pk


def test_a_match_in_one_ladder_leaves_the_other_ladders_standings_cached(
    api, club, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        store(club, 1)
        mister_x = engine.play("mister-x", 1, ["greedy"] * 2, players=["alice", "bob"])
        ingest_log(club, mister_x, None, source=Upload.Source.SITE)
    cryptid_url, mister_x_url = (
        f"/api/ladders/{Ladder.objects.get(game=game).pk}/standings/"
        for game in ("cryptid-urban-legends", "mister-x")
    )
    cryptid_before, _ = listed(api(None), cryptid_url)
    mister_x_before, _ = listed(api(None), mister_x_url)
    with django_capture_on_commit_callbacks(execute=True):
        store(club, 2)  # a Cryptid match: rated, the club's match list moves on
    mister_x_after, queries = listed(api(None), mister_x_url)
    assert mister_x_after == mister_x_before and queries == 1  # the ladder; then cached
    cryptid_after, _ = listed(api(None), cryptid_url)
    assert (
        sum(r["games"] for r in cryptid_after["results"])
        == 4
        != sum(r["games"] for r in cryptid_before["results"])
    )
