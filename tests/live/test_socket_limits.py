"""How fast a table's socket may send (``live.socket_limits``): a flood is refused past the
socket's limit with a message naming it and when to try again, and closed (4429) if it
goes on; the person's limit holds over all their sockets; a fast human's pace, with a
second tab and a reconnect, is counted and never refused. A clock of the test's own
(``socket_limits.clock``) makes the counts exact."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from live import services, socket_limits
from live.models import Table
from tests.live.conftest import MX, seats
from tests.live.sockets import connect, run, sync, take

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]


class Seconds:
    """The limits' clock, moved only by the test."""

    def __init__(self) -> None:
        self.at = 1_800_000_000.0

    def __call__(self) -> float:
        return self.at


@pytest.fixture
def seconds(monkeypatch) -> Seconds:
    fixed = Seconds()
    monkeypatch.setattr(socket_limits, "clock", fixed)
    return fixed


@pytest.fixture
def dealt(club, people) -> Table:
    table = services.open_table(club, people["ann"], game_id=MX, seats=seats(MX, "me", "free"))
    return services.take_seat(table.pk, people["ben"])


def key(user: Any) -> str:
    throttle = socket_limits.PersonThrottle()
    return throttle.cache_format % {"scope": throttle.scope, "ident": user.pk}


def counted(user: Any) -> int:
    """The messages of ``user`` the person's limit holds in the cache now."""
    return len(cache.get(key(user), []))


@pytest.fixture(autouse=True)
def uncounted(people):
    """Each test's people start with nothing counted (the cache outlives a test)."""
    keys = [key(user) for user in people.values()]
    cache.delete_many(keys)
    yield
    cache.delete_many(keys)


def test_a_flood_on_one_socket_is_refused_past_its_limit_then_closed(
    dealt, people, seconds, settings
):
    """A client looping stale moves: the first ``LANTERN_LIVE_SOCKET_BURST`` are read (and
    refused as stale, as the API would); past them each is answered with the limit and
    when to retry, in the socket's language, and reads nothing; more than CLOSE_AFTER in a
    row and the socket is closed with 4429. The other seat hears nothing of it."""
    burst = settings.LANTERN_LIVE_SOCKET_BURST
    stale = json.dumps({"act": {"seen": 0, "action": {"seat": "mrx"}}})

    async def scenario() -> tuple[list[dict], dict, bool]:
        flooder = await connect(dealt.pk, people["ann"], lang="ru")
        other = await connect(dealt.pk, people["ben"])
        await take(flooder, [])
        await take(other, [])
        answers = []
        for _ in range(burst + socket_limits.CLOSE_AFTER):
            await flooder.send_to(stale)
            answers.append(json.loads(await take(flooder, []))["refused"])
        await flooder.send_to(stale)
        closed = await flooder.receive_output(timeout=5)
        heard_nothing = await other.receive_nothing(timeout=0.2)
        await other.disconnect()
        return answers, closed, heard_nothing

    answers, closed, heard_nothing = run(scenario)
    assert [a["error"] for a in answers[:burst]] == ["stale"] * burst
    past = answers[burst:]
    assert [a["error"] for a in past] == ["over_budget"] * socket_limits.CLOSE_AFTER
    assert past[0]["per"] == "socket" and past[0]["window_s"] == 1
    assert past[0]["limit"] == settings.LANTERN_LIVE_SOCKET_PER_SECOND
    assert past[0]["retry_after"] == 1
    assert any("\u0400" <= ch <= "\u04ff" for ch in past[0]["message"])  # the socket's Russian
    assert str(settings.LANTERN_LIVE_SOCKET_PER_SECOND) in past[0]["message"]
    assert closed == {"type": "websocket.close", "code": socket_limits.TOO_FAST}
    assert heard_nothing
    # Only what was read was counted against the person.
    assert counted(people["ann"]) == burst
    dealt.refresh_from_db()
    assert dealt.actions == []


def test_a_socket_refused_for_its_pace_is_read_again_once_it_waits(
    dealt, people, seconds, settings
):
    """Refused, then read again after the ``retry_after`` it was told: a client that
    waits is never closed."""
    burst = settings.LANTERN_LIVE_SOCKET_BURST

    async def scenario() -> list[str]:
        socket = await connect(dealt.pk, people["ann"])
        await take(socket, [])
        kinds = []
        for _ in range(3):
            for _ in range(burst + 5):
                await socket.send_to("now")
                body = json.loads(await take(socket, []))
                kinds.append(body["refused"]["error"] if "refused" in body else "news")
            seconds.at += burst / settings.LANTERN_LIVE_SOCKET_PER_SECOND
        await socket.disconnect()
        return kinds

    settings.LANTERN_LIVE_MESSAGES_PER_MINUTE = 10_000
    kinds = run(scenario)
    assert kinds == (["news"] * burst + ["over_budget"] * 5) * 3


def test_the_persons_limit_holds_over_two_sockets(dealt, people, seconds, settings):
    """Two tabs of one person share the person's limit: past it the next message is
    refused on whichever socket sends it, though neither socket passed its own; another
    person at the same table is not held back; a minute later it is read again."""
    settings.LANTERN_LIVE_MESSAGES_PER_MINUTE = 12

    async def scenario() -> dict[str, list[str]]:
        tabs = [await connect(dealt.pk, people["ann"]) for _ in range(2)]
        ben = await connect(dealt.pk, people["ben"])
        for socket in (*tabs, ben):
            await take(socket, [])
        got: dict[str, list[str]] = {"tabs": [], "ben": [], "later": []}

        async def ask(socket: Any, into: list[str]) -> dict:
            await socket.send_to("now")
            body = json.loads(await take(socket, []))
            into.append(body["refused"]["error"] if "refused" in body else "news")
            return body

        for n in range(12):
            seconds.at += 1
            await ask(tabs[n % 2], got["tabs"])
        got["refusal"] = [json.dumps(await ask(tabs[1], got["tabs"]))]
        for _ in range(3):
            await ask(ben, got["ben"])
        seconds.at += 60
        await ask(tabs[0], got["later"])
        for socket in (*tabs, ben):
            await socket.disconnect()
        return got

    got = run(scenario)
    assert got["tabs"] == ["news"] * 12 + ["over_budget"]
    refusal = json.loads(got["refusal"][0])["refused"]
    assert (refusal["per"], refusal["limit"], refusal["window_s"]) == ("person", 12, 60)
    # The oldest of the twelve, a second after the first, leaves the window then.
    assert refusal["retry_after"] == 49
    assert "12" in refusal["message"] and "49" in refusal["message"]
    assert got["ben"] == ["news"] * 3
    assert got["later"] == ["news"]


def test_a_fast_humans_pace_is_counted_and_never_refused(club, people, seconds, settings):
    """Two people play Mister X on their sockets faster than any human plays: a move every
    quarter second, in bursts of ten a second, the page's "here" every minute and "now"
    every 15 s, a second tab of Mister X's player saying "here", and a reconnect half-way.
    Every message is counted against the person; none is refused."""
    table = services.open_table(club, people["ann"], game_id=MX, seats=seats(MX, "me", "free"))
    table = services.take_seat(table.pk, people["ben"])
    first, second = (s.seat for s in table.seats.order_by("order"))
    by_seat = {first: people["ann"], second: people["ben"]}
    rng = random.Random(8)

    def next_move(table_id: int) -> tuple[str, int, dict] | None:
        table = Table.objects.get(pk=table_id)
        if table.status != Table.Status.PLAYING:
            return None
        position = services.position_of(table)
        seat = next(s for s in position.to_act if s in by_seat)
        return seat, table.last_event, rng.choice(position.session.legal_actions(seat, seat))

    async def answer(socket: Any) -> dict:
        """The socket's answer to what it sent (news pushed by the other's moves skipped)."""
        while True:
            body = json.loads(await take(socket, []))
            if "moved" in body or "refused" in body:
                return body

    async def scenario() -> tuple[int, list[dict], list[tuple[float, str]]]:
        sockets = {seat: await connect(table.pk, user) for seat, user in by_seat.items()}
        second_tab = await connect(table.pk, people["ann"])
        for socket in (*sockets.values(), second_tab):
            await take(socket, [])
        sent: list[tuple[float, str]] = []  # (when, who) of every message sent
        refused: list[dict] = []
        moves, last_here, last_now = 0, seconds.at, seconds.at
        while moves < 300 and (turn := await sync(next_move)(table.pk)) is not None:
            seat, seen, action = turn
            # Ten a second for a second, then four a second, over and over.
            seconds.at += 0.1 if moves % 20 < 10 else 0.25
            await sockets[seat].send_to(json.dumps({"act": {"seen": seen, "action": action}}))
            sent.append((seconds.at, by_seat[seat].username))
            body = await answer(sockets[seat])
            if "refused" in body:
                refused.append(body["refused"])
            moves += 1
            if seconds.at - last_now >= 15:
                last_now = seconds.at
                for seat_, socket in sockets.items():
                    await socket.send_to("now")
                    sent.append((seconds.at, by_seat[seat_].username))
            if seconds.at - last_here >= 60:
                last_here = seconds.at
                tabs = (sockets[first], sockets[second], second_tab)
                for socket, who in zip(tabs, ("ann", "ben", "ann"), strict=True):
                    await socket.send_to("here")
                    sent.append((seconds.at, who))
            if moves == 150:  # the page reconnects, naming the last event it has
                await sockets[first].disconnect()
                sockets[first] = await connect(table.pk, people["ann"], since=seen + 1)
        for socket in (*sockets.values(), second_tab):
            await socket.disconnect()
        return moves, refused, sent

    moves, refused, sent = run(scenario)
    assert moves >= 100  # a game long enough to say something
    assert refused == []
    for who in ("ann", "ben"):
        # Every message counted: those of the minute before the person's last one.
        times = [at for at, by in sent if by == who]
        assert len(times) >= 50
        assert counted(people[who]) == sum(1 for at in times if at > times[-1] - 60)


def test_at_a_bots_table_only_the_persons_own_messages_count(club, people, seconds):
    """Against a bot, five moves a second on the socket: the bots' replies, made by the
    server, are no one's messages; the person's moves are counted, none refused."""
    table = services.open_table(club, people["ann"], game_id=MX, seats=seats(MX, "me", "bot"))
    mine = next(s.seat for s in table.seats.all() if s.user_id == people["ann"].pk)
    rng = random.Random(9)

    def next_move(table_id: int) -> tuple[int, dict] | None:
        table = Table.objects.get(pk=table_id)
        if table.status != Table.Status.PLAYING:
            return None
        session = services.position_of(table).session
        return table.last_event, rng.choice(session.legal_actions(mine, mine))

    async def scenario() -> tuple[int, list[str]]:
        socket = await connect(table.pk, people["ann"])
        await take(socket, [])
        sent, answers = 0, []
        while sent < 60 and (turn := await sync(next_move)(table.pk)) is not None:
            seen, action = turn
            seconds.at += 0.2
            await socket.send_to(json.dumps({"act": {"seen": seen, "action": action}}))
            sent += 1
            answers.append(next(iter(json.loads(await take(socket, [])))))
        await socket.disconnect()
        return sent, answers

    sent, answers = run(scenario)
    assert sent >= 30 and answers == ["moved"] * sent
    assert counted(people["ann"]) == sent


def test_moves_over_http_count_with_the_sockets_messages(dealt, people, seconds, settings):
    """A person's moves sent over HTTP (the page's way without a socket) share the limit of
    their socket messages: mixing the two gives no more; past it the move is a 429 with
    Retry-After, per person, in the reader's language, and changes nothing."""
    settings.LANTERN_LIVE_MESSAGES_PER_MINUTE = 4
    client = APIClient()
    client.force_authenticate(people["ann"])
    stale = {"seen": 0, "action": {"seat": "mrx"}}

    async def three_on_the_socket() -> list[str]:
        socket = await connect(dealt.pk, people["ann"])
        await take(socket, [])
        kinds = []
        for _ in range(3):
            seconds.at += 1
            await socket.send_to("now")
            body = json.loads(await take(socket, []))
            kinds.append(body["refused"]["error"] if "refused" in body else "news")
        await socket.disconnect()
        return kinds

    assert run(three_on_the_socket) == ["news"] * 3
    url = f"/api/tables/{dealt.pk}/act/"
    seconds.at += 1
    fourth = client.post(url, stale, format="json")
    assert fourth.status_code == 409 and fourth.json()["error"] == "stale"  # read, refused
    last = Table.objects.get(pk=dealt.pk).last_event
    seconds.at += 1
    fifth = client.post(url, stale, format="json", HTTP_ACCEPT_LANGUAGE="ru")
    body = fifth.json()
    assert fifth.status_code == 429 and body["error"] == "over_budget"
    assert (body["per"], body["limit"], body["window_s"]) == ("person", 4, 60)
    # The first of the four, four seconds before, leaves the window 56 seconds on.
    assert body["retry_after"] == 56 and fifth["Retry-After"] == "56"
    assert "Слишком много ходов" in body["message"]
    assert Table.objects.get(pk=dealt.pk).last_event == last
    assert counted(people["ann"]) == 4


def test_reads_over_http_count_with_the_sockets_messages(dealt, people, seconds, settings):
    """A page polling its table's news while its socket is down, or a client of the API
    reading news and legal actions in a loop, costs a read of the table each time, as a
    socket's message does: the person's limit holds them too (429 per person, Retry-After),
    and holds nobody else's; someone who may not watch the table is refused for that,
    uncounted."""
    settings.LANTERN_LIVE_MESSAGES_PER_MINUTE = 3
    ann, ben, otto = APIClient(), APIClient(), APIClient()
    for client, who in ((ann, "ann"), (ben, "ben"), (otto, "outsider")):
        client.force_authenticate(people[who])
    url = f"/api/tables/{dealt.pk}/"
    for read in (f"{url}news/", f"{url}legal-actions/", f"{url}news/?since=1"):
        seconds.at += 1
        assert ann.get(read).status_code == 200, read
    seconds.at += 1
    past = ann.get(f"{url}legal-actions/", HTTP_ACCEPT_LANGUAGE="ja")
    body = past.json()
    assert past.status_code == 429 and body["error"] == "over_budget"
    assert (body["per"], body["limit"], body["window_s"]) == ("person", 3, 60)
    assert body["retry_after"] == 57 and past["Retry-After"] == "57"
    assert counted(people["ann"]) == 3
    assert ben.get(f"{url}news/").status_code == 200 and counted(people["ben"]) == 1
    assert otto.get(f"{url}news/").status_code == 403 and counted(people["outsider"]) == 0
