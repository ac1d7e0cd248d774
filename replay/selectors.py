"""Reads for the replay viewer: a match's frames per perspective, cached and ETag'd."""

from __future__ import annotations

import gzip
import hashlib
import json
from dataclasses import dataclass

from django.core.cache import cache
from django.http import Http404

from engine import get_game
from games.models import Match
from games.policy import AnyUser, can_view_club
from replay.frames import ALL, PAYLOAD_VERSION, build_frames, viewer_ids

#: Frames of a stored log never change for one engine rules version, so a payload
#: can stay cached as long as the cache likes; a week bounds dead entries.
CACHE_SECONDS = 7 * 24 * 3600


#: Frames repeat most of each view from ply to ply, so even a fast gzip level shrinks
#: them 20x and more (a 709 KB Mister X payload to 37 KB in about 3 ms, once per
#: cached payload; level 6 gets 21 KB for twice the time).
GZIP_LEVEL = 3


@dataclass(frozen=True)
class Frames:
    """A frames payload, serialized and gzipped, and its entity tag."""

    etag: str
    gzipped: bytes

    def body(self) -> bytes:
        """The JSON itself, for a client that does not take gzip."""
        return gzip.decompress(self.gzipped)


def _digest(match: Match, viewer: str) -> str:
    game = get_game(match.game)
    rules_version = game.rules_version if game is not None else ""
    material = (
        f"{PAYLOAD_VERSION}|{match.pk}|{match.content_hash}|{match.game}|{rules_version}|{viewer}"
    )
    return hashlib.sha256(material.encode()).hexdigest()[:32]


def frames_etag(match: Match, viewer: str) -> str:
    """The ETag of ``match``'s frames for ``viewer``, known without replaying: it changes
    exactly when the log, the game's rules version or the payload's shape does. Weak,
    since the gzipped and the plain representation share it."""
    return f'W/"{_digest(match, viewer)}"'


def frames_cache_key(match: Match, viewer: str) -> str:
    return f"replay:frames:{_digest(match, viewer)}"


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
    key = frames_cache_key(match, viewer)
    gzipped = cache.get(key)
    if gzipped is None:
        payload = build_frames(match.log.document, viewer, match_id=match.pk)
        body = json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()
        gzipped = gzip.compress(body, compresslevel=GZIP_LEVEL, mtime=0)
        cache.set(key, gzipped, CACHE_SECONDS)
    return Frames(etag=frames_etag(match, viewer), gzipped=gzipped)


def visible_match(user: AnyUser, match_id: int) -> Match:
    """The match ``match_id`` when ``user`` may see its club (games.policy), else Http404:
    a private club's matches do not exist for outsiders. One plain query (and the
    policy's own for a private club): building a query around the visible clubs cost a
    cached replay more than everything else it does."""
    match = Match.objects.select_related("club").filter(pk=match_id).first()
    if match is None or not can_view_club(user, match.club):
        raise Http404("No such match")
    return match
