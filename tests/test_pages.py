"""Home page, health check, API root and schema."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.utils.html import escape

import engine
from clubs.models import Club, Membership
from engine.core.game import Table
from engine.core.messages import render
from games.services import ingest_log
from tests.games.logs import bot_log

pytestmark = pytest.mark.django_db


def test_index_lists_public_clubs_and_hides_private_ones(client):
    Club.objects.create(name="Riverside Deduction Society", slug="riverside")
    Club.objects.create(name="Secret Circle", slug="secret", is_public=False)
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Riverside Deduction Society" in html
    assert "Secret Circle" not in html


def test_index_shows_private_clubs_to_their_members(client, user):
    secret = Club.objects.create(name="Secret Circle", slug="secret", is_public=False)
    Club.objects.create(name="Other Private", slug="other", is_public=False)
    Membership.objects.create(user=user, club=secret)
    client.force_login(user)
    html = client.get("/").content.decode()
    assert "Secret Circle" in html
    assert "Other Private" not in html


def test_index_lists_recent_matches_by_name_with_their_result_as_a_sentence(client, club):
    log = bot_log("mister-x", 7, ["zed", "amy", "bo"], played_at="2026-03-01T19:00:00Z")
    match = ingest_log(club, log, None)
    html = client.get("/").content.decode()
    game = engine.get_game("mister-x")
    assert game.name in html
    assert f">{game.id}<" not in html  # the name, never the id
    assert "zed" in html
    table = Table({s["seat"]: s["player"] for s in log["seats"]}, log.get("options") or {})
    sentence = render(game.describe_result(match.result, table))
    assert escape(sentence) in html


def test_matches_are_listed_latest_played_first_and_unknown_dates_last(client, club):
    dates = ["2026-01-05T10:00:00Z", None, "2026-03-05T10:00:00Z", "2025-12-01T10:00:00Z"]
    ids = []
    for seed, played_at in enumerate(dates):
        log = bot_log("cryptid-urban-legends", seed, ["ann", "bob"])
        log["meta"].pop("played_at", None)
        if played_at:
            log["meta"]["played_at"] = played_at
        ids.append(ingest_log(club, log, None).pk)
    expected = [ids[2], ids[0], ids[3], ids[1]]
    for url in ("/", f"/clubs/{club.slug}/", f"/clubs/{club.slug}/matches/"):
        html = client.get(url).content.decode()
        shown = [int(m) for m in re.findall(r'href="/matches/(\d+)/"', html)]
        assert [i for i in shown if i in ids] == expected, url
        assert "date unknown" in html


def test_the_match_page_says_the_result_in_words_not_as_a_dict(client, club):
    match = ingest_log(club, bot_log("cryptid-urban-legends", 3, ["ann", "bob"]), None)
    html = client.get(f"/matches/{match.pk}/").content.decode()
    assert "{&#x27;" not in html and "{'" not in html
    assert "Cryptid: Urban Legends" in html
    assert "Scientist" in html and "Cryptid" in html


def test_healthz_reports_the_database(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["ok"] is True
    assert body["checks"]["database"]["ok"] is True
    assert body["checks"]["database"]["vendor"] == connection.vendor


def test_healthz_is_503_when_redis_is_unreachable(client, settings):
    # Port 1 on loopback: nothing listens there, so the Redis check must fail.
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["ok"] is False
    assert body["checks"]["redis"]["ok"] is False
    assert body["checks"]["database"]["ok"] is True


def test_api_root_is_browsable(client):
    response = client.get("/api/", HTTP_ACCEPT="text/html")
    assert response.status_code == 200
    assert "Api Root" in response.content.decode()
    assert client.get("/api/", HTTP_ACCEPT="application/json").status_code == 200


def test_openapi_schema_and_docs(client):
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    assert schema["info"]["title"] == "Lantern API"
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    assert "swagger-ui" in docs.content.decode()


def test_admin_login_page(client):
    response = client.get("/admin/login/")
    assert response.status_code == 200


def test_the_club_directory_counts_members_players_and_matches(client, club, user):
    Membership.objects.create(user=user, club=club, role="organiser")
    for seed in range(3):
        ingest_log(club, bot_log("cryptid-urban-legends", seed, ["ann", "bob"]), None)
    Club.objects.create(name="Secret Circle", slug="secret", is_public=False)
    client.force_login(user)
    html = client.get("/clubs/").content.decode()
    row = html.split('href="/clubs/riverside/"')[1].split("</tr>")[0]
    assert re.findall(r'data-label="(\w+)">([^<]*)<', row) == [
        ("Members", "1"),
        ("Players", "2"),
        ("Matches", "3"),
        ("You", "Organiser"),
    ]
    assert "Secret Circle" not in html
    assert 'href="/clubs/new/"' in html
