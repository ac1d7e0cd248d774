"""Benchmark: a full ladder recompute from the database (target: 100,000 matches <= 60 s
on PostgreSQL; bulk reads and writes, no query per row).

    DATABASE_URL=postgres://... .venv/bin/python bench/ladder_recompute.py [--matches N]
        [--game mister-x|cryptid-urban-legends|cloak-and-dagger]

Creates a throwaway database (``test_lantern_bench_ladder_recompute``, or
``DATABASE_TEST_NAME``: never the test runner's), stores N
synthetic matches of one club and game with bulk inserts (not timed), then times
``ladder.services.recompute_ladder`` — read, rate every match, swap the ratings and
the full history in — and a second run (idempotence: the same numbers). Prints the
database, the counts and the seconds; drops the database at the end.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Its own throwaway database: test runs on the same server use test_<name>.
os.environ.setdefault("DATABASE_TEST_NAME", "test_lantern_bench_ladder_recompute")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

from bench.common import add_quick, postgres_backend_cpu_seconds  # noqa: E402

PLAYERS = 600


def seed(game: str, count: int) -> int:
    from clubs.models import Club, Player
    from games.models import Match, MatchLog, MatchSeat
    from ladder.models import Ladder

    rng = random.Random(100_000)
    club = Club.objects.create(name="Bench club", slug="bench-club")
    players = Player.objects.bulk_create(
        [Player(club=club, handle=f"p{i:04d}") for i in range(PLAYERS)], batch_size=5000
    )
    start = datetime(2020, 1, 1, tzinfo=UTC)
    batch = 10_000
    for first in range(0, count, batch):
        size = min(batch, count - first)
        specs = []
        for n in range(first, first + size):
            if game == "cryptid-urban-legends":
                who = rng.sample(players, 2)
                seats = list(zip(["cryptid", "scientist"], who, strict=True))
                winner, pawns = rng.choice(["cryptid", "scientist"]), None
            elif game == "mister-x":
                k = rng.randint(1, 5)
                who = rng.sample(players, k + 1)
                seats = [("mrx", who[0])] + [(f"det{i}", p) for i, p in enumerate(who[1:], 1)]
                colours = ["red", "blue", "green", "yellow", "black"]
                base, extra = divmod(5, k)
                pawns, at = {}, 0
                for i in range(k):
                    size_i = base + (1 if i < extra else 0)
                    pawns[f"det{i + 1}"] = colours[at : at + size_i]
                    at += size_i
                winner = rng.choice(["mrx", "detectives"])
            else:
                who = rng.sample(players, rng.randint(2, 6))
                seats = [(f"p{i + 1}", p) for i, p in enumerate(who)]
                winner, pawns = rng.choice(seats)[0], None
            played = start + timedelta(minutes=rng.randrange(count * 10))
            specs.append((n, seats, winner, pawns, played))
        matches = Match.objects.bulk_create(
            [
                Match(
                    club=club,
                    game=game,
                    played_at=played,
                    status="valid",
                    winner=winner,
                    result={"winner": winner},
                    content_hash=f"{n:064x}",
                )
                for n, _, winner, _, played in specs
            ],
            batch_size=5000,
        )
        MatchSeat.objects.bulk_create(
            [
                MatchSeat(match=m, seat=seat, player=p)
                for m, (_, seats, _, _, _) in zip(matches, specs, strict=True)
                for seat, p in seats
            ],
            batch_size=5000,
        )
        MatchLog.objects.bulk_create(
            [
                MatchLog(
                    match=m,
                    document={
                        "format": "lantern-log/1",
                        "game": game,
                        "options": {"pawns": pawns} if pawns else {},
                    },
                )
                for m, (_, _, _, pawns, _) in zip(matches, specs, strict=True)
            ],
            batch_size=5000,
        )
    return Ladder.objects.create(club=club, game=game).pk


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--matches",
        type=int,
        default=None,
        help="default 100,000 on PostgreSQL (the target), 20,000 on other databases",
    )
    parser.add_argument(
        "--game",
        default="mister-x",
        choices=["mister-x", "cryptid-urban-legends", "cloak-and-dagger"],
    )
    add_quick(parser)
    args = parser.parse_args()

    if args.quick:
        args.matches = 1_000
    if args.matches is None:
        args.matches = 100_000 if connection.vendor == "postgresql" else 20_000
    setup_test_environment()
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        from ladder.models import RatingChange
        from ladder.services import recompute as recompute_module
        from ladder.services import recompute_ladder

        spent: dict[str, float] = {}

        def timed(name, function):
            def wrapper(*args, **kwargs):
                start = time.perf_counter()
                try:
                    return function(*args, **kwargs)
                finally:
                    spent[name] = spent.get(name, 0.0) + time.perf_counter() - start

            return wrapper

        # Where the time goes: reading, the whole in-memory computation (reading
        # included), and the swap (delete, COPY, ratings, commit). Wrapped in the module
        # that calls them, where the names are looked up.
        for name, label in (
            ("read_matches", "read"),
            ("compute_ladder", "compute"),
            ("swap_in", "swap"),
        ):
            setattr(recompute_module, name, timed(label, getattr(recompute_module, name)))

        t = time.perf_counter()
        ladder_id = seed(args.game, args.matches)
        seeded = time.perf_counter() - t
        print(
            f"{connection.vendor} ({connection.settings_dict['NAME']}): seeded "
            f"{args.matches:,} {args.game} matches in {seeded:.1f} s (not timed)"
        )
        for run in ("first", "again"):
            spent.clear()
            server = postgres_backend_cpu_seconds(connection)
            t, cpu = time.perf_counter(), time.process_time()
            job = recompute_ladder(ladder_id)
            elapsed, cpu = time.perf_counter() - t, time.process_time() - cpu
            if (
                server is not None
                and (after := postgres_backend_cpu_seconds(connection)) is not None
            ):
                server = after - server
            changes = RatingChange.objects.filter(ladder_id=ladder_id).count()
            print(
                f"ladder recompute [{run}]: {job.total:,} matches, {changes:,} rating changes "
                f"in {elapsed:.1f} s wall ({cpu:.1f} s CPU in this process"
                + (f", {server:.1f} s CPU in the PostgreSQL backend" if server is not None else "")
                + f"; load average {os.getloadavg()[0]:.1f}); target 100,000 in <= 60 s on "
                f"PostgreSQL"
            )
            missing = {"read", "compute", "swap"} - set(spent)
            if missing:  # a phase no longer goes through the wrapped function
                raise SystemExit(f"the recompute never called the timed {sorted(missing)}")
            print(
                "    read {read:.1f} s, read + rate {compute:.1f} s, swap in {swap:.1f} s".format(
                    **spent
                )
            )
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
