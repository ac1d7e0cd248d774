"""Live tables under load: how fast a move reaches the other seat's socket, whether any
is lost or delivered twice, and what an open socket costs the server in memory.

    .venv/bin/python bench/live.py [--tables 200] [--interval 2] [--seconds 60] [--quick]

Lantern runs as `make prod` runs it, in processes of its own on loopback: Daphne serves
the sockets; with REDIS_URL set the channel layer is Redis and gunicorn
(config/gunicorn.py) serves the API the moves are posted to, so every move crosses from
one process to the other through Redis; without it one Daphne serves both on the
in-memory layer (as `make run`). The database is a throw-away one: ``<name>_bench_live``
beside DATABASE_URL's when that is PostgreSQL, else a SQLite file. Redis: the database
number ``--redis-db`` (14), emptied before and after, so nothing the servers queue (a
finished game's rating) reaches a worker of a real database.

``--tables`` Mister X tables of two members each (``mrx``, ``det1``) are opened and
dealt first. Each member's socket is opened (``/ws/tables/<id>/?since=0``, the session
cookie) and the server's memory (VmRSS) is read before and after: the difference over the
sockets opened is the memory per open connection. Each seat then reads its table's news
once over HTTP (the API's processes load the engine's data on their first requests: a
warm-up, not counted). Then each table gets a move every
``--interval`` seconds (tables staggered over the interval) for ``--seconds``: the seat to
act posts a random legal action (``POST /api/tables/<id>/act/``, its token), chosen from
the engine's legal actions of a copy of the game kept here (the bench dealt the game, so
it knows it). Everything the bench does runs on one asyncio loop: the moves over a pool
of kept-alive HTTP connections, the sockets read with the ``websockets`` package.

Figures: for each move, from the moment its HTTP request is sent to its event's arrival
on the other seat's socket: p50, p95, max (target: 150 ms at p95); the same from the
HTTP answer; the HTTP round trip of a move; per socket, every event number of its table
received exactly once (none lost, none twice); the CPU of each server per move, of
PostgreSQL and Redis (all their processes: shared with whatever else uses them), and of
the bench itself; the load average (the machine is shared: the figures are what it gave
while others worked).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import add_quick  # noqa: E402
from bench.common import servers as served  # noqa: E402

TARGET_P95_MS = 150.0
STRAGGLERS_S = 120.0  # how long after the last move every socket may take to catch up
GAME = "mister-x"
SECRET_KEY = "bench-live-not-a-secret-" + "x" * 40


class Table:
    """One table as the bench plays it: per seat its member's API token and session
    cookie, the engine session it mirrors, the last event number, what was sent when."""

    def __init__(self, pk: int, session: Any, seats: dict[str, tuple[str, str]]) -> None:
        self.pk, self.session, self.seats = pk, session, seats
        self.last = 0
        self.moves: dict[int, tuple[str, float, float]] = {}  # event n: (seat, sent, answered)
        self.errors: list[str] = []
        self.sockets: dict[str, Socket] = {}  # per seat, once opened


def set_up(database_url: str, count: int) -> list[Table]:
    """Django on the bench database: migrate, then ``count`` tables dealt (in this process)."""
    os.environ.update(DATABASE_URL=database_url, SECRET_KEY=SECRET_KEY, DEBUG="0")
    os.environ.update(ALLOWED_HOSTS="127.0.0.1", LOG_LEVEL="WARNING", LANTERN_HTTPS="0")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connections
    from django.test import Client
    from rest_framework.authtoken.models import Token

    from clubs.models import Club, Membership
    from engine import get_game
    from live import services

    call_command("migrate", verbosity=0)
    club = Club.objects.create(name="Bench live", slug="bench-live")
    game = get_game(GAME)
    seat_ids = game.seat_ids(game.normalize_options({}), 2)
    users = get_user_model().objects
    tables = []
    for number in range(count):
        people = {}
        for seat in seat_ids:
            user = users.create_user(username=f"t{number}-{seat}")
            Membership.objects.create(user=user, club=club, role="member")
            client = Client()
            client.force_login(user)
            cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
            people[seat] = (user, Token.objects.create(user=user).key, cookie)
        first, second = seat_ids
        table = services.open_table(
            club,
            people[first][0],
            game_id=GAME,
            seats=[{"seat": first, "take": "me"}, {"seat": second, "take": "free"}],
        )
        table = services.take_seat(table.pk, people[second][0])
        live = Table(
            table.pk,
            services.position_of(table).session,
            {
                seat: (token, f"{settings.SESSION_COOKIE_NAME}={cookie}")
                for seat, (_user, token, cookie) in people.items()
            },
        )
        live.last = table.last_event
        tables.append(live)
    connections.close_all()
    return tables


def last_events(pks: list[int]) -> dict[int, int]:
    from live.models import Table as LiveTable

    return dict(LiveTable.objects.filter(pk__in=pks).values_list("pk", "last_event"))


class Poster:
    """Moves posted over HTTP/1.1 from the bench's one event loop, on a pool of kept-alive
    connections (one request at a time on each): no thread per request, so the bench's
    own CPU (it shares the machine with the servers) stays small."""

    def __init__(self, port: int, connections: int) -> None:
        self.port = port
        self.idle: asyncio.LifoQueue = asyncio.LifoQueue()
        for _ in range(connections):
            self.idle.put_nowait(None)  # a slot; its connection opened on first use

    async def post(self, path: str, token: str, body: dict[str, Any] | None) -> tuple[int, dict]:
        """POST ``body`` (None: GET) to ``path`` with ``token``: the status and the answer."""
        data = json.dumps(body).encode() if body is not None else b""
        head = (
            f"{'POST' if body is not None else 'GET'} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Authorization: Token {token}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(data)}\r\n\r\n"
        ).encode()
        connection = await self.idle.get()
        try:
            for attempt in (1, 2):
                if connection is None:
                    connection = await asyncio.open_connection("127.0.0.1", self.port)
                reader, writer = connection
                try:
                    writer.write(head + data)
                    status = int((await reader.readline()).split()[1])
                    length, close = 0, False
                    while (line := await reader.readline()) not in (b"\r\n", b""):
                        name, _, value = line.decode("latin-1").partition(":")
                        if name.lower() == "content-length":
                            length = int(value)
                        elif name.lower() == "connection" and "close" in value.lower():
                            close = True
                    answer = json.loads(await reader.readexactly(length) or b"{}")
                    if close:
                        writer.close()
                        connection = None
                    return status, answer
                except (OSError, IndexError, ValueError, asyncio.IncompleteReadError):
                    writer.close()
                    connection = None
                    if attempt == 2:
                        raise
            raise AssertionError("unreachable")
        finally:
            self.idle.put_nowait(connection)


async def play(
    table: Table, poster: Poster, interval: float, until: float, seed: int, on_socket: bool
) -> None:
    """A move every ``interval`` seconds until ``until``, staggered by the table's seed,
    posted over HTTP or (``on_socket``) sent on the mover's socket; a refused move (it
    should not be) stops the table, noted."""
    rng = random.Random(seed)
    start = time.perf_counter() + rng.uniform(0, interval)
    tick = 0
    while not table.session.is_over:
        # The next tick still ahead: a move answered late does not bunch the next ones up
        # (the offered load stays one move per interval, the server's backlog aside).
        tick = max(tick, math.ceil((time.perf_counter() - start) / interval))
        due = start + tick * interval
        if due >= until:
            return
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        tick += 1
        seat = table.session.to_act[0]
        action = rng.choice(table.session.legal_actions(seat, seat))
        body = {"seen": table.last, "action": action}
        sent = time.perf_counter()
        try:
            if on_socket:
                code, answer, answered = await table.sockets[seat].act(body)
            else:
                path = f"/api/tables/{table.pk}/act/"
                code, answer = await poster.post(path, table.seats[seat][0], body)
                answered = time.perf_counter()
        except (OSError, ValueError, IndexError, asyncio.IncompleteReadError) as exc:
            table.errors.append(f"{type(exc).__name__}: {exc}")
            return
        except TimeoutError:
            table.errors.append("no answer on the socket in 60 s")
            return
        if code != 200:
            table.errors.append(f"{code}: {answer}")
            return
        table.moves[table.last + 1] = (seat, sent, answered)
        table.last = answer["n"]
        table.session.step(action, seat)


class Socket:
    """One member's socket on a table: when each event number first arrived, how often."""

    def __init__(self, table: Table, seat: str) -> None:
        self.table, self.seat = table, seat
        self.arrived: dict[int, float] = {}
        self.counts: Counter[int] = Counter()
        self.connection: Any = None
        self.reader: asyncio.Task | None = None
        self.closed_by_server = ""  # why, when the server closed it before the bench did
        self.eyes: str | None = None
        self.redrawn = 0  # messages drawn again for other eyes (all-seeing after the end)
        self.answer: asyncio.Future | None = None  # a move sent on it, waiting

    async def act(self, body: dict[str, Any]) -> tuple[int, dict, float]:
        """Send a move on this socket: (200, the news answering it, when it arrived), or
        (409/422…, the refusal)."""
        self.answer = asyncio.get_running_loop().create_future()
        await self.connection.send(json.dumps({"act": body}))
        return await asyncio.wait_for(self.answer, 60)

    async def open(self, port: int) -> None:
        from websockets.asyncio.client import connect

        self.connection = await connect(
            f"ws://127.0.0.1:{port}/ws/tables/{self.table.pk}/?since=0&lang=en",
            origin=f"http://127.0.0.1:{port}",
            additional_headers={"Cookie": self.table.seats[self.seat][1]},
            max_size=None,
            open_timeout=60,
            ping_interval=None,
        )
        # Where the table stands: events 1..n.
        self.note(await asyncio.wait_for(self.connection.recv(), 60))
        self.reader = asyncio.create_task(self.read())

    def note(self, text: str) -> None:
        now = time.perf_counter()
        body = json.loads(text)
        if "refused" in body or "moved" in body:  # the answer to a move sent on it
            assert self.answer is not None and not self.answer.done()
            if "refused" in body:
                self.answer.set_result((409, body["refused"], now))
                return
            body = body["moved"]
            self.answer.set_result((200, body, now))
        if self.eyes is None:
            self.eyes = body["eyes"]
        events = body["events"]
        if body["eyes"] != self.eyes:
            # The game ended and these eyes now see everything: every event is drawn again
            # for them (live.selectors.news_text), a new drawing rather than a delivery of
            # those the socket had; the ones after them are delivered by it.
            self.eyes = body["eyes"]
            self.redrawn += 1
            had = max(self.counts, default=0)
            events = [event for event in events if event["n"] > had]
        for event in events:
            self.counts[event["n"]] += 1
            self.arrived.setdefault(event["n"], now)

    async def read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for text in self.connection:
                self.note(text)
        except ConnectionClosed as exc:
            self.closed_by_server = str(exc)

    async def close(self) -> None:
        await self.connection.close()
        if self.reader is not None:
            await self.reader


def named_cpu_seconds(names: tuple[str, ...]) -> float:
    """CPU seconds so far of every process of this machine whose name is one of ``names``
    (PostgreSQL's and Redis's servers: shared with whatever else uses them meanwhile),
    with their children that ended (a PostgreSQL connection's backend ends with it)."""
    total = 0.0
    for comm in Path("/proc").glob("[0-9]*/comm"):
        try:
            if comm.read_text().strip() not in names:
                continue
            fields = (comm.parent / "stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        # utime, stime, and the same of its children waited for (cutime, cstime)
        total += sum(int(field) for field in fields[11:15]) / os.sysconf("SC_CLK_TCK")
    return total


SERVICES = {"postgres": ("postgres",), "redis": ("redis-server",)}


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))] if ordered else float("nan")


def spread(values: list[float]) -> str:
    return (
        f"p50 {percentile(values, 0.5):7.1f}  p95 {percentile(values, 0.95):7.1f}  "
        f"max {max(values, default=float('nan')):7.1f} ms"
    )


async def run_load(tables: list[Table], args: argparse.Namespace, ports: dict[str, Any]) -> dict:
    lives, api = ports["lives"], ports["api"]  # [(port, pid)] of each Daphne process

    def live_of(table: Table) -> int:
        """The Daphne port a table's sockets use: tables spread over the processes, both
        seats of a table on the same one (as a proxy hashing on the table would)."""
        return lives[tables.index(table) % len(lives)][0]

    # Warm-up: one socket per process opened and closed (imports, the first queries).
    for index in range(len(lives)):
        warm = Socket(tables[index], next(iter(tables[index].seats)))
        await warm.open(live_of(tables[index]))
        await warm.close()
    await asyncio.sleep(0.5)
    rss_before = sum(served.rss_bytes(pid) for _port, pid in lives)
    sockets = [Socket(table, seat) for table in tables for seat in table.seats]
    for socket in sockets:
        socket.table.sockets[socket.seat] = socket
    opening = asyncio.Semaphore(20)

    async def open_one(socket: Socket) -> None:
        async with opening:
            await socket.open(live_of(socket.table))

    opened_at = time.perf_counter()
    await asyncio.gather(*(open_one(socket) for socket in sockets))
    open_seconds = time.perf_counter() - opened_at
    await asyncio.sleep(1.0)
    rss_after = sum(served.rss_bytes(pid) for _port, pid in lives)

    poster = Poster(api, connections=min(64, max(4, len(tables) // 4)))
    # Warm-up of the API's processes too (their first requests load the engine's data):
    # each table's news read once over HTTP, not counted.
    await asyncio.gather(
        *(
            poster.post(f"/api/tables/{t.pk}/news/?since={t.last}", token, None)
            for t in tables
            for token, _cookie in t.seats.values()
        )
    )
    cpu_before = {name: served.tree_cpu_seconds(p) for name, p in ports["pids"].items()}
    services_before = {name: named_cpu_seconds(names) for name, names in SERVICES.items()}
    load_before = os.getloadavg()
    bench_cpu = time.process_time()
    started = time.perf_counter()
    until = started + args.seconds
    await asyncio.gather(
        *(
            play(t, poster, args.interval, until, seed, args.moves == "socket")
            for seed, t in enumerate(tables)
        )
    )
    moving = time.perf_counter() - started
    cpu = {name: served.tree_cpu_seconds(p) - cpu_before[name] for name, p in ports["pids"].items()}
    cpu["bench"] = time.process_time() - bench_cpu
    services_cpu = {
        name: named_cpu_seconds(names) - services_before[name] for name, names in SERVICES.items()
    }
    load_after = os.getloadavg()
    # Stragglers: wait until every socket has every event of its table (or two minutes:
    # an overloaded server works through its backlog).
    deadline = time.perf_counter() + STRAGGLERS_S
    while time.perf_counter() < deadline:
        if all(max(s.arrived, default=0) >= s.table.last for s in sockets):
            break
        await asyncio.sleep(0.1)
    await asyncio.gather(*(socket.close() for socket in sockets))
    return {
        "sockets": sockets,
        "rss": (rss_before, rss_after),
        "open_seconds": open_seconds,
        "moving": moving,
        "cpu": cpu,
        "services_cpu": services_cpu,
        "load": (load_before, load_after),
    }


def report(tables: list[Table], result: dict, stored: dict[int, int], args, layer: str) -> None:
    sockets: list[Socket] = result["sockets"]
    after_answer, after_send, round_trip = [], [], []
    early = 0
    for socket in sockets:
        for n, (seat, sent, answered) in socket.table.moves.items():
            if seat == socket.seat or n not in socket.arrived:
                continue
            arrived = socket.arrived[n]
            early += arrived < answered
            after_answer.append(1000 * max(0.0, arrived - answered))
            after_send.append(1000 * (arrived - sent))
    for table in tables:
        round_trip += [1000 * (answered - sent) for _seat, sent, answered in table.moves.values()]
    moves = sum(len(t.moves) for t in tables)
    lost = sum(1 for s in sockets for n in range(1, stored[s.table.pk] + 1) if s.counts[n] == 0)
    twice = sum(count - 1 for s in sockets for count in s.counts.values() if count > 1)
    unknown = sum(1 for s in sockets for n in s.counts if n > stored[s.table.pk])
    errors = [e for t in tables for e in t.errors]
    rss_before, rss_after = result["rss"]
    sent = "on the mover's socket" if args.moves == "socket" else "over HTTP"
    print(
        f"\n{len(tables)} {GAME} tables of 2 members, a move every {args.interval:g} s each, "
        f"{result['moving']:.1f} s; moves sent {sent}; {layer}"
    )
    print(
        f"  sockets: {len(sockets)} opened in {result['open_seconds']:.1f} s; Daphne's RSS "
        f"{rss_before / 2**20:.1f} -> {rss_after / 2**20:.1f} MiB: "
        f"{(rss_after - rss_before) / len(sockets) / 1024:.1f} KiB per open connection"
    )
    print(
        f"  moves: {moves} made ({moves / result['moving']:.1f}/s), {len(errors)} refused or failed"
    )
    for error in errors[:5]:
        print(f"    {error[:200]}")
    print(f"  round trip of a move (to its answer): {spread(round_trip)}")
    print(f"  to the other seat, after the send:    {spread(after_send)}")
    print(
        f"  to the other seat, after the answer: {spread(after_answer)} "
        f"({early} of {len(after_answer)} arrived before the answer: counted 0)"
    )
    p95 = percentile(after_send, 0.95)
    verdict = "meets" if p95 <= TARGET_P95_MS and not (errors or lost or twice) else "MISSES"
    print(f"  target p95 <= {TARGET_P95_MS:.0f} ms after the send: {verdict} ({p95:.1f} ms)")
    redrawn = sum(s.redrawn for s in sockets)
    print(
        f"  delivery, per socket by event number: {lost} not there {STRAGGLERS_S:.0f} s after "
        f"the last move, {twice} delivered twice, "
        f"{unknown} unknown ({redrawn} messages drawn again for all-seeing eyes at a game's end)"
    )
    closed = [s.closed_by_server for s in sockets if s.closed_by_server]
    print(f"  sockets the server closed before the end: {len(closed)} {sorted(set(closed))}")
    cpu = ", ".join(f"{name} {seconds:.1f} s" for name, seconds in result["cpu"].items())
    servers_cpu = sum(v for k, v in result["cpu"].items() if k != "bench")
    print(
        f"  CPU over the moving time: {cpu}; the servers' per move: "
        f"{1000 * servers_cpu / max(1, moves):.1f} ms"
    )
    services = ", ".join(
        f"{name} {seconds:.1f} s" for name, seconds in result["services_cpu"].items()
    )
    print(
        f"  their services' CPU (all their processes, whoever used them): {services}; per move "
        f"{1000 * sum(result['services_cpu'].values()) / max(1, moves):.1f} ms; the bench's own "
        f"per move {1000 * result['cpu']['bench'] / max(1, moves):.1f} ms"
    )
    (b1, b5, _), (a1, a5, _) = result["load"]
    print(f"  load average: {b1:.2f} (5 min {b5:.2f}) before, {a1:.2f} (5 min {a5:.2f}) after")


def postgres_bench_url(url: str) -> tuple[str, str] | None:
    """(the server's url, the throw-away bench database's name) when ``url`` is PostgreSQL."""
    if not url.startswith(("postgres://", "postgresql://")):
        return None
    base, _, name = url.rpartition("/")
    return base, f"{name.split('?')[0]}_bench_live"


def admin_sql(url: str, sql: str) -> None:
    import psycopg

    with psycopg.connect(url.replace("postgres://", "postgresql://", 1), autocommit=True) as conn:
        conn.execute(sql)


def redis_bench_url(url: str, db: int) -> str:
    base = url.split("?")[0].rstrip("/")
    if base.rsplit("/", 1)[-1].isdigit():
        base = base.rsplit("/", 1)[0]
    return f"{base}/{db}"


def flush_redis(url: str) -> None:
    import redis

    redis.Redis.from_url(url).flushdb()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between moves")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long moves are made")
    parser.add_argument("--redis-db", type=int, default=14, help="the Redis database used")
    parser.add_argument(
        "--daphnes", type=int, default=1, help="Daphne processes the sockets are spread over"
    )
    parser.add_argument(
        "--moves",
        choices=["http", "socket"],
        default="http",
        help="how a seat sends its move: POST /api/tables/<id>/act/, or on its socket",
    )
    add_quick(parser)
    args = parser.parse_args()
    if args.quick:
        args.tables, args.interval, args.seconds = 4, 0.5, 4.0

    configured = os.environ.get("DATABASE_URL", "")
    pg = postgres_bench_url(configured)
    folder = tempfile.TemporaryDirectory(prefix="lantern-bench-live-")
    if pg is None:
        database_url = f"sqlite:///{folder.name}/bench.sqlite3"
        database = "SQLite (a file)"
    else:
        base, name = pg
        admin_sql(configured, f'DROP DATABASE IF EXISTS "{name}"')
        admin_sql(configured, f'CREATE DATABASE "{name}"')
        database_url, database = f"{base}/{name}", "PostgreSQL"
    redis_url = os.environ.get("REDIS_URL") or None
    if args.daphnes > 1 and not redis_url:
        parser.error("--daphnes above 1 needs REDIS_URL (the processes share its channel layer)")
    if redis_url:
        redis_url = redis_bench_url(redis_url, args.redis_db)
        flush_redis(redis_url)
    started: list[served.Server] = []
    try:
        setup_started = time.perf_counter()
        tables = set_up(database_url, args.tables)
        print(f"{len(tables)} tables dealt in {time.perf_counter() - setup_started:.1f} s")
        env = served.server_env(database_url, redis_url, SECRET_KEY)
        lives = [served.daphne(env, name=f"daphne-{n + 1}") for n in range(args.daphnes)]
        started += lives
        api = lives[0]
        if redis_url:
            api = served.gunicorn(env)
            started.append(api)
        for server in started:
            server.wait_ready()
        if redis_url:
            layer = (
                f"Redis channel layer; API by gunicorn, sockets by {len(lives)} Daphne "
                f"process(es); {database}"
            )
        else:
            layer = f"in-memory channel layer; API and sockets by one Daphne; {database}"
        ports = {
            "lives": [(live.port, live.pid) for live in lives],
            "api": api.port,
            "pids": {server.name: server.pid for server in started},
        }
        result = asyncio.run(run_load(tables, args, ports))
        report(tables, result, last_events([t.pk for t in tables]), args, layer)
        for server in started:
            complaints = [
                line
                for line in server.log.read_text(errors="replace").splitlines()
                if "WARNING" in line or "ERROR" in line or "Traceback" in line
            ]
            print(f"  {server.name}'s log: {len(complaints)} warnings or errors")
            for line in complaints[:5]:
                print(f"    {line[:300]}")
            text = server.log.read_text(errors="replace")
            if "Traceback" in text:
                first = text[text.index("Traceback") :].splitlines()
                print("    the first traceback, its end:")
                for line in first[:60][-25:]:
                    print(f"      {line[:200]}")
    finally:
        for server in started:
            server.stop()
        from django.db import connections

        connections.close_all()
        if pg is not None:
            admin_sql(configured, f'DROP DATABASE IF EXISTS "{pg[1]}"')
        if redis_url:
            flush_redis(redis_url)
        folder.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
