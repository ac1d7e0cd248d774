"""A move sent on a table's socket (``live.socket_moves``): played as the API plays it,
answered on that socket with its news, told to the other sockets as any write is; a
refused one is told to that socket alone and changes nothing. And the push of a write
made in a process that serves sockets is drawn from the table as that write left it
(``live.shared_reads``): no read, and the same news a read of the table gives."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from live import clocks, endings, selectors, services, shared_reads, socket_moves
from live.models import Table
from tests.live.conftest import MX, seats
from tests.live.sockets import connect, run, sync, take
from tests.live.test_clocks import FixedClock, two_people

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]


def dealt(club, people) -> Table:
    table = services.open_table(club, people["ann"], game_id=MX, seats=seats(MX, "me", "free"))
    return services.take_seat(table.pk, people["ben"])


def a_move(table: Table, seat: str, rng: random.Random) -> dict[str, Any]:
    session = services.position_of(table).session
    return rng.choice(session.legal_actions(seat, seat))


def alone(table_id: int, user: Any, since: int) -> dict[str, Any]:
    """What a read of its own draws for ``user`` after ``since`` (the API's news)."""
    text = shared_reads.news_text(table_id, user, since, "en")[1]
    body = json.loads(text)
    return {key: body[key] for key in ("n", "eyes", "events", "position", "seats", "status")}


def same_part(text: str) -> dict[str, Any]:
    body = json.loads(text)
    return {key: body[key] for key in ("n", "eyes", "events", "position", "seats", "status")}


def test_a_move_sent_on_the_socket_is_played_and_every_socket_is_told(club, people, monkeypatch):
    table = dealt(club, people)
    seen = table.last_event
    action = a_move(table, "mrx", random.Random(3))
    asked: list[str] = []
    real_news_text = shared_reads.news_text

    def counted(table_id: int, user: Any, *args: Any, **kwargs: Any) -> Any:
        asked.append(user.username)
        return real_news_text(table_id, user, *args, **kwargs)

    async def scenario() -> dict[str, str]:
        sockets = {who: await connect(table.pk, people[who]) for who in ("ann", "ben", "cat")}
        for socket in sockets.values():
            await take(socket, [])
        monkeypatch.setattr(shared_reads, "news_text", counted)
        await sockets["ann"].send_to(json.dumps({"act": {"seen": seen, "action": action}}))
        got = {who: await take(socket, []) for who, socket in sockets.items()}
        for socket in sockets.values():
            assert await socket.receive_nothing(timeout=0.2)  # each told once
            await socket.disconnect()
        return got

    got = run(scenario)
    # The mover's socket answered the move itself: its push asks it for nothing.
    assert sorted(asked) == ["ben", "cat"]
    monkeypatch.setattr(shared_reads, "news_text", real_news_text)
    table.refresh_from_db()
    assert table.actions[-1] == action and table.last_event == seen + 1
    moved = json.loads(got["ann"])
    assert set(moved) == {"moved"}  # the answer to the move, and no other message's shape
    got["ann"] = json.dumps(moved["moved"])
    for who, eyes in (("ann", "mrx"), ("ben", "det1"), ("cat", "public")):
        body = json.loads(got[who])
        assert body["eyes"] == eyes and body["n"] == seen + 1
        assert [(e["n"], e["kind"], e["seat"]) for e in body["events"]] == [
            (seen + 1, "move", "mrx")
        ]
        # What a read of the table draws for them: the socket's own drawing is no other.
        assert same_part(got[who]) == alone(table.pk, people[who], seen)


def test_a_refused_move_is_told_to_its_socket_alone_and_changes_nothing(club, people):
    table = dealt(club, people)
    seen = table.last_event
    rng = random.Random(4)
    mrx_move = a_move(table, "mrx", rng)
    sent = {
        # another seat's move, by a seat not to act, by a watcher, an old event, not a move
        "ben": {"act": {"seen": seen, "action": mrx_move}},
        "cat": {"act": {"seen": seen, "action": mrx_move}},
        "ann": {"act": {"seen": seen - 1, "action": mrx_move}},
    }

    async def scenario() -> dict[str, list[str]]:
        sockets = {who: await connect(table.pk, people[who]) for who in ("ann", "ben", "cat")}
        for socket in sockets.values():
            await take(socket, [])
        got: dict[str, list[str]] = {}
        for who, body in sent.items():
            await sockets[who].send_to(json.dumps(body))
            got[who] = [await take(sockets[who], [])]
            for other, socket in sockets.items():
                if other != who:
                    assert await socket.receive_nothing(timeout=0.2)
        await sockets["ann"].send_to('{"act": [1, 2]}')
        got["malformed"] = [await take(sockets["ann"], [])]
        await sockets["ann"].send_to("{" * 100_000)
        got["too deep"] = [await take(sockets["ann"], [])]
        for socket in sockets.values():
            assert await socket.receive_nothing(timeout=0.2)
            await socket.disconnect()
        return got

    got = run(scenario)
    refused = {who: json.loads(texts[0])["refused"] for who, texts in got.items()}
    assert refused["ben"]["error"] == "illegal" and refused["ben"]["rule"] == "LIVE-SEAT"
    assert refused["cat"]["error"] == "illegal" and refused["cat"]["rule"] == "LIVE-SEAT"
    assert refused["ann"]["error"] == "stale" and refused["ann"]["last_event"] == seen
    assert refused["malformed"]["error"] == "malformed"
    assert refused["too deep"]["error"] == "malformed"
    assert all(set(json.loads(texts[0])) == {"refused"} for texts in got.values())
    table.refresh_from_db()
    assert table.last_event == seen and table.actions == []


def test_a_refusal_on_the_socket_is_in_the_sockets_language(club, people):
    table = dealt(club, people)

    async def scenario() -> str:
        socket = await connect(table.pk, people["ann"], lang="ru")
        await take(socket, [])
        await socket.send_to(json.dumps({"act": {"seen": 0, "action": {"seat": "mrx"}}}))
        text = await take(socket, [])
        await socket.disconnect()
        return text

    refusal = json.loads(run(scenario))["refused"]
    assert refusal["error"] == "stale"
    assert any("\u0400" <= ch <= "\u04ff" for ch in refusal["message"])  # Russian


def test_a_socket_asked_since_no_event_number_is_sent_everything(club, people):
    """``since`` is read from a URL anyone can type: "²" is a digit to str.isdigit but not
    to int, and neither it, an empty value nor bytes that are not UTF-8 break the socket."""
    table = dealt(club, people)

    async def scenario() -> list[int]:
        firsts = []
        for since in ("0", "", "%C2%B2", "%FF", "9" * 30):
            socket = await connect(table.pk, people["ann"], since=since)
            firsts.append(len(json.loads(await take(socket, []))["events"]))
            await socket.disconnect()
        return firsts

    everything, *others = run(scenario)
    assert everything >= 2 and others == [everything] * 4


def test_a_write_of_this_process_is_drawn_for_its_sockets_without_a_read(club, people, monkeypatch):
    """The push of a move made in the process that holds the sockets: the table as the move
    left it serves them (no read of the table), and each gets what a read would give."""
    table = dealt(club, people)
    reads: list[int] = []
    real_read = selectors.table_row

    def counted_read(table_id: int) -> Table | None:
        reads.append(table_id)
        return real_read(table_id)

    async def scenario() -> dict[str, str]:
        sockets = {who: await connect(table.pk, people[who]) for who in ("ann", "ben", "cat")}
        for socket in sockets.values():
            await take(socket, [])
        monkeypatch.setattr(selectors, "table_row", counted_read)
        action = await sync(a_move)(table, "mrx", random.Random(5))
        written = await sync(services.play)(
            table.pk, services.Move(user=people["ann"], seen=table.last_event, action=action)
        )
        # What the writer does with its table afterwards is its own affair.
        await sync(written.refresh_from_db)()
        got = {who: await take(socket, []) for who, socket in sockets.items()}
        for socket in sockets.values():
            await socket.disconnect()
        return got

    got = run(scenario)
    assert reads == []
    monkeypatch.setattr(selectors, "table_row", real_read)
    for who in ("ann", "ben", "cat"):
        assert same_part(got[who]) == alone(table.pk, people[who], table.last_event)


def test_a_move_sent_after_the_clock_fell_is_refused_and_the_time_out_settled_at_once(
    club, people, monkeypatch
):
    """Sent on the socket as over HTTP: the mover's fallen clock is settled by the move
    itself (LIVE-1.1), not left to the countdown."""
    fixed = FixedClock()
    monkeypatch.setattr(clocks, "now", fixed)
    table = two_people(club, people, MX, {"kind": "realtime", "minutes": 1})
    action = a_move(table, "mrx", random.Random(6))
    fixed.tick(seconds=61)
    text, last, _eyes = socket_moves.act(
        table.pk,
        people["ann"],
        json.dumps({"act": {"seen": table.last_event, "action": action}}),
        table.last_event,
        "en",
        None,
    )
    assert json.loads(text)["refused"]["error"] == "time_out" and last is None
    table.refresh_from_db()
    assert (table.status, table.ending, table.ended_seat) == ("finished", "time", "mrx")


def test_a_move_at_a_table_gone_idle_ends_it_first(club, people, monkeypatch, settings):
    """LIVE-1.6 fell due before the move (nothing read the table since): the table ends as
    idle and the move is refused, over HTTP and on the socket alike."""
    fixed = FixedClock()
    monkeypatch.setattr(clocks, "now", fixed)
    settings.LIVE_IDLE_AFTER = 3600
    table = dealt(club, people)
    action = a_move(table, "mrx", random.Random(7))
    fixed.tick(seconds=3601)
    move = services.Move(user=people["ann"], seen=table.last_event, action=action)
    with pytest.raises(services.DueFirst):  # the service alone: the caller settles first
        services.play(table.pk, move)
    with pytest.raises(services.ClosedTable):
        endings.play_settled(table.pk, move)
    table.refresh_from_db()
    assert (table.status, table.ending) == ("abandoned", "idle") and table.actions == []
