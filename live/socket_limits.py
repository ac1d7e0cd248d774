"""How fast a table's socket may send (docs/live.md, "How fast a socket may send";
docs/fair-share.md). Every message a socket receives counts, whatever it is (a move,
news asked for, ``now``, ``here``): each costs the server a read of the table, and all
the sockets of a Daphne process wait on its one database thread, so a client looping
messages on one socket would hold up every table that process serves. Two limits:

- **the socket's**: ``LANTERN_LIVE_SOCKET_BURST`` messages at once, then
  ``LANTERN_LIVE_SOCKET_PER_SECOND`` a second (a token bucket the socket's consumer
  keeps: a socket lives in one process, so there is nothing to share, and a flood is
  answered without touching the cache or the database);
- **the person's**: ``LANTERN_LIVE_MESSAGES_PER_MINUTE`` over all their sockets, their
  moves sent over HTTP (``POST /api/tables/{id}/act/``) and their reads of a table's news
  and legal actions over HTTP (the page's way without a socket, a client of the API), in
  every process (a new socket starts a new bucket, so this is the limit a
  reconnecting flood meets): DRF's throttle over Django's cache, as the uploads are counted
  (``games.throttling``): Redis with ``REDIS_URL``, the process's memory under
  ``make run``.

A message past either is not read: the socket is answered ``{"refused": <the API's 429
body>}`` (``over_budget``, ``limit``, ``per``, ``window_s``, ``retry_after`` and the
sentence, in the socket's language), and a socket that sends more than
``CLOSE_AFTER`` messages in a row past its limit is closed with :data:`TOO_FAST`.
"""

from __future__ import annotations

import logging
import math
import time
from dataclasses import dataclass
from typing import Any

import redis.exceptions
from asgiref.sync import sync_to_async
from django.conf import settings
from django.utils.text import format_lazy
from django.utils.translation import ngettext_lazy
from rest_framework.throttling import SimpleRateThrottle

from config.errors import OverBudget

log = logging.getLogger(__name__)

#: The close code of a socket that went on sending past its limit (4000-4999 are the
#: application's; 4429 as HTTP's 429). The page opens a new socket after it, as after
#: any close, a few seconds later.
TOO_FAST = 4429
#: Messages refused in a row (each answered with the limit and when to retry) after
#: which the next one past the limit closes the socket.
CLOSE_AFTER = 20


def clock() -> float:
    """Seconds, wall time (the person's count is shared by processes); tests put in
    their own."""
    return time.time()


@dataclass(frozen=True)
class _Sender:
    """What DRF's throttle reads of a request: who sent it."""

    user: Any


class PersonThrottle(SimpleRateThrottle):
    """A person's messages on the tables' sockets, ``LANTERN_LIVE_MESSAGES_PER_MINUTE``,
    counted in Django's cache under the person's id (refused ones are not counted)."""

    scope = "live_messages"

    def get_rate(self) -> str:
        return f"{settings.LANTERN_LIVE_MESSAGES_PER_MINUTE}/min"

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": request.user.pk}

    def timer(self) -> float:
        return clock()


def person_refusal(user: Any) -> OverBudget | None:
    """``user``'s message (on a socket), move or read (over HTTP) counted, or why not (past their
    limit). A cache that cannot be reached lets it through, with a warning in the log, as
    an upload is."""
    throttle = PersonThrottle()
    try:
        if throttle.allow_request(_Sender(user), None):
            return None
    except (redis.exceptions.RedisError, OSError) as exc:
        log.warning("socket messages not counted: the cache is unreachable (%s)", exc)
        return None
    limit = settings.LANTERN_LIVE_MESSAGES_PER_MINUTE
    return _refusal(
        ngettext_lazy(
            "Too many moves and messages at your tables: at most {limit} a minute from "
            "one person, all your tables and tabs together. Try again in {wait} second.",
            "Too many moves and messages at your tables: at most {limit} a minute from "
            "one person, all your tables and tabs together. Try again in {wait} seconds.",
            "wait",
        ),
        wait=throttle.wait() or 1,
        limit=limit,
        per="person",
        window_s=60,
    )


def _refusal(
    sentence: Any, *, wait: float, limit: int, per: str, window_s: int, **words: int
) -> OverBudget:
    """The refusal of a message past a limit of ``limit`` messages per ``window_s``
    seconds (``per`` socket or person), to try again in ``wait`` seconds (rounded up):
    ``sentence`` (a plural on ``wait``) says it with ``limit``, ``wait`` and ``words``."""
    seconds = max(1, math.ceil(wait))
    return OverBudget(
        format_lazy(sentence, limit=limit, wait=seconds, **words),
        retry_after=seconds,
        limit=limit,
        per=per,
        window_s=window_s,
    )


class Pace:
    """What one socket may still send: its bucket, and its messages refused in a row."""

    def __init__(self, user: Any) -> None:
        self.user = user
        self.tokens = float(settings.LANTERN_LIVE_SOCKET_BURST)
        self.at = clock()
        self.refused = 0

    async def admit(self) -> OverBudget | None:
        """Count a message the socket received: None to read it, else the refusal to
        answer it with (the socket's limit first: it costs nothing to check)."""
        refusal = self._socket()
        if refusal is None and getattr(self.user, "is_authenticated", False):
            # Off the database thread: a cache round trip must not queue behind reads.
            refusal = await sync_to_async(person_refusal, thread_sensitive=False)(self.user)
        self.refused = 0 if refusal is None else self.refused + 1
        return refusal

    @property
    def flooding(self) -> bool:
        """More than ``CLOSE_AFTER`` messages in a row past the limit: close the socket."""
        return self.refused > CLOSE_AFTER

    def _socket(self) -> OverBudget | None:
        burst = settings.LANTERN_LIVE_SOCKET_BURST
        rate = settings.LANTERN_LIVE_SOCKET_PER_SECOND
        now = clock()
        self.tokens = min(float(burst), self.tokens + max(0.0, now - self.at) * rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return None
        return _refusal(
            ngettext_lazy(
                "Too many messages on this table's socket: at most {burst} at once, then "
                "{rate} a second. Try again in {wait} second.",
                "Too many messages on this table's socket: at most {burst} at once, then "
                "{rate} a second. Try again in {wait} seconds.",
                "wait",
            ),
            wait=(1 - self.tokens) / rate,
            limit=rate,
            per="socket",
            window_s=1,
            burst=burst,
            rate=rate,
        )
