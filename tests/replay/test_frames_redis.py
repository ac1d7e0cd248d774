"""The frames cache on real Redis (marker ``integration``; skipped without REDIS_URL)."""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from django.test import override_settings

from replay.selectors import frames_cache_key, match_frames

pytestmark = [pytest.mark.integration, pytest.mark.django_db]


def test_frames_are_cached_in_redis_and_served_from_there(
    require_redis, club, store_match, example_log, monkeypatch
):
    redis_cache = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": require_redis,
        }
    }
    with override_settings(CACHES=redis_cache):
        match = store_match(club, example_log("cloak-documents.json"))
        key = frames_cache_key(match, "p1")
        cache.delete(key)
        first = match_frames(match, "p1")
        assert cache.get(key) == first.gzipped
        assert json.loads(first.body())["viewer"] == "p1"

        def no_replay(*args, **kwargs):
            raise AssertionError("the payload should come from Redis")

        monkeypatch.setattr("replay.selectors.build_frames", no_replay)
        assert match_frames(match, "p1").gzipped == first.gzipped
        cache.delete(key)
