"""Secrets on every socket (issue #36): everything a socket sends is drawn from the engine's
view for that socket's seat, or the public view for a watcher. Two tables with the same
public history and different hidden facts send each pair of eyes byte-identical streams:
for every game, every seat and a watcher. And when a view is widened on purpose, the
streams differ, so the comparison would catch it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine import PUBLIC, get_game
from live import services
from live.models import Table
from tests.live.conftest import CLOAK, CRYPTID, MX, seats
from tests.live.sockets import connect, run, sync, take
from tests.live.twins import Deal, first_walked, seat_ids, transcript

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]

#: (game, eyes, moves, twin deals): pairs of deals whose scripted games the eyes see
#: alike for that many moves while what is hidden from them differs (found with
#: tests.live.twins.find_twins; checked again by each test before it plays them).
TWINS: list[tuple[str, str, int, Deal, Deal]] = [
    (CRYPTID, "cryptid", 4, (1, {}), (10, {})),
    (CRYPTID, "scientist", 2, (4, {}), (13902, {})),
    (CRYPTID, PUBLIC, 4, (1, {}), (10, {})),
    # Mister X's mission start city is his: the detectives and the public see neither.
    (
        MX,
        "det1",
        8,
        (1, {"mission": "yellow", "start": 6}),
        (1, {"mission": "yellow", "start": 140}),
    ),
    (
        MX,
        PUBLIC,
        8,
        (1, {"mission": "yellow", "start": 6}),
        (1, {"mission": "yellow", "start": 140}),
    ),
    (CLOAK, "p1", 6, (1, {}), (2, {})),
    (CLOAK, "p2", 6, (1, {}), (2, {})),
    (CLOAK, PUBLIC, 6, (1, {}), (2, {})),
]


def deal_as(monkeypatch, deal: Deal) -> None:
    """The next table dealt is dealt as ``deal`` says (its seed, its given setup)."""
    seed, given = deal
    real = services.steps.start_session
    monkeypatch.setattr(services.secrets, "randbelow", lambda limit: seed)
    monkeypatch.setattr(
        services.steps,
        "start_session",
        lambda game, options, ids, setup, dealt_seed: real(game, options, ids, given, dealt_seed),
    )


def socket_stream(
    club, people, monkeypatch, game_id: str, deal: Deal, eyes: str, moves: int
) -> list[str]:
    """Every message the eyes' socket gets while a table dealt as ``deal`` is opened, sat
    at and played (``moves`` scripted moves), then what a second socket opened at the end
    with since=0 catches up with, and a third with the first message's number."""
    first, second = seat_ids(game_id)
    holder = {first: people["ann"], second: people["ben"]}
    watcher = holder.get(eyes, people["cat"])
    with monkeypatch.context() as patched:
        deal_as(patched, deal)

        async def scenario() -> list[str]:
            out: list[str] = []
            table = await sync(services.open_table)(
                club, people["ann"], game_id=game_id, seats=seats(game_id, "me", "free")
            )
            socket = await connect(table.pk, watcher)
            await take(socket, out)
            table = await sync(services.take_seat)(table.pk, people["ben"])
            await take(socket, out)
            for _ in range(moves):
                table = await sync(Table.objects.get)(pk=table.pk)
                if table.status != Table.Status.PLAYING:
                    break
                position = await sync(services.position_of)(table)
                seat = position.to_act[0]
                action = first_walked(position.session.legal_actions(seat, seat))
                await sync(services.play)(
                    table.pk, services.Move(user=holder[seat], seen=table.last_event, action=action)
                )
                await take(socket, out)
            assert await socket.receive_nothing(timeout=0.2)
            await socket.disconnect()
            # A page opened now, and one that reconnects from the first message it had.
            late = await connect(table.pk, watcher)
            await take(late, out)
            await late.disconnect()
            since = json.loads(out[0])["n"]
            back = await connect(table.pk, watcher, since=since)
            await take(back, out)
            await back.disconnect()
            return out

        return run(scenario)


@pytest.mark.parametrize(
    ("game_id", "eyes", "moves", "one", "two"),
    TWINS,
    ids=[f"{game}-{eyes}" for game, eyes, *_ in TWINS],
)
def test_twin_tables_send_the_same_bytes(club, people, monkeypatch, game_id, eyes, moves, one, two):
    seen_one, hidden_one = transcript(game_id, one, eyes, moves)
    seen_two, hidden_two = transcript(game_id, two, eyes, moves)
    assert seen_one == seen_two and hidden_one != hidden_two  # twins indeed
    first = socket_stream(club, people, monkeypatch, game_id, one, eyes, moves)
    second = socket_stream(club, people, monkeypatch, game_id, two, eyes, moves)
    assert first == second
    # The stream is a game's, not a refusal's: it carries the moves, numbered, in order.
    bodies = [json.loads(text) for text in first]
    assert all(body["eyes"] == eyes for body in bodies[2:])
    numbers = [event["n"] for body in bodies[: moves + 2] for event in body["events"]]
    assert numbers == list(range(1, len(numbers) + 1))
    assert sum(event["kind"] == "move" for body in bodies for event in body["events"]) >= min(
        moves, 2
    )


def test_a_widened_view_is_caught(club, people, monkeypatch):
    """Cloak & Dagger's p1 given the all-seeing view on purpose: the twins' streams differ."""
    game = get_game(CLOAK)
    real = type(game).view

    def widened(self: Any, state: Any, viewer: str | None) -> dict[str, Any]:
        return real(self, state, None if viewer == "p1" else viewer)

    monkeypatch.setattr(type(game), "view", widened)
    _game, eyes, moves, one, two = TWINS[5]
    first = socket_stream(club, people, monkeypatch, CLOAK, one, eyes, moves)
    second = socket_stream(club, people, monkeypatch, CLOAK, two, eyes, moves)
    assert first != second
