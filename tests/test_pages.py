"""Home page, health check, API root and schema."""

from __future__ import annotations

import pytest
from django.db import connection

from clubs.models import Club, Membership, Player
from games.models import Match, MatchSeat

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


def test_index_lists_recent_matches_with_seats(client, club):
    match = Match.objects.create(
        club=club, game="mister-x", status="valid", winner="mrx", content_hash="1" * 64
    )
    MatchSeat.objects.create(
        match=match,
        seat="mrx",
        player=Player.objects.create(club=club, handle="zed"),
        outcome="win",
    )
    html = client.get("/").content.decode()
    assert "mister-x" in html
    assert "mrx: zed" in html
    assert "mrx won" in html


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
