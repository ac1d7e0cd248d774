"""config.queueing: a task that cannot be sent (broker down) is logged, never raised
into the caller; anything else still raises."""

from __future__ import annotations

import logging

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
