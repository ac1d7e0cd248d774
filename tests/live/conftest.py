"""Fixtures of the live tables: a club with three members and an outsider, and helpers
that play a table through its services as each seat would (its own eyes' legal
actions)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from clubs.models import Club, Membership
from live import services
from live.models import Table

CRYPTID = "cryptid-urban-legends"
MX = "mister-x"
CLOAK = "cloak-and-dagger"


@pytest.fixture
def people(django_user_model):
    make = django_user_model.objects.create_user
    return {
        "ann": make(username="ann"),
        "ben": make(username="ben"),
        "cat": make(username="cat"),
        "outsider": make(username="otto"),
    }


@pytest.fixture
def club(db, people) -> Club:
    club = Club.objects.create(name="Riverside Deduction Society", slug="riverside")
    for who in ("ann", "ben", "cat"):
        Membership.objects.create(user=people[who], club=club, role="member")
    return club


def seats(game: str, *takes: str, bot: str = "random") -> list[dict[str, Any]]:
    """The seat requests of ``game`` with as many seats as ``takes`` (me, free, bot)."""
    from engine import get_game

    g = get_game(game)
    ids = g.seat_ids(g.normalize_options({}), len(takes))
    return [
        {"seat": s, "take": t, **({"bot": bot} if t == "bot" else {})}
        for s, t in zip(ids, takes, strict=True)
    ]


def play_out(
    table: Table, users_by_seat: dict[str, Any], rng: random.Random, limit: int = 3000
) -> Table:
    """Play ``table`` to its end (or ``limit`` moves): at each turn the first seat to act
    that a person holds plays a random action among its own eyes' legal actions."""
    for _ in range(limit):
        table.refresh_from_db()
        if table.status != Table.Status.PLAYING:
            return table
        position = services.position_of(table)
        seat = next(s for s in position.to_act if s in users_by_seat)
        action = rng.choice(position.session.legal_actions(seat, seat))
        services.play(
            table.pk, services.Move(user=users_by_seat[seat], seen=table.last_event, action=action)
        )
    table.refresh_from_db()
    return table
