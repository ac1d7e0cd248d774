"""What the site answers when no view does: JSON in the API's error shape under /api/,
pages elsewhere; and URLs carrying a NUL character, which PostgreSQL cannot compare."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

ERROR_KEYS = {"error", "index", "rule", "message"}


def test_an_api_url_that_matches_no_route_is_a_json_404():
    response = Client().get("/api/matches/not-a-number/")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json() == {
        "error": "not_found",
        "index": None,
        "rule": None,
        "message": "not found",
    }
    page = Client().get("/matches/not-a-number/")
    assert page.status_code == 404 and page["Content-Type"].startswith("text/html")


@pytest.mark.parametrize(
    "url",
    [
        "/api/drafts/?club=a%00b",
        "/api/clubs/riverside/matches/?player=a%00b",
        "/api/clubs/riverside/uploads/?status=%00",
        "/clubs/riverside/matches/?player=%00",
        "/clubs/riverside/ladders/cryptid-urban-legends/players/a%00b/",
    ],
)
def test_a_nul_in_the_url_is_a_400_not_a_database_error(url, public_club, people):
    client = Client()
    client.force_login(people["member"])
    response = client.get(url)
    assert response.status_code == 400
    if url.startswith("/api/"):
        assert response.json() == {
            "error": "malformed",
            "index": None,
            "rule": None,
            "message": "the URL holds a NUL character (%00)",
        }
