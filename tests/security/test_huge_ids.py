"""Numbers too large for any id, in a URL path or an id filter, are "not found" or a
clear 400, never a 500 (SQLite: OverflowError; PostgreSQL: bigint out of range).

Every URL pattern with an integer parameter is found by walking the real URLconf
(tests/security/urlwalk.py), so a URL added tomorrow is covered the day it is added.
"""

from __future__ import annotations

import pytest
from django.test import Client

from config.converters import MAX_ID_DIGITS
from tests.security.urlwalk import fill, routes

TOO_LONG = "9" * 30  # past 2**63 on every database
LONGEST = "9" * MAX_ID_DIGITS  # still an id the URL takes; no row has it


def _integer_routes():
    return [route for route in routes() if route.integer_params]


def test_the_walk_finds_the_integer_urls():
    patterns = {route.pattern for route in _integer_routes()}
    # The two schemathesis found, and one of DRF's router: the walk is not empty.
    assert "api/ladders/<id:ladder_id>/players/<id:player_id>/history/" in patterns
    assert "api/pairings/<id:pk>/forfeit/" in patterns
    assert len(patterns) >= 40, patterns


def test_no_url_takes_djangos_unbounded_int():
    unbounded = [
        route.pattern
        for route in _integer_routes()
        if "<int:" in route.pattern and not route.pattern.startswith("admin/")
    ]
    assert not unbounded, f"use <id:...> (config/converters.py), not <int:...>: {unbounded}"


def _admin_client(people) -> Client:
    admin = people["organiser"]
    admin.is_staff = admin.is_superuser = True  # admin's own <int:> URLs are walked too
    admin.save()
    client = Client(raise_request_exception=False)
    client.force_login(admin)
    return client


def test_every_integer_url_answers_404_to_a_number_too_long_for_an_id(public_club, people):
    client = _admin_client(people)
    problems = []
    for route in _integer_routes():
        url = fill(route, public_club, integers=TOO_LONG)
        for method in ("get", "post"):
            status = getattr(client, method)(url).status_code
            if status != 404:
                problems.append(f"{method.upper()} {url} ({route.pattern}): {status}")
    assert not problems, "\n".join(problems)


def test_the_longest_id_a_url_takes_reaches_the_database_safely(public_club, people):
    """18 digits still match (the converter's bound): the views look them up, find
    nothing, and answer as for any missing row (404, or 405 for the wrong method)."""
    client = _admin_client(people)
    problems, not_found = [], 0
    for route in _integer_routes():
        url = fill(route, public_club, integers=LONGEST)
        for method in ("get", "post"):
            status = getattr(client, method)(url).status_code
            not_found += status == 404
            if status >= 500:
                problems.append(f"{method.upper()} {url} ({route.pattern}): {status}")
    assert not problems, "\n".join(problems)
    assert not_found >= len(_integer_routes()) - 2  # all but a redirect or two looked it up


@pytest.mark.parametrize(
    "query",
    [
        f"tournament={TOO_LONG}",
        f"round={TOO_LONG}",
        "tournament=%C2%B2",
        "round=-1",
    ],
)
def test_pairing_filters_refuse_numbers_no_id_can_be(query, public_club, tokens):
    client = Client(HTTP_AUTHORIZATION=f"Token {tokens['organiser']}")
    response = client.get(f"/api/pairings/?{query}")
    assert response.status_code == 400, response.content
    assert set(response.json()) >= {"error", "message"}


def test_upload_filter_refuses_an_import_id_no_row_can_have(public_club, tokens):
    client = Client(HTTP_AUTHORIZATION=f"Token {tokens['organiser']}")
    slug = public_club.club.slug
    response = client.get(f"/api/clubs/{slug}/uploads/?import_run={TOO_LONG}")
    assert response.status_code == 400, response.content
    assert set(response.json()) >= {"error", "message"}
    assert client.get(f"/api/clubs/{slug}/uploads/?import_run={LONGEST}").status_code == 200


@pytest.mark.parametrize(
    "action, body",
    [
        ("pairings/{pairing}/forfeit/", {"absent": [int(TOO_LONG)], "reason": "no-show"}),
        ("tournaments/{tournament}/swap/", {"first": int(TOO_LONG), "second": 1, "reason": "x"}),
        ("tournaments/{tournament}/withdraw/", {"entry": int(TOO_LONG)}),
    ],
)
def test_entry_ids_in_a_body_past_64_bits_are_a_400(action, body, public_club, tokens):
    client = Client(HTTP_AUTHORIZATION=f"Token {tokens['organiser']}")
    url = "/api/" + action.format(
        pairing=public_club.pairings[0].pk, tournament=public_club.tournaments[0].pk
    )
    response = client.post(url, body, content_type="application/json")
    assert response.status_code == 400, response.content
    assert response.json()["error"] == "malformed"
