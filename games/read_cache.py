"""Cached answers of a club's busiest reads: its match list and its ladders' standings.

A club has two *read versions* in the cache: ``matches`` (what its match lists show:
its matches) and ``players`` (their handles, shown by every read). An answer is cached
under the current versions of what it shows (and the URL asked, and for standings the
ladder's own ``version``), so it is never served once something it shows has changed:

- every change to what these reads show is a domain event (``config.events``) this
  module subscribes to (a match stored or voided: ``MATCHES``; a player renamed:
  ``PLAYERS``; merged: both), and the club gets new versions of those once the
  transaction commits;
- a rating changes ``Ladder.version`` in the same transaction as the ratings, and
  standings are keyed by it (and by ``players`` only: a match stored in one ladder
  leaves the club's other standings cached).

The order makes it safe without locks: a reader takes the versions *before* it
queries, and a writer moves them *after* its commit, so an answer read from the old
rows is stored under the old versions, which nobody asks for again. Should a version
change be lost (the cache unreachable at that moment), answers still expire after
``ANSWER_SECONDS``. Who may see a club is decided before the cache is asked
(clubs.policy); the answers themselves are the same for everyone who may.

Without a reachable cache every read is computed, as if nothing were cached.
"""

from __future__ import annotations

import hashlib
import logging
import uuid
from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest
from django.utils import translation

log = logging.getLogger(__name__)

#: How long an answer may live at most: the bound on staleness if a version change
#: was lost; otherwise answers are replaced through the version long before.
ANSWER_SECONDS = 60


#: What a club's reads show, each with a read version of its own.
MATCHES = "matches"
PLAYERS = "players"


def _version_key(club_id: int, kind: str) -> str:
    return f"club-reads:{club_id}:{kind}"


def _matches_changed(*, club_id: int, **_: Any) -> None:
    _new_versions(club_id, (MATCHES,))


def _players_changed(*, club_id: int, merged: bool = False, **_: Any) -> None:
    _new_versions(club_id, (MATCHES, PLAYERS) if merged else (PLAYERS,))


def connect() -> None:
    """Subscribe to the domain events (sent after commit) that change what reads show."""
    from clubs import events as club_events
    from games import events as match_events

    match_events.matches_stored.connect(_matches_changed, dispatch_uid="read_cache.stored")
    match_events.match_voided.connect(_matches_changed, dispatch_uid="read_cache.voided")
    match_events.match_restored.connect(_matches_changed, dispatch_uid="read_cache.restored")
    club_events.players_changed.connect(_players_changed, dispatch_uid="read_cache.players")


def _new_versions(club_id: int, kinds: tuple[str, ...]) -> None:
    try:
        cache.set_many({_version_key(club_id, kind): uuid.uuid4().hex for kind in kinds}, None)
    except Exception:  # the write is committed; its reads expire within ANSWER_SECONDS
        log.warning("could not move the read versions of club %s", club_id, exc_info=True)


def _club_versions(club_id: int, kinds: tuple[str, ...]) -> str:
    keys = [_version_key(club_id, kind) for kind in kinds]
    versions = cache.get_many(keys)
    if len(versions) < len(keys):  # never set, or evicted: new ones (never old ones again)
        for key in keys:
            if key not in versions:
                cache.add(key, uuid.uuid4().hex, None)
        versions = cache.get_many(keys)
    return ":".join(str(versions.get(key)) for key in keys)


def cached_answer(
    club_id: int,
    request: HttpRequest,
    compute: Callable[[], Any],
    *,
    shows: tuple[str, ...] = (MATCHES, PLAYERS),
    part: str = "",
) -> Any:
    """The answer ``compute()`` gives to this request (its absolute URL: path, query,
    host), from the cache when what it ``shows`` of the club has not changed since it
    was computed. ``part`` names a narrower version of what it shows (a ladder's).
    Answers say results and seats in the reader's language: the language is in the key."""
    url = hashlib.sha256(request.build_absolute_uri().encode()).hexdigest()
    language = translation.get_language() or ""
    try:
        key = f"club-read:{club_id}:{_club_versions(club_id, shows)}:{part}:{language}:{url}"
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
