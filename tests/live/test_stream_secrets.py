"""Secrets on every socket (issue #36): everything a socket sends is drawn from the engine's
view for that socket's seat, or the public view for a watcher. Two tables with the same
public history and different hidden facts send each pair of eyes byte-identical streams:
for every game, every seat (Mister X's own excepted: see TWINS) and a watcher, at tables of
two and of four. And when a view is widened on purpose, the streams differ, so the
comparison would catch it."""

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

#: (game, seats, eyes, moves, twin deals): pairs of deals whose scripted games the eyes see
#: alike for that many moves while what is hidden from them differs (found with
#: tests.live.twins.find_twins; checked again by each test before it plays them).
#: Mister X's mission and start city are his: the detectives and the public see neither.
#: Mister X's own seat has none: every fact hidden from him (the detectives' racks, their
#: refills) comes from the seed that also places the pawns he sees.
MX_TWINS = ((1, {"mission": "yellow", "start": 6}), (1, {"mission": "yellow", "start": 140}))
TWINS: list[tuple[str, int, str, int, Deal, Deal]] = [
    (CRYPTID, 2, "cryptid", 4, (1, {}), (10, {})),
    (CRYPTID, 2, "scientist", 2, (4, {}), (13902, {})),
    (CRYPTID, 2, PUBLIC, 4, (1, {}), (10, {})),
    (MX, 2, "det1", 8, *MX_TWINS),
    (MX, 2, PUBLIC, 8, *MX_TWINS),
    (MX, 4, "det1", 8, *MX_TWINS),
    (MX, 4, "det2", 8, *MX_TWINS),
    (MX, 4, "det3", 8, *MX_TWINS),
    (MX, 4, PUBLIC, 8, *MX_TWINS),
    (CLOAK, 2, "p1", 6, (1, {}), (2, {})),
    (CLOAK, 2, "p2", 6, (1, {}), (2, {})),
    (CLOAK, 2, PUBLIC, 6, (1, {}), (2, {})),
    (CLOAK, 4, "p1", 8, (1, {}), (2, {})),
    (CLOAK, 4, "p2", 8, (1, {}), (2, {})),
    (CLOAK, 4, "p3", 8, (1, {}), (2, {})),
    (CLOAK, 4, "p4", 8, (1, {}), (2, {})),
    (CLOAK, 4, PUBLIC, 8, (1, {}), (2, {})),
]


@pytest.fixture
def members(club, people, django_user_model) -> list[Any]:
    """Five members of the club: ann, ben, cat, dan and eve (seats first, then a watcher)."""
    from clubs.models import Membership

    more = [django_user_model.objects.create_user(username=name) for name in ("dan", "eve")]
    for user in more:
        Membership.objects.create(user=user, club=club, role="member")
    return [people["ann"], people["ben"], people["cat"], *more]


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
    club,
    members,
    monkeypatch,
    game_id: str,
    count: int,
    deal: Deal,
    eyes: str,
    moves: int,
    clock: dict | None = None,
    before_move: Any = None,
) -> list[str]:
    """Every message the eyes' socket gets while a table of ``count`` seats dealt as
    ``deal`` is opened, sat at and played (``moves`` scripted moves), then what a second
    socket opened at the end with since=0 catches up with, and a third with the first
    message's number. The members sit in seat order; the next one watches. ``clock``: the
    table's time control; ``before_move(n)`` is called before each move."""
    holder = dict(zip(seat_ids(game_id, count), members, strict=False))
    watcher = holder.get(eyes, members[count])
    with monkeypatch.context() as patched:
        deal_as(patched, deal)

        async def scenario() -> list[str]:
            out: list[str] = []
            table = await sync(services.open_table)(
                club,
                members[0],
                game_id=game_id,
                seats=seats(game_id, "me", *["free"] * (count - 1)),
                clock=clock,
            )
            socket = await connect(table.pk, watcher)
            await take(socket, out)
            for member in members[1:count]:
                table = await sync(services.take_seat)(table.pk, member)
                await take(socket, out)
            for made in range(moves):
                if before_move is not None:
                    before_move(made)
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
    ("game_id", "count", "eyes", "moves", "one", "two"),
    TWINS,
    ids=[f"{game}-{count}-{eyes}" for game, count, eyes, *_ in TWINS],
)
def test_twin_tables_send_the_same_bytes(
    club, members, monkeypatch, game_id, count, eyes, moves, one, two
):
    seen_one, hidden_one = transcript(game_id, one, eyes, moves, count)
    seen_two, hidden_two = transcript(game_id, two, eyes, moves, count)
    assert seen_one == seen_two and hidden_one != hidden_two  # twins indeed
    first = socket_stream(club, members, monkeypatch, game_id, count, one, eyes, moves)
    second = socket_stream(club, members, monkeypatch, game_id, count, two, eyes, moves)
    assert first == second
    # The stream is a game's, not a refusal's: it carries the moves, numbered, in order.
    bodies = [json.loads(text) for text in first]
    assert all(body["eyes"] == eyes for body in bodies[count:])
    numbers = [event["n"] for body in bodies[: moves + count] for event in body["events"]]
    assert numbers == list(range(1, len(numbers) + 1))
    assert sum(event["kind"] == "move" for body in bodies for event in body["events"]) >= min(
        moves, 2
    )


#: A view widened on purpose for these eyes: one seat per game at its largest table here,
#: and a watcher.
WIDENED = [(CRYPTID, 2, "scientist"), (MX, 4, "det2"), (CLOAK, 4, "p3"), (CLOAK, 4, PUBLIC)]


@pytest.mark.parametrize(
    ("game_id", "count", "eyes"), WIDENED, ids=[f"{g}-{c}-{e}" for g, c, e in WIDENED]
)
def test_a_widened_view_is_caught(club, members, monkeypatch, game_id, count, eyes):
    """The eyes given the all-seeing view on purpose: the twins' streams differ."""
    game = get_game(game_id)
    real = type(game).view

    def widened(self: Any, state: Any, viewer: str | None) -> dict[str, Any]:
        return real(self, state, None if viewer == eyes else viewer)

    monkeypatch.setattr(type(game), "view", widened)
    moves, one, two = next(
        (m, a, b) for g, c, e, m, a, b in TWINS if (g, c, e) == (game_id, count, eyes)
    )
    first = socket_stream(club, members, monkeypatch, game_id, count, one, eyes, moves)
    second = socket_stream(club, members, monkeypatch, game_id, count, two, eyes, moves)
    assert first != second


@pytest.mark.parametrize("eyes", ["det2", PUBLIC])
def test_twin_timed_tables_send_the_same_bytes(club, members, monkeypatch, eyes):
    """A real-time Mister X table of four: both twins played at the same pace (a fixed
    clock moved alike before each move) send the same clocks, and nothing else differs:
    the clocks are drawn from who was to act when, never from what a hidden move was."""
    from datetime import UTC, datetime, timedelta

    from live import clocks

    moves = 8
    streams = []
    for deal in MX_TWINS:
        at = [datetime(2026, 11, 29, 12, 0, tzinfo=UTC)]
        monkeypatch.setattr(clocks, "now", lambda at=at: at[0])

        def pace(made: int, at: list = at) -> None:
            at[0] += timedelta(seconds=3 + made % 4)

        streams.append(
            socket_stream(
                club,
                members,
                monkeypatch,
                MX,
                4,
                deal,
                eyes,
                moves,
                clock={"kind": "realtime", "minutes": 5, "increment": 2},
                before_move=pace,
            )
        )
    assert streams[0] == streams[1]
    last = json.loads(streams[0][-1])
    charged = {seat: c["left_ms"] for seat, c in last["clocks"].items()}
    assert set(charged) == {"mrx", "det1", "det2", "det3"} and charged["mrx"] < 300_000
