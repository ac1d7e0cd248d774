"""config.cache.RedisCache: Django's Redis cache keeping one Redis client per connection
pool instead of building one per operation (the upload throttle and the frames cache
use it on every request)."""

from __future__ import annotations

import threading

import pytest
from django.core.cache import cache
from django.test import override_settings

from config.cache import RedisCache
from tests.ops.test_production_settings import production_env, run


def test_every_operation_uses_the_one_client_of_its_pool():
    # redis.Redis connects on its first command only: no server needed to build clients.
    backend = RedisCache("redis://127.0.0.1:1/0", {})
    client = backend._cache.get_client("key")
    assert backend._cache.get_client("other", write=True) is client
    assert backend._cache.get_client(None) is client
    assert client.connection_pool is backend._cache._get_connection_pool(write=True)


def test_production_settings_use_it_when_redis_is_configured(tmp_path):
    """Settings are read once per process: a fresh one with REDIS_URL set (nothing connects)."""
    env = production_env(tmp_path, REDIS_URL="redis://127.0.0.1:1/0")
    code = (
        "import django; django.setup(); from django.core.cache import caches; "
        "cache = caches['default']; "
        "print(type(cache._cache.get_client()).__name__, type(cache).__module__)"
    )
    done = run(["-c", code], env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["Redis", "config.cache"]


@pytest.mark.integration
def test_it_reads_and_writes_redis_from_several_threads(require_redis):
    with override_settings(
        CACHES={"default": {"BACKEND": "config.cache.RedisCache", "LOCATION": require_redis}}
    ):
        failures: list[BaseException] = []

        def work(n: int) -> None:
            try:
                key = f"test-config-cache-{n}"
                for i in range(50):
                    cache.set(key, {"n": n, "i": i}, 30)
                    assert cache.get(key) == {"n": n, "i": i}
                cache.delete(key)
                assert cache.get(key) is None
            except BaseException as exc:  # reported by the main thread
                failures.append(exc)

        threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert failures == []


@pytest.mark.integration
@pytest.mark.django_db
def test_the_upload_throttle_counts_in_redis_through_it(require_redis, django_user_model, settings):
    from rest_framework.test import APIClient

    from clubs.models import Club, Membership

    settings.LANTERN_UPLOAD_RATE = "2/min"
    user = django_user_model.objects.create_user(username="cache-throttle-test")
    club = Club.objects.create(name="Throttled", slug="throttled")
    Membership.objects.create(user=user, club=club, role="member")
    client = APIClient()
    client.force_authenticate(user)
    with override_settings(
        CACHES={"default": {"BACKEND": "config.cache.RedisCache", "LOCATION": require_redis}}
    ):
        cache.delete(f"throttle_uploads_{user.pk}")
        codes = [
            client.post(
                "/api/clubs/throttled/matches/", data=b"{}", content_type="application/json"
            ).status_code
            for _ in range(3)
        ]
        cache.delete(f"throttle_uploads_{user.pk}")
    assert codes == [400, 400, 429]
