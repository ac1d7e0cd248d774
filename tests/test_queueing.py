"""config.queueing: a task that cannot be sent (broker down) is logged, never raised
into the caller; anything else still raises."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import kombu.exceptions
import pytest
import redis.exceptions

from config.queueing import send_task, send_task_on_commit
from games.tasks import ping


def refuse(exc: BaseException):
    def apply_async(*args, **kwargs):
        raise exc

    return apply_async


@pytest.mark.parametrize(
    "error",
    [
        kombu.exceptions.OperationalError(
            "Error 111 connecting to 127.0.0.1:6379. Connection refused."
        ),
        redis.exceptions.ConnectionError("Connection refused"),
    ],
)
def test_a_broker_error_is_logged_not_raised(monkeypatch, caplog, error):
    monkeypatch.setattr(ping, "apply_async", refuse(error))
    with caplog.at_level(logging.WARNING, logger="config.queueing"):
        assert send_task(ping, "x") is False
    assert "games.ping('x',) was not queued: the broker is unreachable" in caplog.text


def test_other_errors_still_raise(monkeypatch):
    monkeypatch.setattr(ping, "apply_async", refuse(ValueError("a bug")))
    with pytest.raises(ValueError, match="a bug"):
        send_task(ping, "x")


def test_a_sent_task_keeps_no_result(monkeypatch):
    sent = []
    monkeypatch.setattr(ping, "apply_async", lambda *a, **kw: sent.append((a, kw)))
    assert send_task(ping, "x") is True
    assert sent == [((("x",), {}), {"ignore_result": True})]


@pytest.mark.django_db
def test_on_commit_sends_only_after_the_commit(monkeypatch, django_capture_on_commit_callbacks):
    sent = []
    monkeypatch.setattr(ping, "apply_async", lambda *a, **kw: sent.append(a))
    with django_capture_on_commit_callbacks(execute=True):
        send_task_on_commit(ping, "later")
        assert sent == []
    assert sent == [(("later",), {})]


#: A process of its own (no tasks module imported yet, as a web server's is), where eight
#: threads ask for a task by name at once, as eight requests of a server's threads do.
RACE = """
import threading
import django
django.setup()
from config.queueing import registered
barrier, failed = threading.Barrier(8), []
def ask():
    barrier.wait()
    try:
        registered("live.settle_table")
    except Exception as exc:
        failed.append(repr(exc))
threads = [threading.Thread(target=ask) for _ in range(8)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(len(failed), failed[:1])
"""


def test_threads_asking_for_a_task_by_name_at_once_all_find_it():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    for _ in range(3):  # the race is lost most times when unguarded: three tries
        done = subprocess.run(
            [sys.executable, "-c", RACE],
            cwd=Path(__file__).resolve().parents[1],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        assert done.stdout.strip().splitlines()[-1] == "0 []"
