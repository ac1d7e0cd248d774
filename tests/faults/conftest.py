"""Fixtures of the fault tests: a Redis server of the test's own, sending a task to it
from this process, and a worker of two threads in this process."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import route_tasks, skip_or_fail
from tests.faults.processes import RedisServer


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[RedisServer]:
    """A redis-server on a free port, for this test alone: its workers, their queues and
    unacknowledged messages share nothing with the shared Redis, and the test may stop it."""
    if shutil.which("redis-server") is None:
        skip_or_fail("redis-server is not installed (apt-get install redis-server)")
    server = RedisServer(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def send(broker_url: str, task: Any, *args: Any, queue: str) -> None:
    """Send ``task`` through the broker at ``broker_url`` (not this process's REDIS_URL)."""
    from config.celery import app

    with app.connection_for_write(broker_url) as connection:
        task.apply_async(args, queue=queue, connection=connection, ignore_result=True)


@pytest.fixture
def two_thread_worker(require_redis, require_postgres):
    """``two_thread_worker("games.run_import", ...)``: those tasks, whoever sends them,
    go to a Celery worker of this process (so it uses the test database) running two
    tasks at once, on a queue of its own in the shared Redis."""
    from celery.contrib.testing.worker import start_worker

    from config.celery import app

    assert app.conf.task_always_eager is False
    queue = f"lantern-faults-threads-{os.getpid()}"
    saved = app.conf.task_routes
    with start_worker(app, pool="threads", concurrency=2, perform_ping_check=False,
                      queues=[queue], shutdown_timeout=30):
        yield lambda *names: route_tasks({name: {"queue": queue} for name in names})
    route_tasks(saved)
