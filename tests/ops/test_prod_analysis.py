"""`make prod` (scripts/prod.sh) runs a requested analysis to the end: a member asks
through the API of the running gunicorn, the analysis worker it started takes the task
from Redis, and the API then answers ``done`` with the result.

Integration (real PostgreSQL and Redis): a database and a Redis database of its own, so
that no other worker (CI's takes every queue) can take this analysis instead."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.conftest import skip_or_fail

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
PYTHON = ROOT / ".venv" / "bin" / "python"
#: the Redis database this test's prod uses (CI's worker reads 1, a developer's 0)
REDIS_DB = 7

SEED = """
import json, sys
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from clubs.models import Club, Membership
from games.services import ingest_log
user = get_user_model().objects.create_user(username="mia", password="pw-for-tests-only")
club = Club.objects.create(name="Riverside", slug="riverside")
Membership.objects.create(user=user, club=club, role="member")
match = ingest_log(club, json.load(open("docs/examples/cryptid-escape.json")), None)
print(json.dumps({"token": Token.objects.create(user=user).key, "match": match.pk}))
"""


def free_ports(count: int) -> list[int]:
    """``count`` distinct ports nothing listens on now (all bound at once while chosen)."""
    sockets = [socket.socket() for _ in range(count)]
    try:
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


def call(port: int, token: str, method: str, path: str) -> dict:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        method=method,
        headers={"Authorization": f"Token {token}", "Accept": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


@pytest.fixture
def prod_database(require_postgres):
    import psycopg

    url = os.environ["DATABASE_URL"]
    name = f"lantern_prod_test_{os.getpid()}"
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {name}")
        connection.execute(f"CREATE DATABASE {name}")
    parts = urlsplit(url)
    yield urlunsplit(parts._replace(path=f"/{name}"))
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture
def prod_redis(require_redis):
    import redis

    parts = urlsplit(require_redis)
    url = urlunsplit(parts._replace(path=f"/{REDIS_DB}"))
    client = redis.Redis.from_url(url)
    client.flushdb()
    yield url
    client.flushdb()


def test_make_prod_runs_a_requested_analysis_to_the_end(prod_database, prod_redis, tmp_path):
    port, live_port = free_ports(2)
    env = {
        **os.environ,
        "DATABASE_URL": prod_database,
        "REDIS_URL": prod_redis,
        "PORT": str(port),
        "LIVE_PORT": str(live_port),
        "SECRET_KEY": "prod-test-only-" + "x" * 40,
        "WEB_CONCURRENCY": "1",
        "CELERY_CONCURRENCY": "1",
        "LANTERN_ANALYSIS_BUDGET": "2",
        "LOG_FORMAT": "json",
    }
    env.pop("DATABASE_TEST_NAME", None)
    log = (tmp_path / "prod.log").open("w")
    prod = subprocess.Popen(
        ["scripts/prod.sh"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        for _ in range(240):
            if prod.poll() is not None:
                pytest.fail(
                    f"make prod ended with "
                    f"{prod.returncode}:\n{(tmp_path / 'prod.log').read_text()[-3000:]}"
                )
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2)
                break
            except OSError:
                time.sleep(0.5)
        else:
            skip_or_fail("make prod did not answer on /healthz within two minutes")
        seeded = subprocess.run(
            [str(PYTHON), "manage.py", "shell", "-c", SEED],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        facts = json.loads(seeded.stdout.strip().splitlines()[-1])
        path = f"/api/matches/{facts['match']}/analysis?view=all"
        asked = call(port, facts["token"], "POST", path)
        assert asked["status"] in ("queued", "running", "done")
        deadline = time.monotonic() + 180
        while (answer := call(port, facts["token"], "GET", path))["status"] in (
            "queued",
            "running",
        ):
            assert time.monotonic() < deadline, (
                f"the analysis is still {answer['status']} after 3 minutes"
            )
            time.sleep(1)
        assert answer["status"] == "done", answer
        plies = answer["progress"]["total"]
        assert plies > 1 and answer["progress"]["done"] == plies
        assert all(len(line["points"]) == plies for line in answer["result"]["lines"])
        worked = [
            json.loads(line)
            for line in (tmp_path / "prod.log").read_text().splitlines()
            if line.startswith("{") and "analysis.analyse_match" in line
        ]
        assert worked, "no analysis worker logged the task"
    finally:
        os.killpg(prod.pid, signal.SIGTERM)
        try:
            prod.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(prod.pid, signal.SIGKILL)
        log.close()
