"""Tests other than integration ones never reach the real Celery worker or Redis cache,
even when REDIS_URL is set (as under .ci/run): see tests/conftest.py."""

from __future__ import annotations

import os

from django.core.cache import cache, caches
from django.core.cache.backends.locmem import LocMemCache

from config.celery import app
from games.tasks import ping


def test_tasks_run_eagerly_in_the_test_process():
    assert app.conf.task_always_eager is True
    result = ping.delay("here")
    assert result.get(timeout=1) == {
        "payload": "here",
        "host": result.result["host"],
        "pid": os.getpid(),
    }


def test_the_cache_is_local_memory_and_starts_empty():
    assert isinstance(caches["default"], LocMemCache)
    assert cache.get("lantern-isolation-probe") is None
    cache.set("lantern-isolation-probe", 1)


def test_the_cache_does_not_carry_entries_between_tests():
    assert cache.get("lantern-isolation-probe") is None
    cache.set("lantern-isolation-probe", 1)
