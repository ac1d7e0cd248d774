"""Fixtures of the live tables: a club with three members and an outsider, and helpers
that play a table through its services as each seat would (its own eyes' legal
actions)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from clubs.models import Club, Membership
from live import services
from live.models import Table

CRYPTID = "cryptid-urban-legends"
MX = "mister-x"
CLOAK = "cloak-and-dagger"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test of this folder is a live test (``pytest -m live``: .ci/run runs them on
    the Redis channel layer)."""
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.live)


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


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    """Each test its own channel layer: the in-process server of the browser tests keeps
    its event loop (and its sockets' receives on the layer it made) for the whole session,
    and a Redis layer refuses to receive on two loops at once."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture(scope="session")
def asgi_server():
    """The site's ASGI application (pages, API and the tables' websockets) served by Daphne
    on a free port of 127.0.0.1, in a thread of the test process for the whole session
    (Twisted's reactor runs once per process), with the static files. Its channel layer
    is the in-memory one: one process serves every socket."""
    import threading

    from daphne.server import Server  # installs Twisted's asyncio reactor first
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
    from twisted.internet import reactor

    from config.asgi import application

    ready = threading.Event()
    server = Server(
        ASGIStaticFilesHandler(application),
        endpoints=["tcp:port=0:interface=127.0.0.1"],
        signal_handlers=False,
        ready_callable=ready.set,
    )
    threading.Thread(target=server.run, daemon=True, name="daphne").start()
    assert ready.wait(20)
    for _ in range(200):
        if server.listening_addresses:
            break
        ready.wait(0.05)
    host, port = server.listening_addresses[0]
    yield f"http://{host}:{port}"
    reactor.callFromThread(reactor.stop)
