"""What a process keeps to serve many tables at once (bench/live.py): the engine session of
a table between moves (``live.sessions``), and one read and one drawing per pair of eyes
for the sockets that heard the same push (``live.shared_reads``). Neither may change a
byte of what anyone is sent: a session another process has moved past is stepped on or
replayed, one that does not continue the table is never used, and a drawing is shared
only among sockets with the same eyes."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from engine import Session
from live import clocks, endings, selectors, services, sessions, shared_reads, takebacks
from live.models import Table
from tests.live.conftest import CLOAK, MX, seats
from tests.live.sockets import connect, run, sync, take
from tests.live.test_clocks import FixedClock, two_people
from tests.live.twins import first_walked, seat_ids

pytestmark = [pytest.mark.live, pytest.mark.django_db]


def dealt_mister_x(club, people) -> tuple[Table, dict[str, Any]]:
    table = services.open_table(club, people["ann"], game_id=MX, seats=seats(MX, "me", "free"))
    table = services.take_seat(table.pk, people["ben"])
    return table, {"mrx": people["ann"], "det1": people["ben"]}


def move(table: Table, holder: dict[str, Any], rng: random.Random) -> Table:
    table.refresh_from_db()
    position = services.position_of(table)
    seat = position.to_act[0]
    action = rng.choice(position.session.legal_actions(seat, seat))
    return services.play(
        table.pk, services.Move(user=holder[seat], seen=table.last_event, action=action)
    )


def played(table: Table, holder: dict[str, Any], rng: random.Random, moves: int) -> Table:
    """The table after ``moves`` more random moves, as read back."""
    for _ in range(moves):
        table = move(table, holder, rng)
    table.refresh_from_db()
    return table


def replayed(table: Table) -> Session:
    """The table's game replayed from its log, as without any kept session."""
    sessions.forget()
    return services.position_of(table).session


def all_seeing(session: Session) -> str:
    return json.dumps(session.game.view(session.state, None), sort_keys=True)


@pytest.fixture(autouse=True)
def nothing_kept():
    sessions.forget()
    yield
    sessions.forget()


def test_a_session_another_process_moved_past_is_stepped_to_the_table(club, people):
    table, holder = dealt_mister_x(club, people)
    rng = random.Random(5)
    table = played(table, holder, rng, 3)
    behind = replayed(table)  # what this process kept at this point
    # Moves made by another process: this one's session is not told.
    table = played(table, holder, rng, 4)
    truth = all_seeing(replayed(table))
    sessions.keep(table.pk, behind)
    position = services.position_of(table)
    assert position.session is behind  # taken, and stepped on
    assert len(position.session.actions) == len(table.actions)
    assert all_seeing(position.session) == truth


def test_a_session_that_does_not_continue_the_table_is_never_used(club, people):
    table, holder = dealt_mister_x(club, people)
    rng = random.Random(6)
    table = played(table, holder, rng, 3)
    truth = all_seeing(replayed(table))
    # Another table's game kept under this table's id (a reused id, a stale process):
    # the same game and seats, another deal.
    other = played(*dealt_mister_x(club, people), rng, 3)
    sessions.keep(table.pk, replayed(other))
    position = services.position_of(table)
    assert all_seeing(position.session) == truth
    # This table's own session, but ahead of the table as read (a move of another
    # process this read does not have yet, or one taken back since).
    ahead = replayed(table)
    ahead.step(rng.choice(ahead.legal_actions(ahead.to_act[0])), None)
    sessions.keep(table.pk, ahead)
    assert services.position_of(table).session is not ahead
    assert all_seeing(services.position_of(table).session) == truth


def test_a_take_back_made_elsewhere_is_replayed_not_stepped(club, people):
    table = services.open_table(
        club, people["ann"], game_id=CLOAK, seats=seats(CLOAK, "me", "free")
    )
    table = services.take_seat(table.pk, people["ben"])
    first, second = seat_ids(CLOAK)
    holder = {first: people["ann"], second: people["ben"]}
    for seat in (first, second):  # each drops, as test_takebacks plays it
        table.refresh_from_db()
        action = first_walked(services.position_of(table).session.legal_actions(seat, seat))
        table = services.play(
            table.pk, services.Move(user=holder[seat], seen=table.last_event, action=action)
        )
    table.refresh_from_db()
    before = replayed(table)  # what this process kept; the take-back is made elsewhere
    takebacks.ask(table.pk, holder[second])
    table = takebacks.answer(table.pk, holder[first], agree=True)
    table.refresh_from_db()
    assert len(table.actions) == len(before.actions) - 1
    truth = all_seeing(replayed(table))
    sessions.keep(table.pk, before)
    position = services.position_of(table)
    assert position.session is not before
    assert all_seeing(position.session) == truth


@pytest.mark.django_db(transaction=True)
def test_sockets_with_the_same_eyes_share_one_drawing_and_no_other(club, people, monkeypatch):
    """Two tabs of one seat, the other seat, and a watcher: one push, one read of the
    table, one drawing per pair of eyes (three); each socket gets exactly what it would
    get alone."""
    table, holder = dealt_mister_x(club, people)
    drawn: list[str] = []
    reads: list[int] = []
    real_news, real_read = selectors.news, selectors.table_row

    def counted_news(table: Table, eyes: str, since: int, shared: Any = None) -> dict:
        drawn.append(eyes)
        return real_news(table, eyes, since, shared)

    def counted_read(table_id: int) -> Table | None:
        reads.append(table_id)
        return real_read(table_id)

    async def scenario() -> dict[str, str]:
        sockets = {
            "mrx tab 1": await connect(table.pk, people["ann"]),
            "mrx tab 2": await connect(table.pk, people["ann"]),
            "det1": await connect(table.pk, people["ben"]),
            "watcher": await connect(table.pk, people["cat"]),
        }
        for socket in sockets.values():
            await take(socket, [])
        monkeypatch.setattr(selectors, "news", counted_news)
        monkeypatch.setattr(selectors, "table_row", counted_read)
        # A move made by another process (an API's): this one has no table it wrote.
        monkeypatch.setattr(shared_reads, "_serving", False)
        await sync(move)(table, holder, random.Random(2))
        got = {name: await take(socket, []) for name, socket in sockets.items()}
        for socket in sockets.values():
            await socket.disconnect()
        return got

    got = run(scenario)
    assert sorted(drawn) == ["det1", "mrx", "public"]
    assert reads == [table.pk]
    assert got["mrx tab 1"] == got["mrx tab 2"]
    assert len({got["mrx tab 1"], got["det1"], got["watcher"]}) == 3
    # What each would be sent alone, from a read of its own.
    monkeypatch.setattr(selectors, "news", real_news)
    monkeypatch.setattr(selectors, "table_row", real_read)
    since = json.loads(got["det1"])["events"][0]["n"] - 1
    for name, user in (("mrx tab 1", "ann"), ("det1", "ben"), ("watcher", "cat")):
        alone = shared_reads.news_text(table.pk, people[user], since, "en")[1]
        assert json.loads(alone)["events"] == json.loads(got[name])["events"]
        assert json.loads(alone)["position"] == json.loads(got[name])["position"]


def test_a_drawing_is_never_handed_to_other_eyes(club, people):
    """Within one push's read, a text drawn for one seat is not what the other seat or a
    watcher is given, even asking with the same since and language."""
    table, holder = dealt_mister_x(club, people)
    move(table, holder, random.Random(4))
    table.refresh_from_db()
    since = table.last_event - 1
    texts = {
        who: shared_reads.news_text(table.pk, people[who], since, "en", push="p1")
        for who in ("ann", "ann", "ben", "cat")
    }
    eyes = {who: json.loads(text)["eyes"] for who, (_ok, text, _n, _e) in texts.items()}
    assert eyes == {"ann": "mrx", "ben": "det1", "cat": "public"}
    read = shared_reads.read_for_push(table.pk, "p1")
    assert sorted(key[0] for key in read.drawn.texts) == ["det1", "mrx", "public"]
    for who, (_ok, text, _n, _e) in texts.items():
        assert json.loads(text)["eyes"] == eyes[who]


def test_a_read_that_settles_a_fallen_clock_reads_the_seats_once(club, people, monkeypatch):
    """``settled_table`` of a table whose clock fell: its row (to see that something is
    due), the settling, then the table as settled, its row and its seats. The row is read
    again because the settling writes the seats by updates and stores the match (and
    another process may have settled it first); the seats are read once, for the table
    returned, and it holds everything a page or the API reads of it."""
    fixed = FixedClock()
    monkeypatch.setattr(clocks, "now", fixed)
    table = two_people(club, people, MX, {"kind": "realtime", "minutes": 1})
    fixed.tick(seconds=61)
    settling: list[slice] = []
    real_settle = endings.settle

    with CaptureQueriesContext(connection) as read:

        def measured(table_id: int) -> None:
            began = len(read.captured_queries)
            real_settle(table_id)
            settling.append(slice(began, len(read.captured_queries)))

        monkeypatch.setattr(endings, "settle", measured)
        settled = shared_reads.settled_table(table.pk)
    assert len(settling) == 1
    everything = [q["sql"] for q in read.captured_queries]
    outside = everything[: settling[0].start] + everything[settling[0].stop :]
    # The row, then the row as settled and its seats with their people: nothing else.
    assert len(outside) == 3
    assert [sql.count('FROM "live_tableseat"') for sql in outside] == [0, 0, 1]
    assert settled is not None and (settled.status, settled.ending) == ("finished", "time")
    with CaptureQueriesContext(connection) as more:
        seen = (
            [(s.seat, s.user and s.user.username, s.clock_ms) for s in settled.seats.all()],
            settled.club.slug,
            settled.created_by.username,
            settled.match.pk,
        )
    assert len(more) == 0
    fresh = selectors.table_read(table.pk)
    assert seen == (
        [(s.seat, s.user and s.user.username, s.clock_ms) for s in fresh.seats.all()],
        fresh.club.slug,
        fresh.created_by.username,
        fresh.match.pk,
    )
