"""Ingest throughput: matches per second through ``games.services.ingest_log``.

    .venv/bin/python bench/ingest.py [--per-game 150]

Bot-played logs (greedy bots, every game the engine has, the same logs every
run) are generated first, outside the timing. Then each database ingests all of
them one by one, exactly as the API does: bytes in, size check, JSON parse,
handle mapping (unknown handles created: the uploader is the site), replay
through the engine, content hash, and one transaction per match (match, seats,
log, upload record), and whatever follows a new match enqueued on commit (into an
in-memory broker: a worker's job is not ingesting). Nothing is batched. Then the
same logs again as one bulk import (``run_import``: still ``ingest_log`` per log,
but one transaction per batch of logs, so the journal is synced to disk once per
batch instead of once per match, the batch's seats, logs and upload records are
inserted together, and one rating task is queued per batch).

Databases: SQLite (a fresh file in a temporary folder) always; PostgreSQL too
when DATABASE_URL points at it — a throw-away database ``<name>_bench`` is
created beside it and dropped afterwards. Each runs in its own process.

Figures: matches per second by wall clock (what a client sees, on this shared
machine) and by CPU time, per game and overall, with the load average. CPU time
is this process's (``time.process_time``: the Python side's cost, undisturbed by
other work) and, on PostgreSQL, also that of the server process serving this
connection (read from /proc when the server runs on this machine): "CPU, both"
is matches per second of the two together, which is what the machine's cores
would sustain unshared. It leaves out only the waits: for the disk (one fsync per
committed transaction) and for the cores while other work runs. The queries one
new match and one duplicate cost are counted too. Target (issue 6): at least 200
matches/s on PostgreSQL.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_PER_SECOND = 200.0
IMPORT_BATCH = 50  # games.services.IMPORT_BATCH; printed only (the parent never imports Django)


def generate(path: Path, per_game: int) -> dict[str, int]:
    sys.path.insert(0, str(ROOT))
    import engine
    from engine import bots_of

    counts = {}
    with path.open("w") as out:
        for game_id in sorted(engine.all_games()):
            game = engine.get_game(game_id)
            seat_count = 3 if game_id != "cryptid-urban-legends" else 2
            seats = game.seat_ids(game.normalize_options({}), seat_count)
            bot = "greedy" if "greedy" in bots_of(game) else sorted(bots_of(game))[0]
            for seed in range(per_game):
                log = engine.play(
                    game_id,
                    seed,
                    [bot] * len(seats),
                    players=[f"p{(seed + i) % 12}" for i in range(len(seats))],
                )
                out.write(json.dumps(log, separators=(",", ":")) + "\n")
            counts[game_id] = per_game
    return counts


def queries_of(connection, action) -> int:
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        action()
    return len(captured.captured_queries)


def measure(database_url: str, logs_path: Path) -> dict:
    """Runs in a child process whose DATABASE_URL is ``database_url`` (already set)."""
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from bench.common import postgres_backend_cpu_seconds
    from config.celery import app

    # What ingest_log enqueues on commit (rating the match) is sent to an in-memory
    # broker, as it would go to Redis for a worker: the enqueue is measured, the
    # worker's job is not part of ingesting.
    app.conf.task_always_eager = False
    app.conf.broker_url = "memory://"

    from clubs.models import Club
    from games.models import Match
    from games.services import create_import, ingest_log, run_import

    call_command("migrate", verbosity=0)
    club = Club.objects.create(name="Bench", slug="bench")
    lines = logs_path.read_bytes().splitlines()
    games = [json.loads(line)["game"] for line in lines]

    # Warm-up: imports, first queries, the engine's caches; not counted.
    warm = Club.objects.create(name="Warm", slug="warm")
    for line in lines[:: max(1, len(lines) // 20)]:
        ingest_log(warm, line, None)

    # Queries per log (its players already known), on a log the warm-up did not store.
    queries_new = queries_of(connection, lambda: ingest_log(warm, lines[1], None))
    queries_duplicate = queries_of(connection, lambda: ingest_log(warm, lines[1], None))

    per_game: dict[str, list[float]] = {}
    start_server = postgres_backend_cpu_seconds(connection)
    start_cpu, start_wall = time.process_time(), time.perf_counter()
    for game_id, line in zip(games, lines, strict=True):
        t_cpu, t_wall = time.process_time(), time.perf_counter()
        match = ingest_log(club, line, None)
        assert match.created, "a bench log was already stored"
        stats = per_game.setdefault(game_id, [0, 0.0, 0.0])
        stats[0] += 1
        stats[1] += time.process_time() - t_cpu
        stats[2] += time.perf_counter() - t_wall
    cpu, wall = time.process_time() - start_cpu, time.perf_counter() - start_wall
    server = _since(postgres_backend_cpu_seconds(connection), start_server)
    assert Match.objects.filter(club=club).count() == len(lines)

    # The same logs as one bulk import into another club: ingest_log per log, batched
    # transactions (games.services.IMPORT_BATCH).
    season = Club.objects.create(name="Season", slug="season")
    run = create_import(season, b"\n".join(lines), "bench.jsonl", None, enqueue=False)
    import_server = postgres_backend_cpu_seconds(connection)
    import_cpu, import_wall = time.process_time(), time.perf_counter()
    run = run_import(run.pk)
    import_cpu, import_wall = time.process_time() - import_cpu, time.perf_counter() - import_wall
    import_server = _since(postgres_backend_cpu_seconds(connection), import_server)
    assert (run.status, run.accepted) == ("done", len(lines)), (run.status, run.error)
    return {
        "queries_new": queries_new,
        "queries_duplicate": queries_duplicate,
        "server_cpu_s": server,
        "import_server_cpu_s": import_server,
        "import_wall_s": import_wall,
        "import_cpu_s": import_cpu,
        "vendor": connection.vendor,
        "matches": len(lines),
        "wall_s": wall,
        "cpu_s": cpu,
        "per_game": per_game,
        "bytes": sum(len(line) for line in lines),
    }


def _since(now: float | None, start: float | None) -> float | None:
    return None if now is None or start is None else now - start


def run_child(database_url: str, logs_path: Path) -> dict:
    env = dict(os.environ, DATABASE_URL=database_url, DB_CONN_MAX_AGE="0")
    env.pop("REDIS_URL", None)  # no Redis cache or broker: see measure()
    output = subprocess.run(
        [sys.executable, __file__, "--child", str(logs_path)],
        env=env,
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
    ).stdout
    return json.loads(output.strip().splitlines()[-1])


def postgres_bench_url(url: str) -> tuple[str, str, str] | None:
    """(admin url, bench url, bench database name) when ``url`` is PostgreSQL."""
    if not url.startswith(("postgres://", "postgresql://")):
        return None
    base, _, name = url.rpartition("/")
    name = name.split("?")[0]
    return url, f"{base}/{name}_bench", f"{name}_bench"


def admin_sql(url: str, sql: str) -> None:
    import psycopg

    with psycopg.connect(url.replace("postgres://", "postgresql://", 1), autocommit=True) as conn:
        conn.execute(sql)


def _both(matches: int, client_cpu: float, server_cpu: float | None) -> str:
    if server_cpu is None:
        return ""
    return (
        f", {matches / (client_cpu + server_cpu):7.1f} matches/s by CPU, both "
        f"(server {1000 * server_cpu / matches:.2f} ms per match)"
    )


def report(label: str, result: dict) -> tuple[float, float]:
    matches = result["matches"]
    rate = matches / result["wall_s"]
    print(
        f"\n{label} ({matches} matches, {result['bytes'] / 1e6:.1f} MB of logs; "
        f"{result['queries_new']} queries per new match, "
        f"{result['queries_duplicate']} per duplicate)"
    )
    print(
        f"  one by one: {rate:7.1f} matches/s wall clock, "
        f"{matches / result['cpu_s']:7.1f} matches/s by CPU (this process)"
        f"{_both(matches, result['cpu_s'], result['server_cpu_s'])}"
    )
    for game_id, (count, cpu, wall) in sorted(result["per_game"].items()):
        print(
            f"  {game_id:24} {count:5} matches  {count / wall:7.1f}/s wall  "
            f"{count / cpu:7.1f}/s CPU  ({1000 * wall / count:.2f} ms each)"
        )
    bulk = matches / result["import_wall_s"]
    print(
        f"  bulk import (one transaction per {IMPORT_BATCH} logs): {bulk:7.1f} matches/s wall "
        f"clock, {matches / result['import_cpu_s']:7.1f} matches/s by CPU (this process)"
        f"{_both(matches, result['import_cpu_s'], result['import_server_cpu_s'])}"
    )
    return rate, bulk


def main() -> int:
    sys.path.insert(0, str(ROOT))
    from bench.common import add_quick

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--per-game", type=int, default=150)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    add_quick(parser)
    args = parser.parse_args()
    if args.quick:
        args.per_game = 5
    if args.child:
        print(json.dumps(measure(os.environ["DATABASE_URL"], Path(args.child))))
        return 0

    with tempfile.TemporaryDirectory() as tmp:
        logs = Path(tmp) / "logs.jsonl"
        started = time.perf_counter()
        counts = generate(logs, args.per_game)
        print(
            f"generated {sum(counts.values())} bot-played logs "
            f"({', '.join(f'{g}: {n}' for g, n in counts.items())}) "
            f"in {time.perf_counter() - started:.1f} s"
        )
        print(f"load average before: {os.getloadavg()[0]:.2f} (2 cores shared)")

        report("SQLite (file)", run_child(f"sqlite:///{tmp}/bench.sqlite3", logs))

        pg = postgres_bench_url(os.environ.get("DATABASE_URL", ""))
        if pg is None:
            print("\nPostgreSQL: skipped (DATABASE_URL does not point at PostgreSQL)")
        else:
            admin_url, bench_url, bench_name = pg
            admin_sql(admin_url, f'DROP DATABASE IF EXISTS "{bench_name}"')
            admin_sql(admin_url, f'CREATE DATABASE "{bench_name}"')
            try:
                rates = report("PostgreSQL", run_child(bench_url, logs))
            finally:
                admin_sql(admin_url, f'DROP DATABASE IF EXISTS "{bench_name}"')
            for label, rate in zip(("one by one", "bulk import"), rates, strict=True):
                verdict = "meets" if rate >= TARGET_PER_SECOND else "MISSES"
                print(
                    f"  {label}: {verdict} the target of {TARGET_PER_SECOND:.0f} matches/s (wall "
                    f"clock)"
                )
        print(f"\nload average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
