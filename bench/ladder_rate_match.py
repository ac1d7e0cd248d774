"""Benchmark: rating one uploaded match (``ladder.rate_match`` -> ``apply_match``: the
newest match of its ladder, rated incrementally), the Celery worker's work per upload
(issue 12: 50 uploads/s on 2 cores, with 300 reads/s).

    .venv/bin/python bench/ladder_rate_match.py [--matches N] [--newest K] [--rounds R]
        [--worker]

Creates a throwaway database (``test_lantern_bench_rate_match``, or
``DATABASE_TEST_NAME``: never the test runner's), stores N matches of each rated game
for one club (bulk inserts, not timed) and rates them. Then, each round: the newest K
matches of each ladder are taken off it (voided, ladder recomputed, unvoided: not
timed) and rated again one by one with ``apply_match``, in playing order, the three
games interleaved, as uploads arrive. Prints per match: CPU of this process
(``time.process_time``), CPU of its PostgreSQL backend (/proc), wall time, queries.

``--worker`` (PostgreSQL and REDIS_URL): the same matches sent as ``rate_match`` tasks
to a real Celery worker (``celery -A config worker``, prefork, one pool process, JSON
logs at INFO as ``make prod`` runs it) on a queue of its own; prints the CPU of the
worker's processes and of their PostgreSQL backends per task.

At the end the stored ratings and history must equal a recompute from scratch, or the
benchmark fails.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Its own throwaway database: test runs on the same server use test_<name>.
os.environ.setdefault("DATABASE_TEST_NAME", "test_lantern_bench_rate_match")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

from bench.common import add_quick, postgres_backend_cpu_seconds, process_cpu_seconds  # noqa: E402
from bench.common.worker import CeleryWorker, database_url, process_tree  # noqa: E402

PLAYERS = 40
GAMES = ("cryptid-urban-legends", "mister-x", "cloak-and-dagger")


def seed(matches_per_game: int) -> list[int]:
    """One club, N matches of each game between PLAYERS players, one hour apart; returns
    the ladders' ids."""
    from clubs.models import Club, Player
    from games.models import Match, MatchLog, MatchSeat
    from ladder.models import Ladder

    rng = random.Random(12)
    club = Club.objects.create(name="Bench club", slug="bench-club")
    players = Player.objects.bulk_create(
        [Player(club=club, handle=f"p{i:03d}") for i in range(PLAYERS)]
    )
    start = datetime(2024, 1, 1, tzinfo=UTC)
    specs = []
    for n in range(matches_per_game * len(GAMES)):
        game = GAMES[n % len(GAMES)]
        pawns = None
        if game == "cryptid-urban-legends":
            seats = list(zip(["cryptid", "scientist"], rng.sample(players, 2), strict=True))
            winner = rng.choice(["cryptid", "scientist"])
        elif game == "mister-x":
            who = rng.sample(players, 3)
            seats = [("mrx", who[0]), ("det1", who[1]), ("det2", who[2])]
            winner = rng.choice(["mrx", "detectives"])
            pawns = {"det1": ["red", "blue", "green"], "det2": ["yellow", "black"]}
        else:
            who = rng.sample(players, rng.randint(2, 5))
            seats = [(f"p{i + 1}", p) for i, p in enumerate(who)]
            winner = rng.choice(seats)[0]
        specs.append((n, game, seats, winner, pawns, start + timedelta(hours=n)))
    stored = Match.objects.bulk_create(
        [
            Match(
                club=club,
                game=game,
                played_at=at,
                status="valid",
                winner=winner,
                result={"winner": winner},
                content_hash=f"{n:064x}",
            )
            for n, game, _, winner, _, at in specs
        ]
    )
    MatchSeat.objects.bulk_create(
        [
            MatchSeat(match=match, seat=seat, player=player)
            for match, (_, _, seats, _, _, _) in zip(stored, specs, strict=True)
            for seat, player in seats
        ]
    )
    MatchLog.objects.bulk_create(
        [
            MatchLog(
                match=match,
                document={
                    "format": "lantern-log/1",
                    "game": game,
                    "options": {"pawns": pawns} if pawns else {},
                },
            )
            for match, (_, game, _, _, pawns, _) in zip(stored, specs, strict=True)
        ]
    )
    return [Ladder.objects.create(club=club, game=game).pk for game in GAMES]


def take_off_newest(ladder_ids: list[int], newest: int) -> list[int]:
    """Unrate the newest matches of each ladder (void, recompute, unvoid: the ladder
    stands as before they were played); returns them in playing order."""
    from games.models import Match
    from ladder.models import Ladder
    from ladder.services import recompute_ladder

    taken = []
    for ladder in Ladder.objects.filter(pk__in=ladder_ids):
        ids = list(
            Match.objects.filter(club_id=ladder.club_id, game=ladder.game)
            .order_by("-played_at")
            .values_list("id", flat=True)[:newest]
        )
        Match.objects.filter(id__in=ids).update(is_void=True)
        recompute_ladder(ladder.pk)
        Match.objects.filter(id__in=ids).update(is_void=False)
        taken += ids
    return list(
        Match.objects.filter(id__in=taken).order_by("played_at").values_list("id", flat=True)
    )


def rate_in_process(match_ids: list[int]) -> str:
    from ladder.services import Outcome, apply_match

    queries = 0

    def count(execute, sql, params, many, context):
        nonlocal queries
        queries += sql != "BEGIN"  # SQLite's BEGIN is a statement, PostgreSQL's is not
        return execute(sql, params, many, context)

    server = postgres_backend_cpu_seconds(connection)
    wall, cpu = time.perf_counter(), time.process_time()
    with connection.execute_wrapper(count):
        outcomes = [apply_match(match_id) for match_id in match_ids]
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    if server is not None:
        server = postgres_backend_cpu_seconds(connection) - server
    assert outcomes == [Outcome.RATED] * len(match_ids), outcomes
    n = len(match_ids)
    return (
        f"{cpu / n * 1000:.2f} ms CPU"
        + (f" + {server / n * 1000:.2f} ms PostgreSQL" if server is not None else "")
        + f", {wall / n * 1000:.2f} ms wall, {queries / n:.1f} queries + BEGIN and COMMIT"
        " per match"
    )


def proc_cpu_seconds(pid: int) -> float:
    return process_cpu_seconds(pid) or 0.0


def sessions_opened() -> int:
    """Connections ever opened to this database (PostgreSQL's statistics: a second or so
    behind)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute("SELECT sessions FROM pg_stat_database WHERE datname = current_database()")
        return cursor.fetchone()[0]


def other_backends() -> list[int]:
    """PostgreSQL backends on this database other than this process's (the worker's)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid()"
        )
        return [row[0] for row in cursor.fetchall()]


class Worker:
    """``celery -A config worker`` (prefork, one pool process) on a queue of its own,
    against the benchmark's database."""

    def __init__(self, log: Path) -> None:
        self.queue = f"bench-rate-match-{os.getpid()}"
        self.log = log
        self.worker = CeleryWorker(
            database_url=database_url(connection.settings_dict),
            queues=self.queue,
            hostname=self.queue,
            log=log,
        )
        self.process = self.worker.process

    def rate(self, match_ids: list[int]) -> str:
        from ladder.models import RatingChange
        from ladder.tasks import rate_match

        def done() -> int:
            return (
                RatingChange.objects.filter(match_id__in=match_ids)
                .order_by()
                .values("match_id")
                .distinct()
                .count()
            )

        processes, backends = process_tree(self.process.pid), other_backends()
        sessions = sessions_opened()
        worker = sum(map(proc_cpu_seconds, processes))
        server = sum(map(proc_cpu_seconds, backends))
        wall = time.perf_counter()
        for match_id in match_ids:
            rate_match.apply_async((match_id,), queue=self.queue, ignore_result=True)
        deadline = time.monotonic() + 300
        while done() < len(match_ids):
            if time.monotonic() > deadline:
                raise SystemExit(f"the worker did not rate them:\n{self.log.read_text()[-3000:]}")
            time.sleep(0.05)
        wall = time.perf_counter() - wall
        time.sleep(0.3)  # the last task's acknowledgement and log lines
        worker = sum(map(proc_cpu_seconds, processes)) - worker
        server = sum(map(proc_cpu_seconds, backends)) - server
        time.sleep(1.5)  # statistics are sent at most once a second
        sessions = sessions_opened() - sessions
        # A pool process or a connection that went away took its CPU figure with it.
        note = (
            ""
            if process_tree(self.process.pid) == processes
            else (" (a pool process was replaced: figure incomplete)")
        )
        n = len(match_ids)
        return (
            f"{worker / n * 1000:.2f} ms CPU in the worker's processes{note}, "
            f"{sessions / n:.2f} new database connections per task, "
            + (
                f"{server / n * 1000:.2f} ms CPU in the worker's PostgreSQL backend"
                if sessions == 0
                else "PostgreSQL CPU not measured (connections came and went)"
            )
            + f" per task; {n / wall:.0f} tasks/s"
        )

    def stop(self) -> None:
        self.worker.stop()


def snapshot(ladder_ids: list[int]) -> tuple[list, list]:
    from ladder.models import Rating, RatingChange

    return (
        list(
            RatingChange.objects.filter(ladder_id__in=ladder_ids)
            .order_by("ladder_id", "sequence", "player_id")
            .values_list(
                "ladder_id",
                "match_id",
                "sequence",
                "played_at",
                "player_id",
                "role",
                "before",
                "after",
                "expected",
                "score",
                "k",
                "weight",
                "advantage",
                "opponent_rating",
                "won",
            )
        ),
        list(
            Rating.objects.filter(ladder_id__in=ladder_ids)
            .order_by("ladder_id", "player_id")
            .values_list(
                "ladder_id",
                "player_id",
                "rating",
                "games",
                "wins",
                "losses",
                "roles",
                "provisional",
                "last_played_at",
            )
        ),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000, help="per game (default 1000)")
    parser.add_argument(
        "--newest",
        type=int,
        default=100,
        help="matches of each ladder rated per round (default 100)",
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--worker",
        action="store_true",
        help="also through a real Celery worker (PostgreSQL and REDIS_URL)",
    )
    add_quick(parser)
    args = parser.parse_args()
    if args.quick:
        args.matches, args.newest, args.rounds = 60, 10, 1
    if args.worker and (connection.vendor != "postgresql" or not settings.REDIS_URL):
        raise SystemExit("--worker needs DATABASE_URL (PostgreSQL) and REDIS_URL")

    setup_test_environment()
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    worker = None
    try:
        from ladder.services import recompute_ladder

        ladder_ids = seed(args.matches)
        for ladder_id in ladder_ids:
            recompute_ladder(ladder_id)
        print(
            f"{connection.vendor} ({connection.settings_dict['NAME']}): {args.matches:,} "
            f"matches of each of {len(GAMES)} games, {PLAYERS} players; rating the newest "
            f"{args.newest} of each ladder, {args.rounds} rounds"
        )
        if args.worker:
            worker = Worker(Path(f"/tmp/bench-rate-match-worker-{os.getpid()}.log"))
            worker.rate(take_off_newest(ladder_ids, 1))  # its first connection, not timed
        for round_ in range(1, args.rounds + 1):
            match_ids = take_off_newest(ladder_ids, args.newest)
            figures = rate_in_process(match_ids)
            print(
                f"  round {round_}: apply_match, {len(match_ids)} matches: {figures}; "
                f"load average {os.getloadavg()[0]:.1f}"
            )
            if worker is not None:
                match_ids = take_off_newest(ladder_ids, args.newest)
                figures = worker.rate(match_ids)
                print(
                    f"  round {round_}: Celery worker, {len(match_ids)} rate_match tasks: "
                    f"{figures}; load average {os.getloadavg()[0]:.1f}"
                )
        rated = snapshot(ladder_ids)
        for ladder_id in ladder_ids:
            recompute_ladder(ladder_id)
        if snapshot(ladder_ids) != rated:
            raise SystemExit("FAILED: the ratings rated one by one differ from a recompute")
        print("  the ratings equal a recompute from scratch")
    finally:
        if worker is not None:
            worker.stop()
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
