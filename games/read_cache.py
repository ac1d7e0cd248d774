"""Cached answers of a club's busiest reads: its match list and its ladders' standings.

A club has a *read version* in the cache. An answer is cached under the club's current
version (and the URL asked, and for standings the ladder's own ``version``), so it is
never served once something it shows has changed:

- every service that changes what these reads show calls :func:`club_changed` (a match
  stored, voided; a player renamed or merged), and the club gets a new version when the
  transaction commits;
- a rating changes ``Ladder.version`` in the same transaction as the ratings, and
  standings are keyed by it.

The order makes it safe without locks: a reader takes the version *before* it queries,
and a writer moves it *after* its commit, so an answer read from the old rows is stored
under the old version, which nobody asks for again. Should a version change be lost
(the cache unreachable at that moment), answers still expire after ``ANSWER_SECONDS``.
Who may see a club is decided before the cache is asked (games.policy); the answers
themselves are the same for everyone who may.

Without a reachable cache every read is computed, as if nothing were cached.
"""

from __future__ import annotations

import hashlib
import logging
import uuid
from collections.abc import Callable
from functools import partial
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.http import HttpRequest

log = logging.getLogger(__name__)

#: How long an answer may live at most: the bound on staleness if a version change
#: was lost; otherwise answers are replaced through the version long before.
ANSWER_SECONDS = 60


def _version_key(club_id: int) -> str:
    return f"club-reads:{club_id}"


def club_changed(club_id: int) -> None:
    """What the club's cached reads show has changed: they are computed afresh once the
    current transaction commits (at once outside a transaction)."""
    transaction.on_commit(partial(_new_version, club_id))


def _new_version(club_id: int) -> None:
    try:
        cache.set(_version_key(club_id), uuid.uuid4().hex, None)
    except Exception:  # the write is committed; its reads expire within ANSWER_SECONDS
        log.warning("could not move the read version of club %s", club_id, exc_info=True)


def _club_version(club_id: int) -> str:
    key = _version_key(club_id)
    version = cache.get(key)
    if version is None:  # never set, or evicted: a new one (never an old one again)
        cache.add(key, uuid.uuid4().hex, None)
        version = cache.get(key)
    return version


def cached_answer(club_id: int, request: HttpRequest, compute: Callable[[], Any],
                  *, part: str = "") -> Any:
    """The answer ``compute()`` gives to this request (its absolute URL: path, query,
    host), from the cache when the club has not changed since it was computed.
    ``part`` names a narrower version of what the answer shows (a ladder's version)."""
    url = hashlib.sha256(request.build_absolute_uri().encode()).hexdigest()
    try:
        key = f"club-read:{club_id}:{_club_version(club_id)}:{part}:{url}"
        answer = cache.get(key)
    except Exception:
        log.warning("read cache unreachable; answering uncached", exc_info=True)
        return compute()
    if answer is None:
        answer = compute()
        try:
            cache.set(key, answer, ANSWER_SECONDS)
        except Exception:
            log.warning("could not cache an answer", exc_info=True)
    return answer
