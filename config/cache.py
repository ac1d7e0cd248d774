"""Django's Redis cache, with one Redis client per connection pool.

Django's ``RedisCacheClient`` builds a new ``redis.Redis`` for every operation, and
building one copies redis-py's table of ~170 response callbacks, upper-casing every
name: about a third of the CPU of a cache hit. The upload throttle (a get and a set per
upload) and the replay frames cache (a get per frames request) pay it on every request.
A ``redis.Redis`` is safe to share between threads (each command borrows a connection
from the pool and gives it back), so the client is built once per pool and kept; the
pools, connections and everything else are Django's.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient as DjangoRedisCacheClient


class RedisCacheClient(DjangoRedisCacheClient):
    def __init__(self, servers: list[str], **options: Any) -> None:
        super().__init__(servers, **options)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: str | None = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class RedisCache(DjangoRedisCache):
    """settings.CACHES backend ``config.cache.RedisCache`` (LOCATION: the Redis URL)."""

    def __init__(self, server: str | list[str], params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient
