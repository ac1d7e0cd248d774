"""Replay frames of the largest logs Lantern accepts (LOG-LENGTH: 2,000 actions).

    .venv/bin/python bench/frames_largest.py [--repeat 5]

Issue #17: a legal Cloak & Dagger log could run forever, and a 38,000-action log cost
3.5 s of CPU and ~55 MB per frames view. Now a log holds at most
``engine.core.envelope.MAX_ACTIONS`` actions. For the longest logs of each kind that
are still accepted (random bots: they play far longer games than people do) this
stores the match and times ``GET /api/matches/{id}/frames?view=V`` through Django's
test client: *cold* (the cached payload deleted first: the log is replayed and every
frame's view built) and *cached*, by the CPU time of this process, the requests of the
different logs interleaved round by round, with the peak of Python allocations
(tracemalloc) of one cold request. ``--before`` also builds the frames of a
38,000-action log (random bots, up to 38,000: what was accepted before the bound) straight through
``replay.frames.build_frames``, for comparison. Target: ≤ 100 ms per view of the
largest accepted log: a match of ``games.services.ingest.WARM_FRAMES_FROM`` actions or more has
every perspective's frames built by a worker once it is stored, so what a viewer's
request costs is the *cached* figure; *cold* is what rebuilding costs when the cache
has lost a payload (or after a rules version change).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ["DATABASE_URL"] = "sqlite://:memory:"

import django  # noqa: E402

django.setup()

from django.core.cache import cache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

from clubs.models import Club  # noqa: E402
from config.celery import app as celery_app  # noqa: E402
from engine import play  # noqa: E402
from engine.core.envelope import MAX_ACTIONS  # noqa: E402
from games.services import ingest_log  # noqa: E402
from replay.frames import build_frames  # noqa: E402
from replay.selectors import frames_cache_key  # noqa: E402

TARGET_MS = 100.0

#: (label, game, bots, seat viewed): the longest accepted logs of each kind.
LOGS = [
    ("cloak 2p, 2000 actions", "cloak-and-dagger", ["random"] * 2, "p1"),
    ("cloak 6p, 2000 actions", "cloak-and-dagger", ["random"] * 6, "p1"),
    ("mister-x 6p, longest", "mister-x", ["random"] * 6, "det1"),
]


def longest(game: str, bots: list[str]) -> dict:
    """The longest of a few seeds' games, at most MAX_ACTIONS actions."""
    logs = [play(game, seed, bots, max_actions=MAX_ACTIONS) for seed in range(6)]
    return json.loads(json.dumps(max(logs, key=lambda log: len(log["actions"]))))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--before", action="store_true", help="also a 38,000-action log")
    args = parser.parse_args()
    celery_app.conf.task_always_eager = True
    logging.getLogger("celery").setLevel(logging.WARNING)
    call_command("migrate", verbosity=0)
    club = Club.objects.create(name="Bench", slug="bench")
    client = Client()
    cases = []
    for label, game, bots, seat in LOGS:
        log = longest(game, bots)
        match = ingest_log(club, log, None)
        for view in ("all", seat):
            cases.append((f"{label:24} {len(log['actions']):5} actions  {view:5}",
                          f"/api/matches/{match.pk}/frames?view={view}", frames_cache_key(match, view)))
    cold: dict[str, list[float]] = {name: [] for name, _, _ in cases}
    cached: dict[str, list[float]] = {name: [] for name, _, _ in cases}
    for _ in range(args.repeat):  # interleaved: one request of every case per round
        for name, url, key in cases:
            cache.delete(key)
            start = time.process_time()
            assert client.get(url, HTTP_ACCEPT_ENCODING="gzip").status_code == 200
            cold[name].append((time.process_time() - start) * 1000)
            start = time.process_time()
            assert client.get(url, HTTP_ACCEPT_ENCODING="gzip").status_code == 200
            cached[name].append((time.process_time() - start) * 1000)
    print(f"CPU ms per request, median / best of {args.repeat}; load average {os.getloadavg()[0]:.1f}")
    worst, worst_cold = 0.0, 0.0
    for name, url, key in cases:
        cache.delete(key)
        tracemalloc.start()
        response = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        worst = max(worst, statistics.median(cached[name]))
        worst_cold = max(worst_cold, statistics.median(cold[name]))
        print(f"{name}  cold {statistics.median(cold[name]):6.1f} / {min(cold[name]):6.1f}  "
              f"cached {statistics.median(cached[name]):5.1f}  peak {peak / 2**20:5.1f} MiB  "
              f"sent {len(response.content) / 1024:6.0f} KB gzipped")
    if args.before:
        import engine.core.envelope as envelope

        envelope.MAX_ACTIONS = 10**9  # as before the bound
        log = play("cloak-and-dagger", 2, ["random"] * 2, max_actions=38_000)
        for view in ("all", "p1"):
            tracemalloc.start()
            start = time.process_time()
            build_frames(log, view)
            spent = (time.process_time() - start) * 1000
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            print(f"before the bound: cloak 2p {len(log['actions'])} actions {view:4} "
                  f"build_frames {spent:7.0f} ms  peak {peak / 2**20:6.1f} MiB")
    verdict = "meets" if worst <= TARGET_MS else "MISSES"
    # A match of WARM_FRAMES_FROM actions or more has its frames built when it is stored
    # (replay.tasks.warm_frames): a viewer's request is the cached one.
    print(f"served (frames built when stored): slowest median {worst:.1f} CPU ms: {verdict} the "
          f"{TARGET_MS:.0f} ms target; cold (cache lost) slowest median {worst_cold:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
