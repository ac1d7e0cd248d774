"""CPU per request of the load test's endpoints, in one process, no server, no load
client: Django's test client against the seeded load database (run bench/load/run.sh
first; it leaves `lantern_load` behind). CPU time (time.process_time) is what the server
spends in Python per request, and barely moves when other processes share the machine,
unlike latencies; queries per request are counted too. Uploads: the last --uploads logs
of var/load/uploads.txt (not sent by a 30 s run), each stored once, with the rating
done in the same process when REDIS_URL is unset (upload + rating; under `make prod` the
rating runs on the worker).

    DATABASE_URL=postgres://lantern:lantern@127.0.0.1:5432/lantern_load \\
        .venv/bin/python bench/load/cpu_per_request.py [--rounds N] [--uploads N]
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(PROJECT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Production settings, as `make prod` runs them (plain http: no redirect to https).
os.environ.update(DEBUG="0", LANTERN_HTTPS="0", ALLOWED_HOSTS="testserver", LOG_LEVEL="WARNING")
os.environ.setdefault("SECRET_KEY", "cpu-per-request-measurement-only-not-a-deployment-key")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

OUT = PROJECT / "var" / "load"
PATHS_PER_ENDPOINT = 40


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--uploads", type=int, default=0)
    args = parser.parse_args()
    logging.disable(logging.INFO)
    client = Client(headers={"Accept-Encoding": "gzip"})  # as browsers and run.sh's wrk ask
    print(
        f"{'endpoint':<10} {'requests':>8} {'CPU ms/req':>10} {'wall ms/req':>11} "
        f"{'queries/req':>11}"
    )
    for endpoint in ("matches", "frames", "standings"):
        paths = (OUT / f"paths-{endpoint}.txt").read_text().split()[:PATHS_PER_ENDPOINT]
        for path in paths:  # warm: caches filled, connections open, code loaded
            assert client.get(path).status_code == 200, path
        requests = 0
        cpu, wall = time.process_time(), time.perf_counter()
        with CaptureQueriesContext(connection) as queries:
            for _ in range(args.rounds):
                for path in paths:
                    assert client.get(path).status_code == 200, path
                    requests += 1
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        report(endpoint, requests, cpu, wall, len(queries))
    if args.uploads:
        measure_uploads(args.uploads)


def report(endpoint: str, requests: int, cpu: float, wall: float, queries: int) -> None:
    print(
        f"{endpoint:<10} {requests:>8} {cpu / requests * 1000:>10.2f} "
        f"{wall / requests * 1000:>11.2f} {queries / requests:>11.1f}"
    )


def measure_uploads(count: int) -> None:
    from django.conf import settings
    from rest_framework.authtoken.models import Token

    settings.LANTERN_UPLOAD_RATE = "100000/min"
    token = (OUT / "token").read_text().strip()
    assert Token.objects.filter(key=token).exists()
    client = Client(headers={"Authorization": f"Token {token}"})
    # One to warm up, then `count` measured: new logs only (an upload stored by an
    # earlier run would measure a duplicate's shorter path), from the end of the list.
    warm_up, *measured = unstored_logs(count + 1)

    def upload(slug: str, body: bytes) -> None:
        response = client.post(f"/api/clubs/{slug}/matches/", body, content_type="application/json")
        assert response.status_code == 201, response.content

    upload(*warm_up)
    cpu, wall = time.process_time(), time.perf_counter()
    with CaptureQueriesContext(connection) as queries:
        for slug, body in measured:
            upload(slug, body)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    label = "upload" if settings.REDIS_URL else "upload+rate"
    report(label, count, cpu, wall, len(queries))


def unstored_logs(count: int) -> list[tuple[str, bytes]]:
    """The last ``count`` logs of uploads.txt that the database does not hold yet, with
    the slug of the club they go to."""
    from games.models import Match, log_content_hash

    stored = set(Match.objects.values_list("content_hash", flat=True))
    bodies: list[tuple[str, bytes]] = []
    for line in reversed((OUT / "uploads.txt").read_text().splitlines()):
        slug, path = line.split(" ", 1)
        body = Path(path).read_bytes()
        if log_content_hash(json.loads(body)) not in stored:
            bodies.append((slug, body))
            if len(bodies) == count:
                return bodies[::-1]
    sys.exit(
        f"only {len(bodies)} of the load test's logs are not stored yet; "
        f"{count} needed (use a fresh copy of the database)"
    )


if __name__ == "__main__":
    main()
