"""Stored matches for ladder tests, written straight to the tables (the upload path
has its own tests): a Match, its seats and, for Mister X, the pawns in its log."""

from __future__ import annotations

import itertools
import random
from datetime import UTC, datetime, timedelta
from typing import Any

from clubs.models import Club, Player
from games.models import Match, MatchLog, MatchSeat

_hashes = itertools.count(1)
BASE = datetime(2026, 9, 1, 19, 0, tzinfo=UTC)


def player(club: Club, handle: str) -> Player:
    return Player.objects.get_or_create(club=club, handle=handle)[0]


def make_match(
    club: Club,
    game: str,
    seats: list[tuple[str, str]],
    winner: str,
    *,
    played_at: datetime | None = None,
    pawns: dict[str, list[str]] | None = None,
    status: str = Match.Status.VALID,
    content_hash: str | None = None,
) -> Match:
    """``seats`` are (seat, handle) in seat order; ``winner`` a seat or "detectives"."""
    match = Match.objects.create(
        club=club,
        game=game,
        played_at=played_at,
        status=status,
        winner=winner if status == Match.Status.VALID else "",
        result={"winner": winner} if status == Match.Status.VALID else None,
        content_hash=content_hash or f"{next(_hashes):064x}",
    )
    for seat, handle in seats:
        MatchSeat.objects.create(match=match, seat=seat, player=player(club, handle))
    document: dict[str, Any] = {
        "format": "lantern-log/1",
        "game": game,
        "options": {"pawns": pawns} if pawns else {},
        "seats": [{"seat": s, "player": h} for s, h in seats],
    }
    MatchLog.objects.create(match=match, document=document)
    return match


def random_matches(seed: int, count: int) -> list[dict[str, Any]]:
    """Specs of ``count`` matches of all three games between 8 players, each with a
    distinct played_at (ties would be ordered by match id, i.e. by storage order)."""
    rng = random.Random(seed)
    hours = rng.sample(range(count * 3), count)
    handles = [f"player{i}" for i in range(8)]
    specs = []
    for n in range(count):
        game = rng.choice(["cryptid-urban-legends", "mister-x", "cloak-and-dagger"])
        at = BASE + timedelta(hours=hours[n])
        if game == "cryptid-urban-legends":
            a, b = rng.sample(handles, 2)
            seats = [("cryptid", a), ("scientist", b)]
            winner = rng.choice(["cryptid", "scientist"])
            pawns = None
        elif game == "mister-x":
            who = rng.sample(handles, 4)
            seats = [("mrx", who[0]), ("det1", who[1]), ("det2", who[2]), ("det3", who[3])]
            winner = rng.choice(["mrx", "detectives"])
            pawns = {"det1": ["red", "blue"], "det2": ["green"], "det3": ["yellow", "black"]}
        else:
            who = rng.sample(handles, rng.randint(2, 6))
            seats = [(f"p{i + 1}", h) for i, h in enumerate(who)]
            winner = rng.choice(seats)[0]
            pawns = None
        specs.append(
            {
                "game": game,
                "seats": seats,
                "winner": winner,
                "played_at": at,
                "pawns": pawns,
                "content_hash": f"{n + 1:064x}",
            }
        )
    return specs
