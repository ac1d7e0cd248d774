"""PostgreSQL restarted between two requests.

A real restart (``pg_ctl restart -m fast``: every connection is closed, the server
process is new) of a PostgreSQL cluster of the test's own (initdb in a temporary
folder, a free port): the shared server other tests use is never touched. The web
server (gunicorn, one sync worker, so one database connection kept from request to
request for CONN_MAX_AGE) answers a request, the database restarts, and the next
request succeeds: the health check finds the kept connection dead and opens another.
A Celery worker the same: it keeps its connection from task to task, and the first
task after a restart succeeds on a new one.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import skip_or_fail
from tests.faults.conftest import send
from tests.faults.processes import (
    PYTHON,
    PostgresCluster,
    RedisServer,
    celery_worker,
    child_env,
    http,
    postgres_bin,
    wait_until,
    web_server,
)

pytestmark = pytest.mark.integration

DATABASE = "lantern_faults"


@pytest.fixture
def own_postgres() -> Iterator[PostgresCluster]:
    bin_dir = postgres_bin()
    if bin_dir is None or not (bin_dir / "initdb").exists():
        skip_or_fail("PostgreSQL's server binaries are not installed (apt-get install postgresql)")
    cluster = PostgresCluster(bin_dir)
    try:
        cluster.init()
        cluster.pg_ctl("start")
        cluster.sql(f"CREATE DATABASE {DATABASE}")
        yield cluster
    finally:
        cluster.remove()


def manage(env: dict[str, str], *args: str) -> str:
    result = subprocess.run(
        [PYTHON, "manage.py", *args],
        cwd=Path(__file__).resolve().parents[2],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def web_connections(cluster: PostgresCluster) -> list[str]:
    """Backend pids of the client connections to the project's database (the web
    worker's, or the Celery worker's)."""
    return cluster.sql(
        f"SELECT pid FROM pg_stat_activity WHERE datname = '{DATABASE}' "
        "AND backend_type = 'client backend' AND pid <> pg_backend_pid()",
        DATABASE,
    ).split()


def test_the_next_request_after_a_postgres_restart_succeeds(
    own_postgres: PostgresCluster, tmp_path: Path
):
    env = child_env(
        DATABASE_URL=own_postgres.url(DATABASE), REDIS_URL=None, DEBUG="1", DB_CONN_MAX_AGE="600"
    )
    manage(env, "migrate", "--no-input")
    manage(
        env,
        "shell",
        "-c",
        "from clubs.models import Club; Club.objects.create(name='Riverside', slug='riverside')",
    )

    with web_server(env, tmp_path / "web.log") as base:

        def matches() -> list:
            """The club's matches (read from the database: a 404 if the club is not found)."""
            status, body = http("GET", f"{base}/api/clubs/riverside/matches/")
            assert status == 200, body[:2000]
            return json.loads(body)["results"]

        assert matches() == []
        assert matches() == []
        # One connection, kept between requests (CONN_MAX_AGE).
        (kept,) = web_connections(own_postgres)

        own_postgres.pg_ctl("restart", "-m", "fast")
        assert web_connections(own_postgres) == []  # the kept connection is dead

        assert matches() == []
        (replaced,) = web_connections(own_postgres)
        assert replaced != kept
        status, body = http("GET", f"{base}/healthz")
        assert status == 200 and json.loads(body)["checks"]["database"]["ok"], body


def test_a_worker_keeps_its_connection_between_tasks_and_outlives_a_restart(
    require_redis, own_postgres: PostgresCluster, own_redis: RedisServer, tmp_path: Path
):
    # require_redis: without REDIS_URL this process runs tasks eagerly instead of sending
    from ladder.tasks import requeue_unrated_matches

    env = child_env(
        DATABASE_URL=own_postgres.url(DATABASE),
        REDIS_URL=own_redis.url,
        DEBUG="1",
        DB_CONN_MAX_AGE="600",
    )
    manage(env, "migrate", "--no-input")
    # prefork, as in production: the task runs in a pool process
    with celery_worker(None, env, tmp_path / "worker.log", pool="prefork") as worker:

        def finished() -> int:
            """Tasks finished so far; a failed one fails the test."""
            lines = [
                line
                for line in worker.output().splitlines()
                if f"Task {requeue_unrated_matches.name}[" in line
            ]
            assert not [line for line in lines if " raised " in line], worker.output()[-3000:]
            return sum(" succeeded in " in line for line in lines)

        def run_task(count: int) -> None:
            """Send a task that reads the database; wait until ``count`` have succeeded."""
            send(own_redis.url, requeue_unrated_matches)
            wait_until(lambda: finished() >= count, 60, f"task {count} to succeed")

        run_task(1)
        (kept,) = web_connections(own_postgres)
        run_task(2)
        # Not a new connection (a new server process) per task.
        assert web_connections(own_postgres) == [kept]

        own_postgres.pg_ctl("restart", "-m", "fast")
        assert web_connections(own_postgres) == []
        run_task(3)
        (replaced,) = web_connections(own_postgres)
        assert replaced != kept
