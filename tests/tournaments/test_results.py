"""Settling pairings with uploaded logs (bot-played Cryptid: Urban Legends games)."""

from __future__ import annotations

import io
import json
import zipfile

import pytest
from rest_framework.test import APIClient

import engine
from games.models import Match, Upload
from tournaments import selectors, services
from tournaments.models import Pairing

pytestmark = pytest.mark.django_db

GAME = "cryptid-urban-legends"


def log_for(pairing: Pairing, seed: int = 1, **kwargs) -> dict:
    seats = list(pairing.seats.select_related("entry__player"))
    return engine.play(
        GAME,
        seed,
        ["greedy"] * len(seats),
        players=[s.entry.player.handle for s in seats],
        **kwargs,
    )


@pytest.fixture
def api(organiser) -> APIClient:
    client = APIClient()
    client.force_authenticate(organiser)
    return client


def test_an_uploaded_log_settles_its_pairing_with_the_winner_scoring(api, make_event):
    tournament = services.start_tournament(make_event(2, rounds=1))
    (pairing,) = selectors.pairings(tournament, 1)
    log = log_for(pairing)
    r = api.post(f"/api/pairings/{pairing.id}/result/", {"log": log}, format="json")
    assert r.status_code == 201, r.content
    body = r.json()
    assert body["status"] == "played" and body["match"] is not None
    winner_seat = log["result"]["winner"]
    expected = {s["player"]: 1.0 if s["seat"] == winner_seat else 0.0 for s in log["seats"]}
    assert {s["player"]: s["points"] for s in body["seats"]} == expected
    match = Match.objects.get(pk=body["match"])
    assert match.status == "valid" and match.club_id == tournament.club_id
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    # The event download holds exactly that log.
    archive = zipfile.ZipFile(
        io.BytesIO(api.get(f"/tournaments/{tournament.id}/games.zip").content)
    )
    (name,) = archive.namelist()
    assert name == "round01-board01-p01-p02.json"
    assert json.loads(archive.read(name)) == match.log.document


def test_a_log_with_the_players_in_the_wrong_seats_stores_nothing(api, make_event):
    tournament = services.start_tournament(make_event(2, rounds=1))
    (pairing,) = selectors.pairings(tournament, 1)
    log = engine.play(GAME, 1, ["greedy", "greedy"], players=["p02", "p01"])
    r = api.post(f"/api/pairings/{pairing.id}/result/", {"log": log}, format="json")
    assert r.status_code == 422
    assert r.json()["error"] == "seats_mismatch"
    assert r.json()["message"] == (
        "the log seats p02 as Cryptid and p01 as Scientist, but round 1, "
        "board 1 seats p01 as Cryptid and p02 as Scientist"
    )
    assert Match.objects.count() == 0
    pairing.refresh_from_db()
    assert pairing.status == "pending"


@pytest.mark.parametrize(
    ("language", "roles"),
    [
        ("ja", ("p02（クリプティッド）", "p01（科学者）")),
        ("ru", ("p02 — Криптид", "p01 — Учёный")),
    ],
)
def test_players_in_the_wrong_seats_are_named_by_their_roles_in_the_readers_words(
    api, make_event, language, roles
):
    tournament = services.start_tournament(make_event(2, rounds=1))
    (pairing,) = selectors.pairings(tournament, 1)
    log = engine.play(GAME, 1, ["greedy", "greedy"], players=["p02", "p01"])
    r = api.post(
        f"/api/pairings/{pairing.id}/result/",
        {"log": log},
        format="json",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    message = r.json()["message"]
    assert all(role in message for role in roles), message
    assert "cryptid" not in message and "scientist" not in message


def test_an_illegal_log_is_refused_as_any_upload_and_the_attempt_is_kept(api, make_event):
    tournament = services.start_tournament(make_event(2, rounds=1))
    (pairing,) = selectors.pairings(tournament, 1)
    log = log_for(pairing)
    log["actions"][0] = {"seat": "scientist", "type": "draw", "cards": ["split", "align"]}
    r = api.post(f"/api/pairings/{pairing.id}/result/", {"log": log}, format="json")
    assert r.status_code == 422, r.content
    assert r.json()["error"] == "illegal" and r.json()["index"] == 0
    assert r.json()["rule"].startswith("CUL-")
    assert Upload.objects.filter(status="rejected").count() == 1
    pairing.refresh_from_db()
    assert pairing.status == "pending"


def test_an_unfinished_log_is_kept_as_a_match_but_settles_nothing(api, make_event):
    tournament = services.start_tournament(make_event(2, rounds=1))
    (pairing,) = selectors.pairings(tournament, 1)
    log = log_for(pairing, max_actions=2)
    assert log["result"] is None
    r = api.post(f"/api/pairings/{pairing.id}/result/", {"log": log}, format="json")
    assert r.status_code == 422 and r.json()["error"] == "unfinished"
    assert Match.objects.get().status == "unfinished"
    pairing.refresh_from_db()
    assert pairing.status == "pending"


def test_one_log_cannot_settle_two_pairings(make_event, organiser):
    tournament = services.start_tournament(make_event(2, rounds=1, double=True))
    first, second = selectors.pairings(tournament, 1)
    log = log_for(first)
    services.record_result(first, log, organiser)
    # Leg 2 seats the players the other way round: the same log does not fit it.
    with pytest.raises(services.TournamentError, match="seats"):
        services.record_result(second, log, organiser)
    services.record_result(second, log_for(second, seed=2), organiser)
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    rows = selectors.standings(tournament)
    assert sum(r.points for r in rows) == 2 and all(r.played == 2 for r in rows)


def test_a_log_already_settling_a_pairing_is_refused_for_another_event(make_event, organiser):
    one = services.start_tournament(make_event(2, rounds=1))
    (pairing,) = selectors.pairings(one, 1)
    log = log_for(pairing)
    services.record_result(pairing, log, organiser)
    two = services.start_tournament(make_event(2, rounds=1))
    (other,) = selectors.pairings(two, 1)
    with pytest.raises(services.TournamentError, match="already settles round 1, board 1"):
        services.record_result(other, log, organiser)


def test_a_multipart_file_upload_works_too(api, make_event):
    tournament = services.start_tournament(make_event(2, rounds=1))
    (pairing,) = selectors.pairings(tournament, 1)
    data = json.dumps(log_for(pairing)).encode()
    r = api.post(
        f"/api/pairings/{pairing.id}/result/", {"file": io.BytesIO(data)}, format="multipart"
    )
    assert r.status_code == 201, r.content


def test_the_round_page_form_uploads_a_log(client, organiser, make_event):
    tournament = services.start_tournament(make_event(2, rounds=1))
    (pairing,) = selectors.pairings(tournament, 1)
    client.force_login(organiser)
    upload = io.BytesIO(json.dumps(log_for(pairing)).encode())
    upload.name = "game.json"
    response = client.post(
        f"/tournaments/{tournament.id}/pairings/{pairing.id}/result", {"log": upload}, follow=True
    )
    assert "Result of board 1 recorded." in response.content.decode()
    pairing.refresh_from_db()
    assert pairing.status == "played"
    assert f'href="/matches/{pairing.match_id}/replay"' in response.content.decode()


def test_the_round_page_form_shows_why_a_log_was_refused(client, organiser, make_event):
    tournament = services.start_tournament(make_event(2, rounds=1))
    (pairing,) = selectors.pairings(tournament, 1)
    client.force_login(organiser)
    upload = io.BytesIO(b"{not json")
    upload.name = "game.json"
    response = client.post(
        f"/tournaments/{tournament.id}/pairings/{pairing.id}/result", {"log": upload}, follow=True
    )
    text = response.content.decode()
    assert "The log was refused:" in text
    # the rule it cites is a link to the rule's text
    assert (
        '(<a class="rule-link" href="/rules/log-format/#LOG-JSON" title="LOG-JSON The document is '
        "not JSON" in text
    )
    pairing.refresh_from_db()
    assert pairing.status == "pending"


def test_tournament_games_are_rated_on_the_club_ladder(
    make_event, organiser, django_capture_on_commit_callbacks
):
    from ladder.models import Ladder, RatingChange

    tournament = services.start_tournament(make_event(2, rounds=1))
    (pairing,) = selectors.pairings(tournament, 1)
    with django_capture_on_commit_callbacks(execute=True):
        match = services.record_result(pairing, log_for(pairing), organiser)
    ladder = Ladder.objects.get(club=tournament.club, game=GAME)
    changes = RatingChange.objects.filter(ladder=ladder, match=match)
    assert changes.count() == 2
    # EL-4.1: a two-seat game's changes are equal and opposite with equal K.
    assert sum(c.after - c.before for c in changes) == pytest.approx(0)
    # The next event seeds from those ratings.
    nxt = make_event(0)
    p01 = pairing.seats.get(entry__player__handle="p01").entry.player
    entry = services.add_entry(nxt, p01)
    assert entry.seed_rating == changes.get(player=p01).after


def test_mister_x_tables_score_the_winning_side(make_event, organiser):
    tournament = services.start_tournament(make_event(6, game="mister-x", table_size=3, rounds=1))
    tables = list(selectors.pairings(tournament, 1))
    assert [[s.seat for s in t.seats.all()] for t in tables] == [["mrx", "det1", "det2"]] * 2
    for seed, pairing in enumerate(tables, start=1):
        handles = [s.entry.player.handle for s in pairing.seats.all()]
        log = engine.play("mister-x", seed, ["greedy"] * 3, players=handles)
        services.record_result(pairing, log, organiser)
        winners = {"mrx"} if log["result"]["winner"] == "mrx" else {"det1", "det2"}
        settled = Pairing.objects.get(pk=pairing.pk).seats.all()
        assert {s.seat: s.points for s in settled} == {
            seat: float(seat in winners) for seat in ("mrx", "det1", "det2")
        }
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    rows = selectors.standings(tournament)
    assert all(r.played == 1 for r in rows)
    assert "head_to_head" not in rows[0].tiebreaks


def log_won_by(pairing: Pairing, seat: str) -> dict:
    """A bot-played log of the pairing that ``seat`` wins (the first such seed)."""
    for seed in range(1, 200):
        log = log_for(pairing, seed)
        if log["result"]["winner"] == seat:
            return log
    raise AssertionError(f"no seed below 200 lets {seat} win")


@pytest.mark.parametrize(
    ("strict", "round_two"),
    [
        # Both leaders won as cryptid and are due scientist: by default they meet (one goes
        # two roles ahead, which chess allows); with strict parity they float down instead.
        (
            False,
            [
                [("cryptid", "p04"), ("scientist", "p01")],
                [("cryptid", "p02"), ("scientist", "p03")],
            ],
        ),
        (
            True,
            [
                [("cryptid", "p02"), ("scientist", "p01")],
                [("cryptid", "p03"), ("scientist", "p04")],
            ],
        ),
    ],
)
def test_the_events_role_parity_option_reaches_the_pairing(
    make_event, organiser, strict, round_two
):
    tournament = services.start_tournament(make_event(4, rounds=2, strict_role_parity=strict))
    for pairing in selectors.pairings(tournament, 1):
        services.record_result(pairing, log_won_by(pairing, "cryptid"), organiser)
    services.pair_round(tournament.id, 2)
    rows = selectors.pairings(tournament, 2)
    assert [[(s.seat, s.entry.player.handle) for s in p.seats.all()] for p in rows] == round_two
    floats = ["floats down" in p.explanation for p in rows]
    assert floats == [strict, strict]
