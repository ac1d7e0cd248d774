"""Benchmark: one long game's analysis shared by workers (issue 33 item 5), through the
site's own path: ``request_analysis`` -> ``analysis.analyse_match`` on the ``analysis``
queue -> its first chunks of plies sent on that queue (LANTERN_ANALYSIS_CHUNKS_AT_ONCE,
2), each chunk stored sending the next -> the last one merges them. Timed with one worker
process, then with two (each of concurrency 1: one process per core of a 2-core machine,
as two machines' workers would share the game); a window smaller than the workers would
leave one idle, so the benchmark refuses one.

    .venv/bin/python bench/analysis_workers.py [--game G --seed S --bots B,B,..]
        [--rounds N] [--redis-db N]

Needs PostgreSQL (``DATABASE_URL``) and Redis (``REDIS_URL``; ``make services``). Creates
a throwaway database (``test_lantern_bench_analysis_workers``) and uses a Redis database
of its own (``--redis-db``, default 12), so no other worker on the machine takes its
tasks. The game is chosen before the run (a bot game of the given seed). Each round runs
one worker, then two (interleaved when repeated); each prints the wall time from the
request to the stored analysis, the CPU of the workers' processes, the load average.
The stored analyses of every run must be the same bytes (JSON), or the benchmark fails.

``--quick`` (no worker; ``make test``): a short game at a small budget through the same
path run in this process (Celery eager), the stored analysis compared with the engine's.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DATABASE_TEST_NAME", "test_lantern_bench_analysis_workers")

QUICK = "--quick" in sys.argv
if QUICK:
    os.environ.pop("REDIS_URL", None)  # Celery eager: the path runs in this process


def redis_db_url(url: str, db: int) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{db}"))


def _redis_db_argument() -> int:
    if "--redis-db" in sys.argv:
        return int(sys.argv[sys.argv.index("--redis-db") + 1])
    return 12


if os.environ.get("REDIS_URL"):
    os.environ["REDIS_URL"] = redis_db_url(os.environ["REDIS_URL"], _redis_db_argument())

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

from bench.common import add_quick, process_cpu_seconds  # noqa: E402
from bench.common.worker import CeleryWorker, database_url  # noqa: E402

#: Cloak & Dagger, four seats, seed 2: 123 actions, so 124 plies in four chunks of 32
#: (the last 28): the longest game of the first 300 seeds with these bots under 135.
GAME, SEED, BOTS = "cloak-and-dagger", 2, "greedy,random,greedy,random"


def stored_game(game: str, seed: int, bots: list[str]):
    from clubs.models import Club
    from engine import play
    from games.services import ingest_log

    club = Club.objects.create(name="Bench club", slug="bench-analysis-workers")
    return ingest_log(club, play(game, seed, bots), None)


def analyse(match, timeout: float) -> tuple[str, float, int]:
    """Ask for the match's analysis (the site's path) and wait until it is stored:
    its result as canonical JSON, the wall seconds, the chunks it was made of."""
    from analysis import services
    from analysis.models import MatchAnalysis
    from engine import analysis_chunks, replay

    MatchAnalysis.objects.filter(match=match).delete()
    wall = time.perf_counter()
    analysis = services.request_analysis(match, None)
    deadline = time.monotonic() + timeout
    while True:
        analysis.refresh_from_db()
        if analysis.status == MatchAnalysis.Status.DONE:
            break
        if analysis.status == MatchAnalysis.Status.FAILED or time.monotonic() > deadline:
            raise SystemExit(f"FAILED: the analysis is {analysis.status}: {analysis.error}")
        time.sleep(0.2)
    wall = time.perf_counter() - wall
    chunks = len(analysis_chunks(replay(match.log.document)))
    return json.dumps(analysis.result, sort_keys=True), wall, chunks


def with_workers(match, count: int, timeout: float) -> tuple[str, float, float, int]:
    """The analysis with ``count`` worker processes (concurrency 1 each) on the analysis
    queue: its JSON, wall seconds, CPU seconds of the workers' processes, chunks."""
    workers = []
    try:
        for n in range(count):
            name = f"bench-analysis-{os.getpid()}-{n}"
            workers.append(
                CeleryWorker(
                    database_url=database_url(connection.settings_dict),
                    queues="analysis",
                    hostname=name,
                    log=Path(f"/tmp/{name}.log"),
                    # as docs/operations.md runs an analysis host: one task at a time,
                    # the next taken only when it is done
                    options=("--prefetch-multiplier=1", "-O", "fair"),
                    REDIS_URL=settings.REDIS_URL,
                )
            )
        pids = [pid for worker in workers for pid in worker.processes()]
        cpu = sum(process_cpu_seconds(pid) or 0.0 for pid in pids)
        result, wall, chunks = analyse(match, timeout)
        time.sleep(0.5)  # the last task's acknowledgement
        cpu = sum(process_cpu_seconds(pid) or 0.0 for pid in pids) - cpu
        ran = [
            sum(
                "analysis.analyse_chunk[" in line and "succeeded" in line
                for line in worker.log.read_text().splitlines()
            )
            for worker in workers
        ]
        print(f"    chunks run per worker: {ran}", flush=True)
        return result, wall, cpu, chunks
    finally:
        for worker in workers:
            worker.stop()


def quick() -> int:
    from analysis.chunking import SEED as ANALYSIS_SEED
    from analysis.models import MatchAnalysis
    from engine import analyse as engine_analyse
    from engine import replay

    # the analysis task runs inline when its request commits (not in a thread beside)
    settings.LANTERN_EAGER_BESIDE = ()
    settings.LANTERN_ANALYSIS_BUDGET = 2
    match = stored_game("cryptid-urban-legends", 9, ["greedy", "greedy"])
    result, wall, chunks = analyse(match, timeout=120)
    budget = MatchAnalysis.objects.get(match=match).budget
    expected = engine_analyse(replay(match.log.document), budget=budget, seed=ANALYSIS_SEED)
    same = result == json.dumps(expected, sort_keys=True)
    print(
        f"quick, in this process: {len(match.log.document['actions'])} actions, {chunks} "
        f"chunks, {wall:.1f} s; the engine's analysis: {'same' if same else 'DIFFERENT'}"
    )
    return 0 if same else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default=GAME)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--bots", default=BOTS, help="one bot a seat, comma separated")
    parser.add_argument("--rounds", type=int, default=1, help="1 then 2 workers, N times")
    parser.add_argument("--redis-db", type=int, default=12, help="the Redis database used")
    parser.add_argument("--timeout", type=float, default=3600, help="seconds per analysis")
    add_quick(parser)
    args = parser.parse_args()
    setup_test_environment()
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        if args.quick:
            return quick()
        if connection.vendor != "postgresql" or not settings.REDIS_URL:
            raise SystemExit("needs DATABASE_URL (PostgreSQL) and REDIS_URL")
        if settings.LANTERN_ANALYSIS_CHUNKS_AT_ONCE < 2:
            raise SystemExit("LANTERN_ANALYSIS_CHUNKS_AT_ONCE under 2 leaves a worker idle")
        match = stored_game(args.game, args.seed, args.bots.split(","))
        print(
            f"{args.game}, seed {args.seed} ({args.bots}): "
            f"{len(match.log.document['actions'])} actions; Redis {settings.REDIS_URL}"
        )
        results, walls = set(), {1: [], 2: []}
        for round_ in range(1, args.rounds + 1):
            for count in (1, 2):
                before = os.getloadavg()[0]
                result, wall, cpu, chunks = with_workers(match, count, args.timeout)
                results.add(result)
                walls[count].append(wall)
                print(
                    f"  round {round_}, {count} worker{'s' if count > 1 else ''}: {chunks} "
                    f"chunks, {wall:6.1f} s wall, {cpu:6.1f} s CPU in the workers; load "
                    f"average {before:.1f} before, {os.getloadavg()[0]:.1f} after; "
                    f"{len(result):,} bytes stored",
                    flush=True,
                )
        one, two = min(walls[1]), min(walls[2])
        print(f"best wall time: one worker {one:.1f} s, two {two:.1f} s: speed-up {one / two:.2f}")
        if len(results) != 1:
            print("FAILED: the runs stored different analyses")
            return 1
        print("every run stored the same analysis (byte-equal JSON)")
        return 0
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    raise SystemExit(main())
