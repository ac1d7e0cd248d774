"""The must-show: a full 8-round Swiss of 37 players, every game a bot-played Cryptid:
Urban Legends log uploaded through the API, each next round paired by the Celery
task that the last result of a round triggers.

The final standings the API reports are checked against values recomputed here
from the uploaded logs themselves (their ``result.winner``) and the byes, with
plain code that shares nothing with tournaments.standings; the pairings are
checked for repeats, byes and role balance the same way.
"""

from __future__ import annotations

import csv
import io
import zipfile
from collections import Counter, defaultdict

import pytest
from rest_framework.test import APIClient

import engine
from clubs.models import Membership
from games.models import Match
from ladder.models import Ladder, Rating

GAME = "cryptid-urban-legends"
PLAYERS = 37
ROUNDS = 8


@pytest.mark.django_db(transaction=True)  # real commits: on_commit triggers the pairing task
def test_simulated_37_player_8_round_swiss_through_the_api(club, django_user_model):
    organiser = django_user_model.objects.create_user(username="td", password="pw-tests-only")
    Membership.objects.create(user=organiser, club=club, role=Membership.Role.ORGANISER)
    api = APIClient()
    api.force_authenticate(organiser)

    event = api.post(
        "/api/tournaments/",
        {
            "club": club.slug,
            "name": "Cryptid Swiss",
            "game": GAME,
            "format": "swiss",
            "rounds": ROUNDS,
        },
        format="json",
    ).json()
    eid = event["id"]
    # Stronger seeds play the greedy bot, the rest the random one, so results follow
    # the seeding loosely and the standings have something to sort.
    bot_of: dict[str, str] = {}
    for i in range(PLAYERS):
        handle = f"player{i + 1:02d}"
        bot_of[handle] = "greedy" if i % 3 != 2 else "random"
        r = api.post(
            f"/api/tournaments/{eid}/entries/",
            {"player": handle, "seed_rating": 2200 - 10 * i},
            format="json",
        )
        assert r.status_code == 201
    assert api.post(f"/api/tournaments/{eid}/start/").status_code == 200

    logs: list[dict] = []
    byes: Counter = Counter()
    seed = 0
    for round_no in range(1, ROUNDS + 1):
        rows = api.get(f"/api/pairings/?tournament={eid}&round={round_no}&page_size=100")
        pairings = rows.json()["results"]
        assert len(pairings) == 19  # 18 boards and a bye
        for pairing in pairings:
            if pairing["status"] == "bye":
                byes[pairing["seats"][0]["player"]] += 1
                continue
            handles = [s["player"] for s in pairing["seats"]]
            seed += 1
            log = engine.play(GAME, seed, [bot_of[h] for h in handles], players=handles)
            assert log["result"] is not None
            r = api.post(f"/api/pairings/{pairing['id']}/result/", {"log": log}, format="json")
            assert r.status_code == 201, r.content
            logs.append(log)
        # The last result of the round paired the next round by itself (Celery task).
        current = api.get(f"/api/tournaments/{eid}/").json()
        assert current["current_round"] == min(round_no + 1, ROUNDS)
    assert api.get(f"/api/tournaments/{eid}/").json()["status"] == "finished"
    assert len(logs) == 18 * ROUNDS == Match.objects.filter(club=club, game=GAME).count()

    # --- independent recomputation from the uploaded logs ------------------------------
    points: Counter = Counter(byes)  # a bye is worth 1
    opponents: dict[str, list[str]] = defaultdict(list)
    beaten: dict[str, list[str]] = defaultdict(list)
    roles: dict[str, Counter] = defaultdict(Counter)
    sequence: dict[str, list[str]] = defaultdict(list)  # logs are in round order
    pairs: Counter = Counter()
    for log in logs:
        seat = {s["seat"]: s["player"] for s in log["seats"]}
        cryptid, scientist = seat["cryptid"], seat["scientist"]
        winner = seat[log["result"]["winner"]]
        loser = scientist if winner == cryptid else cryptid
        points[winner] += 1
        beaten[winner].append(loser)
        opponents[cryptid].append(scientist)
        opponents[scientist].append(cryptid)
        roles[cryptid]["cryptid"] += 1
        sequence[cryptid].append("cryptid")
        sequence[scientist].append("scientist")
        roles[scientist]["scientist"] += 1
        pairs[frozenset((cryptid, scientist))] += 1
    buchholz = {p: sum(points[o] for o in opponents[p]) for p in bot_of}
    sonneborn = {p: sum(points[o] for o in beaten[p]) for p in bot_of}

    # Pairing rules held over all 8 rounds: no repeat, one bye each, roles within two
    # and never three in a row (the absolute criteria of tournaments.pairing).
    assert max(pairs.values()) == 1, "no pair met twice"
    assert len(byes) == ROUNDS and set(byes.values()) == {1}, "8 different players had a bye"
    assert all(abs(c["cryptid"] - c["scientist"]) <= 2 for c in roles.values())
    assert not [
        p
        for p, seq in sequence.items()
        if any(seq[i] == seq[i + 1] == seq[i + 2] for i in range(len(seq) - 2))
    ], "a role three in a row"
    assert sum(points.values()) == 18 * ROUNDS + ROUNDS

    standings = api.get(f"/api/tournaments/{eid}/standings/").json()
    assert len(standings) == PLAYERS
    for row in standings:
        p = row["player"]
        assert row["points"] == points[p]
        assert row["tiebreaks"]["buchholz"] == buchholz[p]
        assert row["tiebreaks"]["sonneborn_berger"] == sonneborn[p]
        assert row["played"] == len(opponents[p]) and row["byes"] == byes[p]
    # The order: points, then Buchholz, then Sonneborn–Berger, never increasing...
    keys = [(points[r["player"]], buchholz[r["player"]], sonneborn[r["player"]]) for r in standings]
    assert keys == sorted(keys, reverse=True)
    # ...and where all three tie, head-to-head (the games between the tied players).
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for row, key in zip(standings, keys, strict=True):
        groups[key].append(row)
    for members in groups.values():
        names = {r["player"] for r in members}
        h2h = [sum(1 for o in beaten[r["player"]] if o in names) for r in members]
        assert h2h == sorted(h2h, reverse=True)
        for row, score in zip(members, h2h, strict=True):
            if len(members) > 1:
                assert row["tiebreaks"]["head_to_head"] == score
    ranks = [r["rank"] for r in standings]
    assert ranks[0] == 1 and ranks == sorted(ranks)

    # The CSV says the same, and the zip holds every game.
    csv_rows = list(
        csv.reader(io.StringIO(api.get(f"/tournaments/{eid}/standings.csv").content.decode()))
    )
    assert [r[1] for r in csv_rows[1:]] == [r["player"] for r in standings]
    archive = zipfile.ZipFile(io.BytesIO(api.get(f"/tournaments/{eid}/games.zip").content))
    assert len(archive.namelist()) == 18 * ROUNDS

    # Every game was rated on the club's ladder like any other match.
    ladder = Ladder.objects.get(club=club, game=GAME)
    assert ladder.rated_matches == 18 * ROUNDS
    assert Rating.objects.filter(ladder=ladder).count() == PLAYERS
