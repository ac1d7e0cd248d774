"""The events API, its permissions, and the pages (without game logs)."""

from __future__ import annotations

import csv
import io

import pytest
from rest_framework.test import APIClient

from clubs.models import Club, Membership, Player
from tournaments import selectors, services
from tournaments.models import Pairing, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(organiser) -> APIClient:
    client = APIClient()
    client.force_authenticate(organiser)
    return client


def test_organiser_creates_enters_and_starts_through_the_api(api, club):
    response = api.post(
        "/api/tournaments/",
        {
            "club": club.slug,
            "name": "Spring Swiss",
            "game": "cryptid-urban-legends",
            "format": "swiss",
            "rounds": 4,
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    event = response.json()
    assert event["tiebreaks"] == ["buchholz", "sonneborn_berger", "head_to_head"]
    assert event["status"] == "registration" and event["table_size"] == 2
    assert event["strict_role_parity"] is False
    for i, handle in enumerate(["ann", "bob", "cat"]):
        r = api.post(
            f"/api/tournaments/{event['id']}/entries/",
            {"player": handle, "seed_rating": 1600 - i},
            format="json",
        )
        assert r.status_code == 201, r.content
    r = api.post(f"/api/tournaments/{event['id']}/start/")
    assert r.status_code == 200 and r.json()["current_round"] == 1
    r = api.get(f"/api/pairings/?tournament={event['id']}&round=1")
    rows = r.json()["results"]
    assert [[s["player"] for s in p["seats"]] for p in rows] == [["ann", "bob"], ["cat"]]
    assert rows[1]["status"] == "bye"
    assert rows[0]["explanation"].startswith("ann (#1, 0 pts) v bob (#2, 0 pts)")
    standings = api.get(f"/api/tournaments/{event['id']}/standings/").json()
    assert standings[0]["player"] == "cat" and standings[0]["points"] == 1.0


@pytest.mark.parametrize("form", [False, True])
def test_a_club_slug_holding_a_nul_is_an_unknown_club(api, club, form):
    """Found by the schema fuzz on PostgreSQL, which cannot compare a NUL: a 404 naming the
    field, as for any club that does not exist, in JSON and in a multipart form."""
    event = {
        "club": club.slug + "\x00",
        "name": "Spring Swiss",
        "game": "cryptid-urban-legends",
        "format": "swiss",
        "rounds": 4,
    }
    response = api.post("/api/tournaments/", event, **({} if form else {"format": "json"}))
    assert response.status_code == 404, response.content
    assert "club" in response.content.decode()


def test_strict_role_parity_through_the_api(api, club):
    event = {
        "club": club.slug,
        "name": "Parity Swiss",
        "game": "cryptid-urban-legends",
        "format": "swiss",
        "rounds": 4,
        "strict_role_parity": True,
    }
    response = api.post("/api/tournaments/", event, format="json")
    assert response.status_code == 201 and response.json()["strict_role_parity"] is True
    response = api.post("/api/tournaments/", {**event, "double": True}, format="json")
    assert response.status_code == 422
    assert response.json()["message"] == (
        "strict role parity is an option of two-player Swiss events with one game per pairing"
    )


def test_refusals_come_back_as_422_with_the_sentence(api, make_event):
    tournament = services.start_tournament(make_event(4))
    r = api.post(f"/api/tournaments/{tournament.id}/next-round/")
    assert r.status_code == 422
    assert r.json() == {
        "error": "refused",
        "index": None,
        "rule": None,
        "message": "round 1 still has results to come",
    }
    pairing = selectors.pairings(tournament, 1)[0]
    r = api.post(
        f"/api/pairings/{pairing.id}/result/",
        {
            "log": {
                "format": "lantern-log/1",
                "game": "cryptid-urban-legends",
                "seats": [
                    {"seat": "cryptid", "player": "p04"},
                    {"seat": "scientist", "player": "p01"},
                ],
            }
        },
        format="json",
    )
    assert r.status_code == 422
    assert r.json()["error"] == "seats_mismatch"
    assert r.json()["message"] == (
        "the log seats p04 as Cryptid and p01 as Scientist, but round 1, "
        "board 1 seats p01 as Cryptid and p03 as Scientist"
    )
    pairing.refresh_from_db()
    assert pairing.status == "pending"


def test_members_cannot_run_events_and_strangers_cannot_upload(club, make_event, django_user_model):
    tournament = services.start_tournament(make_event(4))
    member = django_user_model.objects.create_user(username="mia", password="pw-tests-only")
    Membership.objects.create(user=member, club=club)
    client = APIClient()
    client.force_authenticate(member)
    assert client.post(f"/api/tournaments/{tournament.id}/next-round/").status_code == 403
    assert (
        client.post(
            "/api/tournaments/",
            {"club": club.slug, "name": "x", "game": "mister-x", "format": "swiss", "rounds": 2},
            format="json",
        ).status_code
        == 403
    )
    pairing = selectors.pairings(tournament, 1)[0]
    assert (
        client.post(f"/api/pairings/{pairing.id}/result/", {"log": {}}, format="json").status_code
        == 403
    )
    assert (
        client.post(
            f"/api/pairings/{pairing.id}/forfeit/", {"absent": [], "reason": "x"}, format="json"
        ).status_code
        == 403
    )
    # A player of the pairing (the account linked to the handle) may upload: the request
    # gets past the policy to the log check.
    seat = pairing.seats.first()
    seat.entry.player.user = member
    seat.entry.player.save()
    r = client.post(
        f"/api/pairings/{pairing.id}/result/", {"log": {"game": "mister-x"}}, format="json"
    )
    assert r.status_code == 422 and "this event plays" in r.json()["message"]


def test_private_club_events_are_hidden(make_event, club):
    Club.objects.filter(pk=club.pk).update(is_public=False)
    tournament = make_event(2)
    assert APIClient().get(f"/api/tournaments/{tournament.id}/").status_code == 404
    assert APIClient().get(f"/tournaments/{tournament.id}/").status_code == 404


def test_forfeit_swap_and_forbid_through_the_api(api, make_event):
    tournament = make_event(4)
    entries = {e.player.handle: e.id for e in tournament.entries.select_related("player")}
    r = api.post(
        f"/api/tournaments/{tournament.id}/forbid/",
        {"first": entries["p01"], "second": entries["p03"], "reason": "twins"},
        format="json",
    )
    assert r.status_code == 201
    api.post(f"/api/tournaments/{tournament.id}/start/")
    first = selectors.pairings(tournament, 1)[0]
    first_pair = [s.entry.player.handle for s in first.seats.all()]
    assert first_pair[0] == "p01" and first_pair[1] != "p03"
    opponent = first_pair[1]
    r = api.post(
        f"/api/tournaments/{tournament.id}/swap/",
        {"first": entries["p01"], "second": entries[opponent], "reason": "asked"},
        format="json",
    )
    assert r.status_code == 200 and r.json()[0]["overridden"] is True
    assert [s["player"] for s in r.json()[0]["seats"]] == [opponent, "p01"]
    r = api.post(
        f"/api/pairings/{first.id}/forfeit/",
        {"absent": [entries[opponent]], "reason": "no show"},
        format="json",
    )
    assert r.status_code == 200
    assert {s["player"]: s["points"] for s in r.json()["seats"]} == {opponent: 0.0, "p01": 1.0}
    # Again: the pairing has its result, a 409 its schema documents (as for a result and
    # a recording), and the result stands.
    again = api.post(
        f"/api/pairings/{first.id}/forfeit/",
        {"absent": [entries["p01"]], "reason": "changed mind"},
        format="json",
    )
    assert again.status_code == 409 and again.json()["error"] == "settled"
    paths = api.get("/api/schema/", {"format": "json"}).json()["paths"]
    for action in ("forfeit", "result", "record"):
        assert "409" in paths[f"/api/pairings/{{id}}/{action}/"]["post"]["responses"], action
    first.refresh_from_db()
    assert {s.entry.player.handle: s.points for s in first.seats.all()}["p01"] == 1.0


def test_schema_documents_the_event_endpoints(api):
    r = api.get("/api/schema/", {"format": "json"})
    paths = r.json()["paths"]
    for path in (
        "/api/tournaments/",
        "/api/tournaments/{id}/standings/",
        "/api/tournaments/{id}/next-round/",
        "/api/pairings/{id}/result/",
        "/api/pairings/{id}/forfeit/",
        "/api/tournaments/{id}/swap/",
    ):
        assert path in paths


def test_pages_show_pairings_explanations_and_standings(client, make_event):
    tournament = services.start_tournament(make_event(3))
    page = client.get(f"/tournaments/{tournament.id}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Winter Open" in html and "How the tie-breaks were computed" in html
    assert "Sonneborn–Berger" in html
    round_page = client.get(f"/tournaments/{tournament.id}/rounds/1/").content.decode()
    assert "p01 (#1, 0 pts) v p02 (#2, 0 pts)" in round_page
    assert "bye: odd number of players; p03" in round_page
    # How pairings are made: the rules in order, this event's role parity.
    assert "How pairings are made" in html and "as colours in chess" in html
    # The roles as the game names them at the table, not the log's ids.
    assert (
        "No player&#x27;s roles differ by more than two (Cryptid games minus Scientist "
        "games)" in html
    )
    assert "Strict role parity (this event" not in html
    japanese = client.get(f"/tournaments/{tournament.id}/?lang=ja").content.decode()
    assert "クリプティッドの試合数−科学者の試合数" in japanese


def test_event_page_and_api_show_strict_role_parity(client, make_event):
    tournament = make_event(4, strict_role_parity=True)
    html = client.get(f"/tournaments/{tournament.id}/").content.decode()
    assert ", strict role parity" in html
    assert "Strict role parity (this event&#x27;s option)" in html
    assert client.get(f"/api/tournaments/{tournament.id}/").json()["strict_role_parity"] is True
    assert client.get(f"/tournaments/{tournament.id}/rounds/9/").status_code == 404
    assert "Winter Open" in client.get("/tournaments/").content.decode()


def test_standings_csv_and_empty_games_zip(client, make_event):
    tournament = services.start_tournament(make_event(3))
    (game,) = [p for p in selectors.pairings(tournament, 1) if p.status == "pending"]
    services.record_forfeit(game, [game.seats.get(seat="scientist").entry], "absent")
    body = client.get(f"/tournaments/{tournament.id}/standings.csv").content.decode()
    rows = list(csv.reader(io.StringIO(body)))
    assert rows[0] == [
        "rank",
        "player",
        "points",
        "played",
        "wins",
        "byes",
        "Buchholz",
        "Sonneborn–Berger",
        "Head-to-head",
    ]
    # p01 won by forfeit (1), p03 had the bye (1): equal on everything -> shared first.
    assert rows[1:] == [
        ["1=", "p01", "1", "0", "0", "0", "0", "0", "0"],
        ["1=", "p03", "1", "0", "0", "1", "0", "0", "0"],
        ["3", "p02", "0", "0", "0", "0", "0", "0", ""],
    ]
    response = client.get(f"/tournaments/{tournament.id}/games.zip")
    assert response["Content-Type"] == "application/zip"


def test_organiser_page_button_starts_the_event(client, organiser, make_event):
    tournament = make_event(2, rounds=1)
    client.force_login(organiser)
    html = client.get(f"/tournaments/{tournament.id}/").content.decode()
    assert "Start and pair round 1" in html
    asked = client.post(f"/tournaments/{tournament.id}/next-round")  # entries close: asked first
    assert asked.status_code == 200 and "Entries close" in asked.content.decode()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.REGISTRATION
    client.post(f"/tournaments/{tournament.id}/next-round", {"confirmed": "yes"})
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    assert Pairing.objects.filter(tournament=tournament).count() == 1


def test_withdraw_through_the_api(api, make_event):
    tournament = services.start_tournament(make_event(3))
    entry = tournament.entries.get(player__handle="p02")
    r = api.post(f"/api/tournaments/{tournament.id}/withdraw/", {"entry": entry.id}, format="json")
    assert r.status_code == 200 and r.json()["withdrawn"] is True
    r = api.post(f"/api/tournaments/{tournament.id}/withdraw/", {"entry": "x"}, format="json")
    assert r.status_code == 400 and r.json()["error"] == "malformed"


def test_organiser_forms_record_a_forfeit_and_swap_players(client, organiser, make_event):
    tournament = services.start_tournament(make_event(4, rounds=2))
    first, second = selectors.pairings(tournament, 1)
    page = f"/tournaments/{tournament.id}/rounds/1/"
    assert "Record forfeit" not in client.get(page).content.decode()  # not signed in
    assert client.post(f"/tournaments/{tournament.id}/swap", {}).status_code == 403
    client.force_login(organiser)
    assert "Record forfeit" in client.get(page).content.decode()
    p01, p02 = (tournament.entries.get(player__handle=h) for h in ("p01", "p02"))
    # p01 v p03 and p04 v p02: swap p01 and p02 (boards exchange players).
    response = client.post(
        f"/tournaments/{tournament.id}/swap",
        {"first": p01.pk, "second": p02.pk, "reason": "late train"},
        follow=True,
    )
    html = response.content.decode()
    assert "p01 and p02 swapped." in html and "p01 and p02 swapped: late train" in html
    first = Pairing.objects.get(pk=first.pk)
    assert [s.entry.player.handle for s in first.seats.all()] == ["p02", "p03"]
    response = client.post(
        f"/tournaments/{tournament.id}/pairings/{first.pk}/forfeit",
        {"absent": [p02.pk], "reason": ""},
        follow=True,
    )
    assert "say why the game was forfeited" in response.content.decode()
    client.post(
        f"/tournaments/{tournament.id}/pairings/{first.pk}/forfeit",
        {"absent": [p02.pk], "reason": "ill"},
    )
    first.refresh_from_db()
    assert first.status == "forfeit" and first.forfeit_reason == "ill"


def test_a_body_of_an_unread_content_type_is_a_documented_415(api, club):
    response = api.post("/api/tournaments/", "club=x", content_type="text/plain")
    assert response.status_code == 415
    assert response.json() == {
        "error": "unsupported_media_type",
        "index": None,
        "rule": None,
        "message": 'Unsupported media type "text/plain" in request.',
    }
    schema = api.get("/api/schema/", {"format": "json"}).json()["paths"]
    documented = schema["/api/tournaments/"]["post"]["responses"]["415"]
    assert documented["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/Error"
    }
    # an operation without a body has no 415 to document
    assert "415" not in schema["/api/tournaments/"]["get"]["responses"]


FORMULAS = ["=1+2*3", "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A9)", "\t=1+1", "\r=1+1"]


def test_standings_csv_never_hands_a_spreadsheet_a_formula(client, club, make_event):
    """OWASP CSV injection: a handle that a spreadsheet would run is written as text
    (a leading ``'``), whatever character starts the formula; other handles as they are."""
    tournament = make_event(0)
    for handle in [*FORMULAS, "p-01"]:
        services.add_entry(tournament, Player.objects.create(club=club, handle=handle), 1500)
    body = client.get(f"/tournaments/{tournament.id}/standings.csv").content.decode()
    names = {row[1] for row in list(csv.reader(io.StringIO(body)))[1:]}
    assert names == {"'" + handle for handle in FORMULAS} | {"p-01"}
