"""Fixtures of the fault tests: a Redis server of the test's own, sending a task to it
from this process, and a worker of two threads in this process."""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import route_tasks, skip_or_fail
from tests.faults.processes import RedisServer, wait_until


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


def send(broker_url: str, task: Any, *args: Any, queue: str | None = None) -> None:
    """Send ``task`` through the broker at ``broker_url`` (not this process's REDIS_URL),
    to ``queue`` or where the settings route it."""
    from config.celery import app

    options = {"queue": queue} if queue else {}
    with app.connection_for_write(broker_url) as connection:
        task.apply_async(args, connection=connection, ignore_result=True, **options)


class ThreadWorker:
    """A Celery worker of this process running two tasks at once; it knows which tasks
    were sent to it and which have finished."""

    def __init__(self, queue: str) -> None:
        self.queue = queue
        self.sent: set[str] = set()
        self.finished: set[str] = set()
        self._lock = threading.Lock()

    def route(self, *names: str) -> None:
        """Send these tasks, whoever sends them, to this worker."""
        route_tasks({name: {"queue": self.queue} for name in names})

    def on_published(
        self, sender: Any = None, headers: Any = None, routing_key: str = "", **kwargs: Any
    ) -> None:
        if routing_key == self.queue and headers:
            with self._lock:
                self.sent.add(headers["id"])

    def on_finished(self, sender: Any = None, task_id: str = "", **kwargs: Any) -> None:
        with self._lock:
            self.finished.add(task_id)

    def idle(self) -> bool:
        with self._lock:
            return self.sent <= self.finished


@pytest.fixture
def two_thread_worker(require_redis, require_postgres) -> Iterator[ThreadWorker]:
    """A Celery worker of this process (so it uses the test database) running two tasks
    at once, on a queue of its own in the shared Redis. Before it stops (and the test
    database is emptied) every task sent to it has finished."""
    from celery.contrib.testing.worker import start_worker
    from celery.signals import after_task_publish, task_postrun

    from config.celery import app

    assert app.conf.task_always_eager is False
    worker = ThreadWorker(f"lantern-faults-threads-{os.getpid()}")
    after_task_publish.connect(worker.on_published, weak=False)
    task_postrun.connect(worker.on_finished, weak=False)
    saved = app.conf.task_routes
    try:
        with start_worker(
            app,
            pool="threads",
            concurrency=2,
            perform_ping_check=False,
            queues=[worker.queue],
            shutdown_timeout=30,
        ):
            try:
                yield worker
            finally:
                wait_until(worker.idle, 120, "the worker to finish the tasks sent to it", every=0.1)
    finally:
        route_tasks(saved)
        after_task_publish.disconnect(worker.on_published)
        task_postrun.disconnect(worker.on_finished)
