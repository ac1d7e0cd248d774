"""Reads of clubs and matches (HackSoft style: views call these, never build queries)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db.models import (
    F,
    Prefetch,
    QuerySet,
    prefetch_related_objects,
)

import engine
from clubs import policy
from clubs.models import Club
from clubs.policy import AnyUser
from clubs.selectors import visible_clubs
from config.sentences import engine_locale, say
from engine import canonical_json
from games import policy as upload_policy
from games.models import Import, Match, MatchLog, MatchSeat, Upload

#: Lists of matches on pages: the latest played first, those of unknown date last.
PLAYED_ORDER = (F("played_at").desc(nulls_last=True), "-id")


def recent_matches(user: AnyUser, limit: int = 20) -> QuerySet[Match]:
    """The latest played matches of the clubs the user can see, seats and players prefetched."""
    return (
        Match.objects.filter(club__in=visible_clubs(user))
        .select_related("club")
        .prefetch_related(seats_with_players())
        .order_by(*PLAYED_ORDER)[:limit]
    )


def games_of(user: AnyUser, limit: int = 20, viewer: AnyUser | None = None) -> QuerySet[Match]:
    """The latest played matches in which ``user`` held a seat (through the handles the
    clubs link to their account), in the clubs ``viewer`` (by default ``user``) may see."""
    if not user.is_authenticated:
        return Match.objects.none()
    return (
        Match.objects.filter(
            club__in=visible_clubs(viewer or user),
            id__in=MatchSeat.objects.filter(player__user=user).values("match_id"),
        )
        .select_related("club")
        .prefetch_related(seats_with_players())
        .order_by(*PLAYED_ORDER)[:limit]
    )


@dataclass(frozen=True)
class MatchFilters:
    """The filters of a match list (page or API): each None means "any"."""

    game: str | None = None
    player: str | None = None
    status: str | None = None
    played_from: date | None = None
    played_to: date | None = None

    def apply(self, matches: QuerySet[Match]) -> QuerySet[Match]:
        if self.game:
            matches = matches.filter(game=self.game)
        if self.status:
            matches = matches.filter(status=self.status)
        if self.player:
            matches = matches.filter(
                id__in=MatchSeat.objects.filter(player__handle=self.player).values("match_id")
            )
        if self.played_from:
            matches = matches.filter(played_at__date__gte=self.played_from)
        if self.played_to:
            matches = matches.filter(played_at__date__lte=self.played_to)
        return matches


def seats_with_players() -> Prefetch:
    """Prefetch a page's seats with their players joined: one query rather than two."""
    return Prefetch("seats", queryset=MatchSeat.objects.select_related("player"))


def with_seat_summaries(matches: Sequence[Match]) -> Sequence[Match]:
    """Give each match ``seat_summaries``, its seats as the API shows them
    (``{"seat", "player", "outcome"}``, in seat order), read in one query of plain
    rows: a page of matches spent more on Django's prefetch (a queryset and two model
    instances per seat) than on anything else (bench/load/README.md)."""
    by_match: dict[int, list[dict[str, str]]] = {match.pk: [] for match in matches}
    rows = (
        MatchSeat.objects.filter(match_id__in=list(by_match))
        .order_by("match_id", "id")
        .values_list("match_id", "seat", "player__handle", "outcome")
    )
    for match_id, seat, handle, outcome in rows:
        by_match[match_id].append({"seat": seat, "player": handle, "outcome": outcome})
    for match in matches:
        match.seat_summaries = by_match[match.pk]
    return matches


def with_players(match: Match) -> Match:
    """``match`` with its seats and their players read in one query, for its page (which
    names each player as people read them: ``Player.name``)."""
    prefetch_related_objects([match], seats_with_players())
    return match


def with_seats(match: Match) -> Match:
    """``match`` with its ``seat_summaries`` (a match just stored by ``ingest_log``, or
    read on its own, before the API shows it)."""
    with_seat_summaries([match])
    return match


def club_matches(club: Club, filters: MatchFilters | None = None) -> QuerySet[Match]:
    """The club's matches, newest upload first, seats and players prefetched."""
    return club_match_rows(club, filters).prefetch_related(seats_with_players())


def club_matches_played(club: Club, filters: MatchFilters | None = None) -> QuerySet[Match]:
    """The club's matches for its pages: the latest played first, unknown dates last."""
    return club_matches(club, filters).order_by(*PLAYED_ORDER)


def club_match_rows(club: Club, filters: MatchFilters | None = None) -> QuerySet[Match]:
    """The club's matches, newest upload first, without their seats (the API pages
    them, then adds ``with_seat_summaries``). Each match's ``club`` is ``club`` itself
    (the related manager hands it over): no join, no Club instance per row."""
    matches = club.matches.all()
    if filters is not None:
        matches = filters.apply(matches)
    return matches.order_by("-id")


def match_for(user: AnyUser, match_id: int) -> Match | None:
    """The match if ``user`` may see its club; None otherwise (a 404 either way)."""
    match = Match.objects.select_related("club", "uploaded_by").filter(pk=match_id).first()
    if match is None or not policy.can_view_club(user, match.club):
        return None
    return match


def match_options(match: Match) -> dict[str, Any]:
    """The rule options the match's log was played with (its seats' names depend on them)."""
    options = (
        MatchLog.objects.filter(match=match).values_list("document__options", flat=True).first()
    )
    return options if isinstance(options, dict) else {}


def match_document(match: Match) -> dict[str, Any]:
    return MatchLog.objects.values_list("document", flat=True).get(match=match)


def stored_log_text(match: Match) -> str:
    """The stored log as its canonical JSON text: its sha256 is the match's content hash."""
    return canonical_json(match_document(match))


def export_texts(matches: QuerySet[Match]) -> Iterator[tuple[str, str]]:
    """``(file name, canonical JSON)`` of each match's log, in match order, read in chunks."""
    logs = (
        MatchLog.objects.filter(match__in=matches.order_by())
        .select_related("match__club")
        .order_by("match_id")
    )
    for log in logs.iterator(chunk_size=200):
        match = log.match
        yield f"{match.club.slug}-{match.pk}-{match.game}.json", canonical_json(log.document)


def club_games(club: Club) -> list[str]:
    """The game ids the club has matches of, for a filter's choices."""
    return sorted(set(Match.objects.filter(club=club).values_list("game", flat=True).distinct()))


def club_uploads(
    club: Club, user: AnyUser, status: str | None = None, import_run: int | None = None
) -> QuerySet[Upload]:
    """The club's upload attempts ``user`` may see: all for organisers, else their own."""
    uploads = Upload.objects.filter(club=club).select_related("uploaded_by", "match", "import_run")
    if not policy.can_import(user, club):
        if not user.is_authenticated:
            return uploads.none()
        uploads = uploads.filter(uploaded_by=user)
    if status:
        uploads = uploads.filter(status=status)
    if import_run is not None:
        uploads = uploads.filter(import_run_id=import_run)
    return uploads.order_by("-id")


def upload_for(user: AnyUser, upload_id: int) -> Upload | None:
    upload = Upload.objects.select_related("club", "match").filter(pk=upload_id).first()
    if upload is None or not upload_policy.can_see_upload(user, upload):
        return None
    return upload


def club_imports(club: Club) -> QuerySet[Import]:
    return Import.objects.filter(club=club).defer("payload").select_related("created_by")


def import_for(user: AnyUser, import_id: int) -> Import | None:
    run = Import.objects.defer("payload").select_related("club").filter(pk=import_id).first()
    if run is None or not upload_policy.can_see_import(user, run):
        return None
    return run


def import_rejections(run: Import) -> QuerySet[Upload]:
    """The rejected logs of an import, in the order they were read."""
    return Upload.objects.filter(import_run=run, status=Upload.Status.REJECTED).order_by("id")


@dataclass(frozen=True)
class StepAction:
    index: int
    notation: str
    #: the action the engine refused (the last one listed)
    offending: bool = False
    #: the move as the engine says it, in the reader's language
    sentence: str = ""
    #: the refused action as the log writes it (JSON), for the one who fixes the file
    written: str = ""


@dataclass(frozen=True)
class Walkthrough:
    """The valid part of a rejected log, to step through up to the refused action."""

    game_name: str
    actions: list[StepAction]
    #: valid plies: 0 (the setup) .. ``last_ply``
    last_ply: int
    ply: int
    state_text: str
    #: what the replay's board drawing needs to draw the position at ``ply`` (and the move
    #: that led to it): the frames payload's shape, two frames at most
    board: dict[str, Any]


def _notation(game: engine.Game, action: Any) -> str:
    try:
        return game.notation(action)
    except Exception:  # a refused action may be too broken to name; show it as written
        return json.dumps(action, ensure_ascii=False)[:300]


def _sentence(game: engine.Game, action: Any, table: engine.Table) -> str:
    try:
        return say(game.describe(action, table))
    except Exception:  # a refused action may be too broken to say; it is shown as written
        return ""


def _state_text(game: engine.Game, state: Any) -> str:
    """The board at a step of a rejected upload, as the engine writes it in the reader's
    language."""
    try:
        return game.render_text(state, engine_locale())
    except NotImplementedError:
        return json.dumps(game.view(state, None), indent=1, ensure_ascii=False)


def _frame(
    game: engine.Game, state: Any, ply: int, action: Any, table: engine.Table
) -> dict[str, Any]:
    clock = game.clock(state)
    return {
        "ply": ply,
        "round": clock.get("round"),
        "phase": clock.get("phase"),
        "seat": action.get("seat") if action else None,
        "action": action,
        "sentence": _sentence(game, action, table) if action else None,
        "view": game.view(state, None),
    }


def _board(partial: Any, shown: int, table: engine.Table) -> tuple[dict[str, Any], Any]:
    """The position after ``shown`` valid actions as the replay draws it, all-seeing (the
    uploader and the organisers read the whole log), with the move that led to it; and
    that state, for its text."""
    game, options = partial.game, partial.options
    before = max(0, shown - 1)
    # The valid prefix stepped again through the engine's one stepper.
    session = engine.Session(
        game,
        options,
        partial.seats,
        partial.log.get("setup") or {},
        partial.log.get("seed"),
        partial.actions[:before],
    )
    frames = [_frame(game, session.state, before, None, table)]
    if shown > before:
        action = partial.actions[before]
        session.step(action)
        frames.append(_frame(game, session.state, shown, action, table))
    seats = [entry["seat"] for entry in partial.log.get("seats") or []]
    language = engine_locale()
    payload = {
        "renderer": game.renderer,
        "game": game.id,
        "viewer": "all",
        "options": options,
        "seats": [
            {"seat": e["seat"], "player": e["player"]} for e in partial.log.get("seats") or []
        ],
        "seat_labels": {
            v: engine.render(game.seat_label(v, table), language)
            for v in game.viewers(options, seats)
        },
        "static": game.static_view(options),
        "card_words": {
            card: engine.render(words, language) for card, words in game.card_words(options).items()
        },
        "phases": {
            f["phase"]: engine.render(game.phase_label(f["phase"]), language)
            for f in frames
            if f["phase"]
        },
        "frames": frames,
    }
    return payload, session.state


def rejected_walkthrough(upload: Upload, ply: int | None = None) -> Walkthrough | None:
    """Replay a rejected upload's text up to its error; None when nothing of it was valid
    (not JSON, a broken envelope or setup) or the text was not kept."""
    if not upload.document_text:
        return None
    try:
        engine.replay(engine.parse_json(upload.document_text))
    except engine.IllegalAction as exc:
        partial, error = exc.partial, exc
    else:
        return None  # valid with today's engine (it changed since): nothing to walk up to
    if partial is None:
        return None
    game = partial.game
    table = engine.Table(partial.players, partial.options)
    actions = [
        StepAction(i, _notation(game, a), sentence=_sentence(game, a, table))
        for i, a in enumerate(partial.actions)
    ]
    raw_actions = partial.log.get("actions") or []
    if error.index is not None and error.index < len(raw_actions):
        refused = raw_actions[error.index]
        actions.append(
            StepAction(
                error.index,
                _notation(game, refused),
                True,
                _sentence(game, refused, table),
                json.dumps(refused, ensure_ascii=False),
            )
        )
    last = len(partial.actions)
    shown = last if ply is None else max(0, min(ply, last))
    board, state = _board(partial, shown, table)
    return Walkthrough(say(game.title()), actions, last, shown, _state_text(game, state), board)


def voided_matches(club: Club) -> QuerySet[Match]:
    return club.matches.filter(is_void=True).order_by("-voided_at")
