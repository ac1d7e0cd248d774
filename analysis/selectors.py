"""Reads of match analysis: the stored analysis of a match, and what one perspective
of the replay may see of it.

The replay's rule (replay.frames): a seat's perspective holds only what that seat could
know. So a seat's perspective gets the win chances *from its own information* of the
seats it plays (a team perspective: the team's seats), and the labels, accuracy and best
moves of the decisions it made; the all-seeing figures, other seats' own figures (Mister
X's own chance says where he is) and the "could not have known" marks (made from the
all-seeing position) go to the all-seeing perspective only.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db.models import Count, Exists, OuterRef, Q
from django.utils import formats, timezone, translation
from django.utils.translation import gettext, ngettext

from analysis import budgets
from analysis.budgets import default_budget
from analysis.models import ClubAnalysisDay, MatchAnalysis
from analysis.services import MAX_ATTEMPTS, AnalysisError, current_version, plan_of
from clubs.bots import names_at_table
from clubs.models import Club
from clubs.policy import AnyUser, can_analyse
from config import zones
from config.errors import AppError
from config.sentences import engine_locale, say
from engine import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    PUBLIC,
    Table,
    all_games,
    analysable,
    analysis_playouts,
    analysis_version,
    get_game,
    msg,
    render,
)
from games import policy as match_policy
from games.models import Match
from games.selectors import PLAYED_ORDER, seats_with_players
from replay.frames import ALL, viewer_ids


def _sees(game: Any, viewer: str, seat: str) -> bool:
    return viewer == ALL or seat == viewer or game.acts_for(viewer, seat)


def analysis_payload(match: Match, viewer: str, user: AnyUser) -> dict[str, Any]:
    """The analysis of ``match`` as ``viewer`` (``all``, a seat or a team) may see it,
    with its status and progress. AnalysisError ``unknown_view`` for a perspective the
    match lacks."""
    game = get_game(match.game)
    log = match.log.document
    if game is None or viewer not in [*viewer_ids(game, log), PUBLIC]:
        raise AnalysisError(f"unknown perspective {viewer!r}", code="unknown_view")
    version = current_version(match)
    payload: dict[str, Any] = {
        "match": match.pk,
        "viewer": viewer,
        "available": version is not None and match.status == Match.Status.VALID,
        "reason": None,
        "status": "none",
        "progress": None,
        "can_request": False,
        "error": None,
        "note": None,
        "waiting": None,
        "thresholds": {"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER},
        "result": None,
    }
    if version is None:
        payload["reason"] = gettext(
            "%(game)s matches cannot be analysed yet: the engine has no "
            "belief sampler for this game."
        ) % {"game": game.name}
        return payload
    if match.status != Match.Status.VALID:
        payload["reason"] = gettext("Only a finished, valid match can be analysed.")
        return payload
    analysis = MatchAnalysis.objects.filter(match=match, engine_version=version).first()
    try:
        budget = analysis.budget if analysis is not None else plan_of(match).budget
    except AppError as exc:  # too long to analyse
        payload["available"], payload["reason"] = False, exc.message
        return payload
    if budget < default_budget():
        fewer = analysis_playouts(game, budget)["own"]
        payload["note"] = ngettext(
            "This match is long, so a seat's chance comes from %(count)s game played on with "
            "the medium bot instead of %(default)s: its figures are less sure.",
            "This match is long, so a seat's chance comes from %(count)s games played on with "
            "the medium bot instead of %(default)s: its figures are less sure.",
            fewer,
        ) % {"count": fewer, "default": analysis_playouts(game, default_budget())["own"]}
    retries_left = analysis is None or analysis.attempts < MAX_ATTEMPTS
    payload["can_request"] = bool(user.is_authenticated and can_analyse(user, match.club)) and (
        analysis is None
        or analysis.status == MatchAnalysis.Status.WAITING
        or (analysis.status == MatchAnalysis.Status.FAILED and retries_left)
    )
    if analysis is None:
        return payload
    payload["status"] = shown_status(analysis)
    payload["progress"] = {"done": analysis.plies_done, "total": analysis.plies_total}
    if analysis.status == MatchAnalysis.Status.WAITING:
        payload["waiting"] = waiting_sentence(match.club.time_zone)
    if analysis.status == MatchAnalysis.Status.FAILED:
        reason = _reason(analysis.error)
        first = (
            gettext("The analysis failed; it can be requested again.")
            if retries_left
            else ngettext(
                "The analysis failed %(count)s time; it is not started again until the engine "
                "changes.",
                "The analysis failed %(count)s times; it is not started again until the engine "
                "changes.",
                analysis.attempts,
            )
            % {"count": analysis.attempts}
        )
        payload["error"] = " ".join([first, *([reason] if reason else [])])
    if analysis.status == MatchAnalysis.Status.DONE:
        payload["result"] = _visible(game, log, analysis, viewer)
    return payload


def shown_status(analysis: MatchAnalysis) -> str:
    """The analysis' status as its reader should take it: one started but with no chunk
    picked up by a worker yet (its chunks waiting in the queue, or about to be sent) is
    ``queued``, not ``running``: nothing is being worked out yet."""
    if analysis.status == MatchAnalysis.Status.RUNNING and not analysis.chunks.exists():
        return MatchAnalysis.Status.QUEUED
    return analysis.status


def _reason(stored: str) -> str | None:
    """A stored reason (services.stored_reason) said in the active language; None for a
    row without one (or one stored before reasons were messages)."""
    try:
        message = json.loads(stored)
    except ValueError:
        return None
    return say(message) if isinstance(message, dict) and "id" in message else None


def _visible(
    game: Any, log: dict[str, Any], analysis: MatchAnalysis, viewer: str
) -> dict[str, Any]:
    result = analysis.result
    assert result is not None
    seats = [s for s in result["seats"] if _sees(game, viewer, s)]
    # the figures not estimated (no world could be dealt), with why, in the reader's language
    missing = {
        (p["ply"], s, reason)
        for p in result["plies"]
        for s, reason in p.get("not_estimated", {}).items()
        if s in seats
    }
    missing |= {
        (m["ply"], m["seat"], m["not_estimated"])
        for m in result["moves"]
        if "not_estimated" in m and _sees(game, viewer, m["seat"])
    }
    notes = [
        {"ply": ply, "seat": seat, "text": say(msg(reason))}
        for ply, seat, reason in sorted(missing)
    ]
    # each chance with its standard error: the page draws the band it lies in
    lines = [
        {
            "seat": s,
            "kind": "own",
            "points": [p["own"][s] for p in result["plies"]],
            "errors": [p["own_se"][s] for p in result["plies"]],
        }
        for s in seats
    ]
    if viewer == ALL:
        lines += [
            {
                "seat": s,
                "kind": "all",
                "points": [p["all"][s] for p in result["plies"]],
                "errors": [p["all_se"][s] for p in result["plies"]],
            }
            for s in result["seats"]
        ]
    options = game.normalize_options(log.get("options") or {})
    table = Table(names_at_table(log["seats"]), options)
    moves = []
    for move in result["moves"]:
        if not move["rated"] or not _sees(game, viewer, move["seat"]):
            continue
        best = move.get("best")
        shown = {
            "ply": move["ply"],
            "seat": move["seat"],
            "label": move["label"],
            "drop": move["drop"],
            "unclear": move["unclear"],
            "drop_low": move["drop_low"],
            "drop_high": move["drop_high"],
            "played_value": move["played_value"],
            "best_value": move["best_value"],
            "best": None if best is None else game.notation(best),
            "best_sentence": None
            if best is None
            else render(game.describe(best, table), engine_locale()),
        }
        if viewer == ALL:
            shown["unknowable"] = move["unknowable"]
            shown["all_seeing_drop"] = move["all_seeing_drop"]
        moves.append(shown)
    return {
        "engine": result["engine"],
        "budget": result["budget"],
        "playouts": analysis_playouts(game, result["budget"]),
        "lines": lines,
        "moves": moves,
        "accuracy": {s: a for s, a in result["accuracy"].items() if _sees(game, viewer, s)},
        "accuracy_se": {s: a for s, a in result["accuracy_se"].items() if _sees(game, viewer, s)},
        "not_estimated": notes,
    }


#: how many of a player's latest analysed matches its page averages
RECENT_ACCURACY = 10


def recent_accuracy(
    club_id: int, game_id: str, player_id: int, limit: int = RECENT_ACCURACY
) -> dict[str, Any] | None:
    """A player's accuracy in its latest analysed matches of ``game_id`` in a club (the
    current engine's analyses): ``{"mean", "matches": [{"match", "seat", "accuracy"}]}``,
    None when none of its matches is analysed. Reads the stored results of at most
    ``limit`` matches. A game played online counts once what was hidden in it opens to
    everyone (``games.policy``): a figure made from a seat's own information is its."""
    from games.models import MatchSeat

    game = get_game(game_id)
    if game is None or not analysable(game):
        return None
    club = Club.objects.get(pk=club_id)
    hidden = Match.objects.filter(match_policy.hidden_from(AnonymousUser(), club))
    seats = dict(
        MatchSeat.objects.filter(
            player_id=player_id,
            match__club_id=club_id,
            match__game=game_id,
            match__analyses__engine_version=analysis_version(game),
            match__analyses__status=MatchAnalysis.Status.DONE,
        )
        .exclude(match__in=hidden)
        .values_list("match_id", "seat")
    )
    analyses = (
        MatchAnalysis.objects.filter(
            match_id__in=seats,
            engine_version=analysis_version(game),
            status=MatchAnalysis.Status.DONE,
        )
        .select_related("match")
        .order_by("-match__played_at", "-match_id")[:limit]
    )
    rows = []
    for analysis in analyses:
        seat = seats[analysis.match_id]
        accuracy = (analysis.result or {}).get("accuracy", {}).get(seat)
        if accuracy is not None:
            rows.append({"match": analysis.match_id, "seat": seat, "accuracy": accuracy})
    if not rows:
        return None
    return {"mean": round(sum(r["accuracy"] for r in rows) / len(rows), 1), "matches": rows}


def day_opens(time_zone: str, now: datetime | None = None) -> dict[str, str]:
    """When a club's next day (and its budget) opens, for a sentence in the active
    language: ``zone`` (the club's, named for the reader), and ``when`` (the same moment
    in the reader's time zone, for this page) unless the reader's zone is the club's."""
    language = translation.get_language() or "en"
    starts = budgets.next_day_starts(time_zone, now)
    club_zone = budgets.club_zone(time_zone)
    words = {"zone": zones.sentence_label(club_zone.key, language)}
    reader = timezone.get_current_timezone()
    if starts.astimezone(reader).utcoffset() != starts.utcoffset():
        words["when"] = formats.date_format(starts.astimezone(reader), "SHORT_DATETIME_FORMAT")
        words["reader_zone"] = zones.current_label(language)
    return words


def day_opens_sentence(time_zone: str, now: datetime | None = None) -> str:
    """ "A new day starts at 00:00 in the club's time zone (…)", and when that is for the
    reader, in their own zone."""
    words = day_opens(time_zone, now)
    if "when" in words:
        return (
            gettext(
                "A new day starts at 00:00 in the club's time zone (%(zone)s): %(when)s in "
                "yours (%(reader_zone)s)."
            )
            % words
        )
    return gettext("A new day starts at 00:00 in the club's time zone (%(zone)s).") % words


def waiting_sentence(time_zone: str, now: datetime | None = None) -> str:
    """What an automatic analysis waiting for its club's next day says on its page."""
    words = day_opens(time_zone, now)
    if "when" in words:
        return (
            gettext(
                "Waiting for the club's next day of automatic analysis: it starts from "
                "%(when)s (%(reader_zone)s), as the day's budget allows. That is 00:00 in the "
                "club's time zone (%(zone)s)."
            )
            % words
        )
    return (
        gettext(
            "Waiting for the club's next day of automatic analysis: from 00:00 in the "
            "club's time zone (%(zone)s), as the day's budget allows."
        )
        % words
    )


@dataclass(frozen=True)
class ClubDay:
    """A club's automatic analysis on its day (analysis.budgets: a date in the club's
    time zone): CPU seconds used (what the finished analyses took, the estimates of
    those still to run), the day's limit, the matches waiting for a next day, and those
    that cost more than a whole day's budget."""

    used: float
    limit: int
    skipped: int
    waiting: int = 0
    club: str = ""
    slug: str = ""
    time_zone: str = ""

    @property
    def used_seconds(self) -> int:
        return math.ceil(self.used)

    @property
    def percent(self) -> int:
        return min(100, round(100 * self.used / self.limit)) if self.limit else 100

    @property
    def high(self) -> float:
        """Where the meter turns to a warning: four fifths of the day's budget."""
        return 0.8 * self.limit

    def opens(self) -> str:
        """When the club's next day starts, said for the reader (at render time: in the
        active language and time zone)."""
        return day_opens_sentence(self.time_zone)


def _waiting(club_ids: list[int]) -> dict[int, int]:
    rows = (
        MatchAnalysis.objects.filter(
            match__club_id__in=club_ids, status=MatchAnalysis.Status.WAITING, automatic=True
        )
        .values("match__club_id")
        .annotate(count=Count("pk"))
    )
    return {row["match__club_id"]: row["count"] for row in rows}


def club_analysis_today(club: Club, now: datetime | None = None) -> ClubDay:
    """The club's automatic analysis on its day at ``now`` (the clock's by default)."""
    day = budgets.club_day(club.time_zone, now)
    row = ClubAnalysisDay.objects.filter(club=club, day=day).first()
    return ClubDay(
        used=max(0.0, row.reserved_seconds) if row else 0.0,
        skipped=row.skipped if row else 0,
        waiting=_waiting([club.pk]).get(club.pk, 0),
        limit=settings.LANTERN_CLUB_ANALYSIS_SECONDS_PER_DAY,
        club=club.name,
        slug=club.slug,
        time_zone=club.time_zone,
    )


def clubs_analysis_today(limit: int = 20) -> list[ClubDay]:
    """The clubs whose automatic analysis used the most on their day (the operators'
    dashboard). Each club's day is its own date, one of the three dates the zones of the
    world are on around now."""
    now = timezone.now()
    utc_day = now.date()
    candidates = (
        ClubAnalysisDay.objects.filter(
            day__range=(utc_day - timedelta(days=1), utc_day + timedelta(days=1))
        )
        .select_related("club")
        .order_by("-reserved_seconds", "club__name")
    )
    rows = [row for row in candidates if row.day == budgets.club_day(row.club.time_zone, now)]
    rows = rows[:limit]
    waiting = _waiting([row.club_id for row in rows])
    return [
        ClubDay(
            used=max(0.0, row.reserved_seconds),
            limit=settings.LANTERN_CLUB_ANALYSIS_SECONDS_PER_DAY,
            skipped=row.skipped,
            waiting=waiting.get(row.club_id, 0),
            club=row.club.name,
            slug=row.club.slug,
            time_zone=row.club.time_zone,
        )
        for row in rows
    ]


def analysed_matches(club: Club, limit: int = 5) -> list[Match]:
    """The club's matches whose analysis by the current engine is stored, the latest
    played first (the club page lists them, so whoever sees the club finds one; the
    analysis is read on the match's replay, as the replay is)."""
    current = Q(pk__in=[])
    for game_id, game in all_games().items():
        if analysable(game):
            current |= Q(match__game=game_id, engine_version=analysis_version(game))
    done = MatchAnalysis.objects.filter(
        current, match=OuterRef("pk"), status=MatchAnalysis.Status.DONE
    )
    return list(
        club.matches.filter(Exists(done))
        .prefetch_related(seats_with_players())
        .order_by(*PLAYED_ORDER)[:limit]
    )
