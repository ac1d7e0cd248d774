"""Replay frames of one complete game of each game, through the whole Django stack.

    .venv/bin/python bench/replay_frames.py [--repeat 15]

For each game a bot-played complete game is stored as a match (in an in-memory
SQLite database, local-memory cache unless REDIS_URL is set), then
``GET /api/matches/{id}/frames?view=V`` is timed through Django's test client for
the all-seeing view and one seat, asking for gzip as a browser does:

* cold: the payload deleted from the cache before every request, so the log is read and replayed
  through the engine and the payload serialized;
* cached: the payload served from the cache;
* 304: a revalidation with the ETag (If-None-Match).

Figures are milliseconds per request, median and best of ``--repeat``, by the CPU
time of this process (``time.process_time``: what serving costs on one core, not
disturbed by other work on a shared machine), with the wall-clock median and the
load average beside them. Target: a complete game's frames served in at most 50 ms,
cold and cached (issue 8).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import add_quick  # noqa: E402
from bench.common.site import start_in_memory_site  # noqa: E402

start_in_memory_site()

from django.core.cache import cache  # noqa: E402
from django.test import Client  # noqa: E402

from clubs.models import Club  # noqa: E402
from engine import play  # noqa: E402
from games.services import ingest_log  # noqa: E402
from replay.selectors import frames_cache_key  # noqa: E402

TARGET_MS = 50.0

#: (game, seed, bots, seat viewed): complete greedy games of ordinary length.
GAMES = [
    ("cryptid-urban-legends", 4, ["greedy", "greedy"], "scientist"),
    ("mister-x", 4, ["greedy", "greedy", "greedy"], "det1"),
    ("cloak-and-dagger", 7, ["greedy"] * 4, "p2"),
]


def timed(fn, repeat: int) -> tuple[list[float], list[float]]:
    """CPU and wall-clock milliseconds of ``repeat`` calls."""
    cpu, wall = [], []
    for _ in range(repeat):
        start_cpu, start_wall = time.process_time(), time.perf_counter()
        fn()
        cpu.append((time.process_time() - start_cpu) * 1000)
        wall.append((time.perf_counter() - start_wall) * 1000)
    return cpu, wall


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    add_quick(parser)
    args = parser.parse_args()
    if args.quick:
        args.repeat = 1
    club = Club.objects.create(name="Bench", slug="bench")
    client = Client()
    backend = "Redis" if os.environ.get("REDIS_URL") else "local memory"
    print(
        f"cache: {backend}; {args.repeat} requests each; CPU ms per request, median / best "
        f"(wall-clock median in brackets); load average {os.getloadavg()[0]:.1f}"
    )
    worst = 0.0
    for game, seed, bots, seat in GAMES:
        log = json.loads(json.dumps(play(game, seed, bots)))
        if log["result"] is None:
            print(f"{game} seed {seed} did not finish", file=sys.stderr)
            return 1
        match = ingest_log(club, log, None)
        for view in ("all", seat):
            url = f"/api/matches/{match.pk}/frames?view={view}"

            key = frames_cache_key(match, view)

            def cold(url=url, key=key):
                cache.delete(key)  # this payload only: never flush a shared Redis
                response = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
                assert response.status_code == 200, response.status_code

            def cached(url=url):
                assert client.get(url, HTTP_ACCEPT_ENCODING="gzip").status_code == 200

            first = client.get(url)
            size = len(first.content)
            sent = len(client.get(url, HTTP_ACCEPT_ENCODING="gzip").content)
            frames = len(json.loads(first.content)["frames"])

            def revalidate(url=url, etag=first["ETag"]):
                assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304

            figures = {
                name: timed(fn, args.repeat)
                for name, fn in (("cold", cold), ("cached", cached), ("304", revalidate))
            }
            worst = max(
                worst,
                statistics.median(figures["cold"][0]),
                statistics.median(figures["cached"][0]),
            )
            cells = "  ".join(
                f"{name} {statistics.median(cpu):5.1f} / {min(cpu):5.1f} "
                f"({statistics.median(wall):5.1f})"
                for name, (cpu, wall) in figures.items()
            )
            print(
                f"{game:22} {view:10} {frames:4} frames {size / 1024:5.0f} KB ({sent / 1024:3.0f} "
                f"KB gzipped)  {cells}"
            )
    verdict = "meets" if worst <= TARGET_MS else "MISSES"
    print(f"slowest median {worst:.1f} CPU ms: {verdict} the {TARGET_MS:.0f} ms target")
    return 0


if __name__ == "__main__":
    sys.exit(main())
