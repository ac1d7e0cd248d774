"""Real PostgreSQL, Redis and a Celery worker (started by .ci/run, or `make services` +
`make worker`). Skipped with a reason when not configured; failed in CI when missing."""

from __future__ import annotations

import os

import pytest
from django.db import connection

from tests.conftest import skip_or_fail

pytestmark = pytest.mark.integration


@pytest.mark.django_db
def test_database_is_postgresql(require_postgres):
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SELECT version()")
        (version,) = cursor.fetchone()
    assert version.startswith("PostgreSQL")


def test_redis_answers(require_redis):
    import redis

    client = redis.Redis.from_url(require_redis, socket_connect_timeout=2)
    key = f"lantern-test-{os.getpid()}"
    client.set(key, "lit", ex=30)
    assert client.get(key) == b"lit"
    client.delete(key)


def test_celery_task_goes_through_redis_to_a_worker(require_redis):
    from config.celery import app
    from games.tasks import ping

    # With REDIS_URL set the app is not eager: .delay() really goes through the broker.
    assert app.conf.task_always_eager is False
    assert app.conf.broker_url == require_redis
    if not app.control.ping(timeout=3.0):
        skip_or_fail("no Celery worker answers on REDIS_URL (start one with `make worker`)")

    result = ping.delay("lantern")
    reply = result.get(timeout=30)
    assert reply["payload"] == "lantern"
    assert reply["pid"] != os.getpid()  # ran in the worker's process, not ours
    assert result.status == "SUCCESS"
