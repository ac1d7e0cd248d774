"""Reads for the replay viewer: a match's frames per perspective, cached and ETag'd."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from django.core.cache import cache
from django.shortcuts import get_object_or_404

from engine import get_game
from games.models import Match
from games.policy import AnyUser
from games.selectors import visible_clubs
from replay.frames import ALL, PAYLOAD_VERSION, build_frames, viewer_ids

#: Frames of a stored log never change for one engine rules version, so a payload
#: can stay cached as long as the cache likes; a week bounds dead entries.
CACHE_SECONDS = 7 * 24 * 3600


@dataclass(frozen=True)
class Frames:
    """A serialized frames payload and its entity tag."""

    etag: str
    body: bytes


def frames_etag(match: Match, viewer: str) -> str:
    """The ETag of ``match``'s frames for ``viewer``, known without replaying: it changes
    exactly when the log, the game's rules version or the payload's shape does."""
    game = get_game(match.game)
    rules_version = game.rules_version if game is not None else ""
    material = (
        f"{PAYLOAD_VERSION}|{match.pk}|{match.content_hash}|{match.game}|{rules_version}|{viewer}"
    )
    return '"' + hashlib.sha256(material.encode()).hexdigest()[:32] + '"'


def match_viewers(match: Match) -> list[str]:
    """``all``, then every seat and team of ``match`` that can be a perspective."""
    game = get_game(match.game)
    return [ALL] if game is None else viewer_ids(game, match.log.document)


def match_frames(match: Match, viewer: str) -> Frames:
    """The frames of ``match`` as ``viewer`` (``all``, a seat or a team) saw them.

    Served from the Django cache (Redis when configured); on a miss the stored log
    is replayed through the engine. Raises ``replay.frames.UnknownViewer`` for a
    perspective the match does not have.
    """
    etag = frames_etag(match, viewer)
    key = "replay:frames:" + etag.strip('"')
    body = cache.get(key)
    if body is None:
        payload = build_frames(match.log.document, viewer, match_id=match.pk)
        body = json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()
        cache.set(key, body, CACHE_SECONDS)
    return Frames(etag=etag, body=body)


def visible_match(user: AnyUser, match_id: int) -> Match:
    """The match ``match_id`` when ``user`` may see its club (games.policy), else Http404:
    a private club's matches do not exist for outsiders."""
    return get_object_or_404(
        Match.objects.select_related("club").filter(club__in=visible_clubs(user)), pk=match_id
    )
