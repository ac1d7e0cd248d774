"""Kombu's Redis transport, with one Redis client per channel for what it sends.

Kombu builds a new ``redis.Redis`` for every command it sends outside its consuming
loop (each task published is one), and building one copies redis-py's table of ~170
response callbacks: a quarter of the CPU of sending a task from a web request (the
rating queued after every upload). A ``redis.Redis`` holds no connection of its own
(each command borrows one from the pool), so the channel keeps the one it built for
its pool; the pool, the consuming client and everything else are kombu's.

settings.CELERY_BROKER_TRANSPORT names it when the broker is a ``redis://`` URL.
"""

from __future__ import annotations

from typing import Any

from kombu.transport import redis as kombu_redis


class Channel(kombu_redis.Channel):
    _sending_client: tuple[Any, Any] | None = None  # (pool, client)

    def _create_client(self, asynchronous: bool = False) -> Any:
        if asynchronous:
            return super()._create_client(asynchronous=True)
        pool = self.pool
        if self._sending_client is None or self._sending_client[0] is not pool:
            # A new pool (the first, or one made again after a disconnect): a new client.
            self._sending_client = (pool, super()._create_client())
        return self._sending_client[1]


class Transport(kombu_redis.Transport):
    Channel = Channel
