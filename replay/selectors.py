"""Reads for the replay viewer: a match's frames per perspective, cached and ETag'd."""

from __future__ import annotations

import gzip
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext

from clubs.bots import names_at_table
from clubs.policy import AnyUser, can_view_club
from config.errors import AppError
from config.sentences import Sentence, engine_locale
from engine import BELIEFS_VERSION, PUBLIC, IllegalAction, Table, get_game, render
from games import policy as match_policy
from games.models import Match
from ladder.models import Ladder, Rating
from ladder.selectors import match_changes
from replay.frames import (
    ALL,
    PAYLOAD_VERSION,
    UnknownPage,
    UnknownViewer,
    build_beliefs,
    build_frames,
    build_views,
    viewer_ids,
    viewer_label,
)

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


def _digest(match: Match, viewer: str, part: str, locale: str = "") -> str:
    game = get_game(match.game)
    rules_version = game.rules_version if game is not None else ""
    # The language is part of the key and tag of every payload with words (the frames):
    # a Japanese reader never gets the cached English sentences, nor a 304 for them. A
    # payload of numbers alone (the beliefs) is one for every language (``locale`` "").
    material = (
        f"{PAYLOAD_VERSION}|{match.pk}|{match.content_hash}|{match.game}|{rules_version}|{viewer}|{part}"
        f"|{locale}"
    )
    return hashlib.sha256(material.encode()).hexdigest()[:32]


def _part(page: int, views_only: bool) -> str:
    return f"views{page}" if views_only else f"frames{page}"


def frames_etag(
    match: Match, viewer: str, page: int = 0, views_only: bool = False, locale: str | None = None
) -> str:
    """The ETag of ``match``'s frames for ``viewer`` with the views of ``page`` (or that
    page's views alone) in ``locale`` (the reader's language by default), known without
    replaying: it changes exactly when the log, the game's rules version, the payload's
    shape or the language does. Weak, since the gzipped and the plain representation
    share it."""
    return f'W/"{_digest(match, viewer, _part(page, views_only), locale or engine_locale())}"'


def frames_cache_key(
    match: Match, viewer: str, page: int = 0, views_only: bool = False, locale: str | None = None
) -> str:
    part = _part(page, views_only)
    return f"replay:frames:{_digest(match, viewer, part, locale or engine_locale())}"


def match_viewers(match: Match) -> list[str]:
    """``all``, then every seat and team of ``match`` that can be a perspective."""
    game = get_game(match.game)
    return [ALL] if game is None else viewer_ids(game, match.log.document)


def match_perspectives(
    match: Match, players: dict[str, str] | None = None, user: AnyUser | None = None
) -> list[dict[str, str]]:
    """Every perspective of ``match`` (``match_viewers``) ``user`` may see it from (None:
    every one; ``perspectives_for``), with its label in the reader's language, as the
    frames API names it (``frames.viewer_label``); ``players``: the player at each seat as
    the page names them (the log's names by default)."""
    game = get_game(match.game)
    if game is None:
        return [{"id": ALL, "label": gettext("All-seeing")}]
    document = match.log.document
    table = Table(
        players or names_at_table(document["seats"]),
        game.normalize_options(document.get("options") or {}),
    )
    viewers = viewer_ids(game, document) if user is None else perspectives_for(user, match)
    return [{"id": v, "label": viewer_label(v, game, table, engine_locale())} for v in viewers]


def perspectives_for(user: AnyUser, match: Match) -> list[str]:
    """The perspectives ``user`` (who sees the club) may see ``match`` from now: all of
    them, or only a spectator's (``public``) while its hidden facts are kept from them
    (``games.policy.sees_hidden``)."""
    return match_viewers(match) if match_policy.sees_hidden(user, match) else [PUBLIC]


def require_perspective(user: AnyUser, match: Match, viewer: str) -> None:
    """Refuse (``games.policy.HiddenForNow``, 403 ``hidden``) any perspective but a
    spectator's to ``user`` while the hidden facts of ``match`` are kept from them: a
    seat's shows that seat's secrets, the all-seeing one every secret."""
    if viewer != PUBLIC:
        match_policy.require_hidden(user, match)


def _cached(key: str, etag: str, build: Callable[[], dict[str, Any]]) -> Frames:
    gzipped = cache.get(key)
    if gzipped is None:
        body = json.dumps(build(), separators=(",", ":"), ensure_ascii=False).encode()
        gzipped = gzip.compress(body, compresslevel=GZIP_LEVEL, mtime=0)
        cache.set(key, gzipped, CACHE_SECONDS)
    return Frames(etag=etag, gzipped=gzipped)


class ReplayRefused(AppError):
    """Frames that cannot be given: ``unknown_view`` (a perspective the match does not
    have), ``unknown_page`` (a page past its frames) or ``unreplayable`` (a stored log the
    current engine cannot even set up: a game removed, a rule changed since it was stored)."""


def _refusing(build: Callable[[], dict[str, Any]]) -> Callable[[], dict[str, Any]]:
    """``build``, its refusals (replay.frames is plain Python) as :class:`ReplayRefused`."""

    def built() -> dict[str, Any]:
        try:
            return build()
        except UnknownViewer as exc:
            raise ReplayRefused(str(exc), code="unknown_view") from None
        except UnknownPage as exc:
            raise ReplayRefused(str(exc), code="unknown_page") from None
        except IllegalAction as exc:
            raise ReplayRefused(
                Sentence.of_engine(exc.sentence),
                code="unreplayable",
                rule=exc.rule,
                index=exc.index,
            ) from None

    return built


def match_frames(match: Match, viewer: str, page: int = 0) -> Frames:
    """The frames of ``match`` as ``viewer`` (``all``, a seat or a team) saw them, those of
    ``page`` with their views (``replay.frames``).

    Served from the Django cache (Redis when configured); on a miss the stored log
    is replayed through the engine. Raises :class:`ReplayRefused`.
    """
    locale = engine_locale()
    return _cached(
        frames_cache_key(match, viewer, page, locale=locale),
        frames_etag(match, viewer, page, locale=locale),
        _refusing(
            lambda: build_frames(
                match.log.document, viewer, match_id=match.pk, locale=locale, page=page
            )
        ),
    )


def match_views(match: Match, viewer: str, page: int) -> Frames:
    """The views of one page of ``match``'s frames (``replay.frames.build_views``), cached
    as :func:`match_frames`. Raises :class:`ReplayRefused`."""
    locale = engine_locale()
    return _cached(
        frames_cache_key(match, viewer, page, views_only=True, locale=locale),
        frames_etag(match, viewer, page, views_only=True, locale=locale),
        _refusing(lambda: build_views(match.log.document, viewer, page, locale=locale)),
    )


def beliefs_etag(match: Match, viewer: str) -> str:
    """The ETag of ``match``'s belief track for ``viewer``: it changes with the log, the
    rules version and the beliefs' method (``BELIEFS_VERSION``)."""
    return f'W/"{_digest(match, viewer, f"beliefs{BELIEFS_VERSION}")}"'


def match_beliefs(match: Match, viewer: str) -> Frames:
    """The beliefs ``viewer`` may see after every ply of ``match``
    (``replay.frames.build_beliefs``), cached as the frames are. Raises :class:`ReplayRefused`."""
    key = f"replay:beliefs:{_digest(match, viewer, f'beliefs{BELIEFS_VERSION}')}"
    return _cached(
        key,
        beliefs_etag(match, viewer),
        _refusing(lambda: build_beliefs(match.log.document, viewer)),
    )


def visible_match(user: AnyUser, match_id: int) -> Match:
    """The match ``match_id`` when ``user`` may see its club (clubs.policy), else Http404:
    a private club's matches do not exist for outsiders. One plain query (and the
    policy's own for a private club): building a query around the visible clubs cost a
    cached replay more than everything else it does."""
    match = Match.objects.select_related("club").filter(pk=match_id).first()
    if match is None or not can_view_club(user, match.club):
        raise Http404("No such match")
    return match


@dataclass(frozen=True)
class SeatRecord:
    """One seat in a replay's header: its role, its player, the rating it won or lost."""

    seat: str
    role: str
    #: the role in a word or two, for a phone (``Game.seat_short_label``: "red and blue")
    short_role: str
    player: str
    player_url: str | None
    outcome: str
    #: the rating change of this match (after - before), None when it was not rated
    change: float | None
    rating_after: float | None

    @property
    def change_text(self) -> str:
        """``+12.4`` / ``−3.0`` (a real minus sign), empty when not rated."""
        return "" if self.change is None else f"{self.change:+.1f}".replace("-", "\u2212")


@dataclass(frozen=True)
class GameRecord:
    """The header of a replay: what a game record names before its moves."""

    seats: list[SeatRecord]
    #: the result as a sentence, None while the game is unfinished or rejected
    result: str | None
    #: the ladder the match was rated on, None when it was not
    ladder: Ladder | None


def game_record(match: Match) -> GameRecord:
    """The players by seat (with links to their ladder pages), the result as the engine
    says it and the rating changes of ``match``: the public facts of the game, the same
    for every perspective. Three queries: seats, the match's changes, the ladder's ratings."""
    game = get_game(match.game)
    seats = list(match.seats.select_related("player").order_by("id"))
    options = game.normalize_options(match.log.document.get("options") or {}) if game else {}
    table = Table({s.seat: s.player.name for s in seats}, options)
    changes = match_changes(match.pk)
    ladder = next((c.ladder for c in changes.values()), None)
    # A player with a rating on this game's ladder has a page there, rated in this match or not.
    if ladder is None:
        kind = Ladder.Kind.BOTS if match.with_bots else Ladder.Kind.STANDARD
        ladder_rows = Ladder.objects.filter(club_id=match.club_id, game=match.game, kind=kind)
        rated_ladder = ladder_rows.first()
    else:
        rated_ladder = ladder
    rated = set()
    if rated_ladder is not None:
        rated = set(
            Rating.objects.filter(
                ladder=rated_ladder, player_id__in=[s.player_id for s in seats]
            ).values_list("player_id", flat=True)
        )
    records = []
    for seat in seats:
        change = changes.get(seat.player_id)
        url = None
        if rated_ladder is not None and seat.player_id in rated:
            url = reverse(
                "ladder-player", args=[match.club.slug, rated_ladder.url_key, seat.player.handle]
            )
        records.append(
            SeatRecord(
                seat=seat.seat,
                role=render(game.seat_label(seat.seat, table), engine_locale())
                if game
                else seat.seat,
                short_role=render(game.seat_short_label(seat.seat, table), engine_locale())
                if game
                else seat.seat,
                player=seat.player.name,
                player_url=url,
                outcome=seat.outcome,
                change=None if change is None else change.after - change.before,
                rating_after=None if change is None else change.after,
            )
        )
    result = None
    if game is not None and match.result and match.status == Match.Status.VALID:
        result = render(game.describe_result(match.result, table), engine_locale())
    return GameRecord(seats=records, result=result, ladder=ladder)
