"""A fourth game, registered by a test only (tests/toy_game.py), is uploaded, rated,
paired and replayed by the apps as they are: every fact they need is the engine's.

Fox hunt is rated one against a team whose members weigh by six dogs, not five pawns:
the ladder takes the weights from the game (``Game.team_shares``), as it does for
Mister X's board."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

import engine
from clubs.models import Membership, Player
from config.celery import app
from games.models import Match, MatchSeat
from ladder import selectors as ladder_selectors
from ladder.explain import explain
from ladder.models import Ladder, Rating, RatingChange
from tests.toy_game import FoxHunt, hunt_log
from tournaments import selectors as tournament_selectors
from tournaments import services as tournaments

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fox_hunt")]

GAME = FoxHunt.id


@pytest.fixture
def organiser(club, django_user_model):
    user = django_user_model.objects.create_user(username="olga", password="pw-for-tests-only")
    Membership.objects.create(user=user, club=club, role=Membership.Role.ORGANISER)
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture(autouse=True)
def eager_tasks():
    before = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager = app.conf.task_eager_propagates = True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = before


def upload(client, log, capture) -> Match:
    with capture(execute=True):  # the rating task is queued on commit
        response = client.post(
            "/api/clubs/riverside/matches/", data=json.dumps(log), content_type="application/json"
        )
    assert response.status_code == 201, response.content
    return Match.objects.get(pk=response.json()["id"])


def test_a_fourth_game_uploads_with_the_engines_outcomes_and_is_rated_with_its_own_weights(
    organiser, club, django_capture_on_commit_callbacks
):
    # Round 1: the fox hides in den 2, the hounds sniff 1 and 4; round 2: den 3, hound1
    # sniffs 3: the hounds win.
    match = upload(
        organiser,
        hunt_log(["fiona", "hugo", "hana"], [2, 3], [[1, 4], [3]]),
        django_capture_on_commit_callbacks,
    )
    assert (match.status, match.winner) == ("valid", "hounds")
    outcomes = {(s.seat, s.player.handle, s.outcome) for s in MatchSeat.objects.filter(match=match)}
    assert outcomes == {
        ("fox", "fiona", "loss"),
        ("hound1", "hugo", "win"),
        ("hound2", "hana", "win"),
    }

    # EL-5 with the game's shares: 6 dogs over two hound seats, 3 each -> w = 3/6 = 0.5.
    # All new: 1500, K 64, no advantage yet; T = 1500, E_fox = 0.5; the hounds win:
    #   fiona 64 * (0 - 0.5) = -32;  hugo, hana 64 * 0.5 * (1 - 0.5) = +16.
    ladder = Ladder.objects.get(club=club, game=GAME)
    ratings = dict(Rating.objects.filter(ladder=ladder).values_list("player__handle", "rating"))
    assert ratings == {"fiona": 1468.0, "hugo": 1516.0, "hana": 1516.0}
    weights = dict(RatingChange.objects.filter(match=match).values_list("player__handle", "weight"))
    assert weights == {"fiona": 1.0, "hugo": 0.5, "hana": 0.5}
    ladder.refresh_from_db()
    assert ladder.role_tallies == {"fox": [0, 1]}  # EL-3.3: the engine's tallied role

    # The player page's sum names the game's roles and shares.
    (change,) = ladder_selectors.player_history(ladder, Player.objects.get(handle="hugo"))
    lines = explain(change, change.match_changes)
    assert lines[1].startswith("E(the fox) = ")
    assert lines[-1].endswith("(w = your share of the 6 dogs)")

    # One player may hold both hound seats (the game says so): their dogs add up, w = 1.
    second = upload(
        organiser,
        hunt_log(["hugo", "fiona", "fiona"], [1, 4], [[2, 3], [2, 3]]),
        django_capture_on_commit_callbacks,
    )
    assert second.winner == "fox"
    assert RatingChange.objects.get(match=second, player__handle="fiona").weight == 1.0


def test_a_fourth_game_is_paired_with_its_own_seats_and_settled_by_a_log(club, organiser):
    event = tournaments.create_tournament(
        club=club, name="Toy Open", game=GAME, format="swiss", rounds=1, table_size=3
    )
    for i, handle in enumerate(("ann", "ben", "cat")):
        player = Player.objects.create(club=club, handle=handle)
        tournaments.add_entry(event, player, 2000 - 10 * i)
    tournaments.start_tournament(event)
    (pairing,) = tournament_selectors.pairings(event, 1)
    seats = list(pairing.seats.select_related("entry__player"))
    assert [s.seat for s in seats] == FoxHunt().seat_ids({}, 3) == ["fox", "hound1", "hound2"]

    log = engine.play(GAME, 7, ["random"] * 3, players=[s.entry.player.handle for s in seats])
    response = organiser.post(f"/api/pairings/{pairing.id}/result/", {"log": log}, format="json")
    assert response.status_code == 201, response.content
    winner = log["result"]["winner"]
    won = {s.entry.player.handle for s in seats if winner in (s.seat, FoxHunt().side_of(s.seat))}
    points = {s["player"]: s["points"] for s in response.json()["seats"]}
    assert points == {
        s.entry.player.handle: 1.0 if s.entry.player.handle in won else 0.0 for s in seats
    }
    # Standings: the hounds are each other's side, not opponents (Game.side_of).
    rows = {row.entrant.name: row for row in tournament_selectors.standings(event)}
    assert {name: row.points for name, row in rows.items()} == points


def test_a_fourth_game_replays_and_each_seat_sees_only_what_it_may(
    club, organiser, django_capture_on_commit_callbacks
):
    match = upload(
        organiser,
        hunt_log(["fiona", "hugo", "hana"], [2, 3], [[1, 4], [3]]),
        django_capture_on_commit_callbacks,
    )
    frames_url = f"/api/matches/{match.pk}/frames"
    fox = organiser.get(frames_url, {"view": "fox"}).json()
    hound = organiser.get(frames_url, {"view": "hound1"}).json()
    assert fox["renderer"] == hound["renderer"] == "generic"  # no board drawing of its own
    assert [v["id"] for v in hound["viewers"]] == ["all", "fox", "hound1", "hound2"]
    assert [f["view"]["den"] for f in fox["frames"]] == [None, 2, 2, 2, 3, 3]
    # The hound learns the den only when the hunt is over, and never sees a hide's den.
    assert [f["view"]["den"] for f in hound["frames"]] == [None, None, None, None, None, 3]
    assert all(
        "den" not in f["action"] for f in hound["frames"][1:] if f["action"]["type"] == "hide"
    )
    page = organiser.get(f"/matches/{match.pk}/replay")
    assert page.status_code == 200 and FoxHunt.name in page.content.decode()


def test_a_fourth_game_is_offered_for_recording_with_its_own_player_counts(organiser):
    catalogue = {entry["id"]: entry for entry in organiser.get("/api/drafts/games/").json()}
    toy = catalogue[GAME]
    assert toy["player_counts"] == [2, 3, 4]
    assert toy["seats"]["4"] == ["fox", "hound1", "hound2", "hound3"]
    assert (toy["bots"], toy["renderer"]) == (["random"], "generic")
