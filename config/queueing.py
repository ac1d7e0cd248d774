"""Sending Celery tasks once the data they work on is committed, without letting a
broker outage fail the request that stored the data.

When Redis is down, sending fails after kombu's short publish retries (well under a
second on loopback: the connection is refused), is logged, and the stored data
waits: ``ladder.requeue_unrated_matches`` and ``games.requeue_queued_imports`` (Celery
beat, every few minutes) queue again what was stored but never processed, and the
nightly recompute rates whatever is left.

Tasks sent here keep no result (``ignore_result``): nobody waits for them, and with
the Redis result backend every send that keeps a result first subscribes to it —
which, with Redis down, retries for about twenty seconds and then leaves the
process's result consumer broken ("the Celery application must be restarted").
"""

from __future__ import annotations

import logging
import threading
from functools import partial
from typing import Any

import kombu.exceptions
import redis.exceptions
from celery import Task
from django.conf import settings
from django.db import close_old_connections, connections, transaction

log = logging.getLogger(__name__)

#: What sending a task raises when the broker cannot be reached.
BROKER_ERRORS: tuple[type[BaseException], ...] = (
    kombu.exceptions.OperationalError,
    redis.exceptions.RedisError,
)


#: One thread at a time has Celery import the tasks modules: its autodiscovery runs once,
#: so a second thread asking meanwhile would find the task not registered yet.
_discovering = threading.Lock()


def registered(task: Task | str) -> Task:
    """The task itself, given it or the name it is registered under (``"ladder.rate_match"``).

    Services queue their own app's tasks by name: the tasks module imports the services
    (tasks are thin), so a service importing it back would be an import cycle. A name
    not registered yet has Celery import every app's tasks module (its autodiscovery,
    which a worker does at start), as a web process has not."""
    if not isinstance(task, str):
        return task
    from config.celery import app

    if task not in app.tasks:
        with _discovering:
            if task not in app.tasks:
                app.loader.import_default_modules()
    return app.tasks[task]


def send_task(task: Task | str, *args: Any, **kwargs: Any) -> bool:
    """Send ``task`` (or the task of that name) with these arguments. Returns False, with
    a warning in the log, when the broker is unreachable; anything else the task raises
    (when it runs eagerly, without Redis) propagates."""
    task = registered(task)
    if task.app.conf.task_always_eager and task.name in settings.LANTERN_EAGER_BESIDE:
        _run_beside(task, args, kwargs)
        return True
    try:
        task.apply_async(args, kwargs, ignore_result=True)
    except BROKER_ERRORS as exc:
        log.warning("%s%r was not queued: the broker is unreachable (%s)", task.name, args, exc)
        return False
    return True


def send_task_on_commit(task: Task | str, *args: Any, **kwargs: Any) -> None:
    """:func:`send_task` once the current transaction commits (at once outside one)."""
    transaction.on_commit(partial(send_task, task, *args, **kwargs))


def _run_beside(task: Task, args: tuple[Any, ...], kwargs: dict[str, Any]) -> threading.Thread:
    """Run an eager task in a thread of its own, so the request that queued it answers at
    once. Without Redis (`make run`) there is no worker, and a task of minutes (a match's
    analysis) would otherwise hold the page that asked for it; the page follows its
    progress as it does a worker's. The thread has its own database connection, closed
    when the task ends; a thread lost with its process leaves the task as a lost worker
    does (an analysis is taken up again when asked for once its heartbeat is stale)."""

    def run() -> None:
        close_old_connections()
        try:
            task.apply(args, kwargs)
        except Exception:
            log.exception("%s%r failed", task.name, args)
        finally:
            connections.close_all()

    thread = threading.Thread(target=run, name=f"eager {task.name}", daemon=True)
    thread.start()
    return thread
