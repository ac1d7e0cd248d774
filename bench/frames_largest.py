"""Replay frames of the largest logs Lantern accepts (LOG-LENGTH: 2,000 actions).

    .venv/bin/python bench/frames_largest.py [--repeat 5]

A log holds at most ``engine.core.envelope.MAX_ACTIONS`` actions (unbounded, a legal
Cloak & Dagger log could run forever: ``--before`` times a 38,000-action log straight
through ``build_frames``). For the longest logs of each kind that
are still accepted (random bots: they play far longer games than people do) this
stores the match and times, through Django's test client, what a browser asks for:
``GET /api/matches/{id}/frames?view=V`` (every move, the views of the first page),
the same with ``&ply=N`` (the last page's views), and ``/frames/views?view=V&page=k``
(a page from the middle), *cold* (the cache emptied first: the log is replayed and
one page of views built, ``replay.frames``) and *cached*, by the CPU time of this
process, the requests interleaved round by round, with the peak of Python allocations
(tracemalloc) of one cold request. Each timed request starts after a full garbage
collection: this process holds every log it plays, so a collection that happens to fall
in one request would charge it with the benchmark's own heap. ``--before`` also builds the whole
frames payload
of a 38,000-action log (random bots: what was accepted before the bound) straight
through ``replay.frames.build_frames``, for comparison. Target: <= 100 ms per request
of the largest accepted log, cold, and memory bounded by one page of views.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import add_quick  # noqa: E402
from bench.common.site import start_in_memory_site  # noqa: E402

start_in_memory_site()

from django.core.cache import cache  # noqa: E402
from django.test import Client  # noqa: E402

from clubs.models import Club  # noqa: E402
from engine import play  # noqa: E402
from engine.core.envelope import MAX_ACTIONS  # noqa: E402
from games.services import ingest_log  # noqa: E402
from replay.frames import build_frames, page_of  # noqa: E402

TARGET_MS = 100.0

#: (label, game, bots, seat viewed): the longest accepted logs of each kind.
LOGS = [
    ("cloak 2p, 2000 actions", "cloak-and-dagger", ["random"] * 2, "p1"),
    ("cloak 6p, 2000 actions", "cloak-and-dagger", ["random"] * 6, "p1"),
    ("mister-x 6p, longest", "mister-x", ["random"] * 6, "det1"),
]


def longest(game: str, bots: list[str], seeds: int = 6, max_actions: int = MAX_ACTIONS) -> dict:
    """The longest of a few seeds' games, at most ``max_actions`` actions."""
    logs = [play(game, seed, bots, max_actions=max_actions) for seed in range(seeds)]
    return json.loads(json.dumps(max(logs, key=lambda log: len(log["actions"]))))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--before", action="store_true", help="also a 38,000-action log")
    add_quick(parser)
    args = parser.parse_args()
    # --quick: two kinds of log, one seed each, at most 250 actions (three pages of views),
    # one round
    seeds, max_actions = (1, 250) if args.quick else (6, MAX_ACTIONS)
    logs = [LOGS[0], LOGS[2]] if args.quick else LOGS
    if args.quick:
        args.repeat = 1
    club = Club.objects.create(name="Bench", slug="bench")
    client = Client()
    cases = []
    for label, game, bots, seat in logs:
        log = longest(game, bots, seeds, max_actions)
        match = ingest_log(club, log, None)
        plies = len(log["actions"])
        for view in ("all", seat):
            name = f"{label:24} {plies:5} actions  {view:5}"
            base = f"/api/matches/{match.pk}/frames"
            # What a person's browser asks for: the frames with the page of the ply opened
            # (the setup, or the end), then further pages of views as they move.
            cases += [
                (f"{name} frames ply 0  ", f"{base}?view={view}"),
                (f"{name} frames ply {plies:<4}", f"{base}?view={view}&ply={plies}"),
                (
                    f"{name} views page {page_of(plies // 2):<3}",
                    f"{base}/views?view={view}&page={page_of(plies // 2)}",
                ),
            ]
    cold: dict[str, list[float]] = {name: [] for name, _ in cases}
    cached: dict[str, list[float]] = {name: [] for name, _ in cases}
    for _ in range(args.repeat):  # interleaved: one request of every case per round
        for name, url in cases:
            cache.clear()
            gc.collect()
            start = time.process_time()
            assert client.get(url, HTTP_ACCEPT_ENCODING="gzip").status_code == 200
            cold[name].append((time.process_time() - start) * 1000)
            gc.collect()
            start = time.process_time()
            assert client.get(url, HTTP_ACCEPT_ENCODING="gzip").status_code == 200
            cached[name].append((time.process_time() - start) * 1000)
    print(
        f"CPU ms per request, median / best of {args.repeat}; load average {os.getloadavg()[0]:.1f}"
    )
    worst, worst_cold, worst_peak = 0.0, 0.0, 0.0
    for name, url in cases:
        cache.clear()
        tracemalloc.start()
        response = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        worst = max(worst, statistics.median(cached[name]))
        worst_cold = max(worst_cold, statistics.median(cold[name]))
        worst_peak = max(worst_peak, peak)
        print(
            f"{name}  cold {statistics.median(cold[name]):6.1f} / {min(cold[name]):6.1f}  "
            f"cached {statistics.median(cached[name]):5.1f}  peak {peak / 2**20:5.1f} MiB  "
            f"sent {len(response.content) / 1024:6.0f} KB gzipped"
        )
    if args.before:
        import engine.core.envelope as envelope

        envelope.MAX_ACTIONS = 10**9  # no bound
        log = play("cloak-and-dagger", 2, ["random"] * 2, max_actions=38_000)
        for view in ("all", "p1"):
            tracemalloc.start()
            start = time.process_time()
            build_frames(log, view)
            spent = (time.process_time() - start) * 1000
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            print(
                f"before the bound: cloak 2p {len(log['actions'])} actions {view:4} "
                f"build_frames {spent:7.0f} ms  peak {peak / 2**20:6.1f} MiB"
            )
    verdict = "meets" if worst_cold <= TARGET_MS else "MISSES"
    print(
        f"cold (nothing cached): slowest median {worst_cold:.1f} CPU ms: {verdict} the "
        f"{TARGET_MS:.0f} ms target; peak {worst_peak / 2**20:.1f} MiB; cached: slowest median "
        f"{worst:.1f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
