"""Fair share of the analysis workers (docs/fair-share.md): what one analysis may cost,
how many one person may have queued or running at once, and how many CPU seconds a
club's automatic analysis may take a day.

Cost is counted in *work units*: plies × (seats + 1) × playouts per estimate (each ply
is estimated from every seat's information and from the all-seeing position, each
estimate playing ``budget`` games out; the further batches of worlds of a seat's own
chance and of a move's judgement are not counted here but in the seconds per unit
learned from what the game's analyses took: :func:`seconds_per_unit`). A log too long
for the default budget within ``LANTERN_ANALYSIS_MAX_WORK`` units is analysed with fewer
playouts (its figures less sure, as its page says); one too long even at
``LANTERN_ANALYSIS_MIN_BUDGET`` is not analysed at all.

A club's day is its own: from midnight to midnight in the club's time zone
(``Club.time_zone``; UTC when it has none).

The counts live in the database: a person's requests are serialised by a lock on
their user row (config.fair_share), and a club's day is one
:class:`~analysis.models.ClubAnalysisDay` row
raised only by a conditional update (``reserved + cost <= limit``), so two requests
at once can never both slip under a limit; whoever starts a club's waiting analyses
holds a lock on that row (:func:`lock_club_day`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy, ngettext_lazy

from analysis.models import ClubAnalysisDay, MatchAnalysis
from clubs.models import Club
from config import zones
from config.errors import AppError, OverBudget
from config.fair_share import lock_person
from engine import ANALYSIS_BUDGET

#: analyses whose measured cost teaches the estimate of the next ones of the same game
LEARN_FROM = 50


def default_budget() -> int:
    """Playouts per estimate of an analysis not cut down for length."""
    return int(getattr(settings, "LANTERN_ANALYSIS_BUDGET", ANALYSIS_BUDGET))


def work(plies: int, seats: int, budget: int) -> int:
    """The work units of analysing ``plies`` positions of a game of ``seats`` seats."""
    return plies * (seats + 1) * budget


@dataclass(frozen=True)
class Plan:
    """How a log will be analysed: playouts per estimate, and the work it costs."""

    budget: int
    work: int

    @property
    def reduced(self) -> bool:
        return self.budget < default_budget()


def plan(plies: int, seats: int) -> Plan:
    """The budget for a log of ``plies`` positions and ``seats`` seats: the default, or
    fewer playouts so that it stays within ``LANTERN_ANALYSIS_MAX_WORK`` units. Raises
    AppError ``too_long`` when even the smallest budget would not."""
    cap = settings.LANTERN_ANALYSIS_MAX_WORK
    budget = min(default_budget(), cap // max(1, plies * (seats + 1)))
    smallest = min(default_budget(), settings.LANTERN_ANALYSIS_MIN_BUDGET)
    if budget < smallest:
        longest = cap // ((seats + 1) * smallest) - 1
        raise AppError(
            format_lazy(
                gettext_lazy(
                    "this match is too long to analyse: {moves} moves at {seats} seats (the "
                    "longest "
                    "analysed at {seats} seats has {longest} moves)"
                ),
                moves=plies - 1,
                seats=seats,
                longest=longest,
            ),
            code="too_long",
        )
    return Plan(budget, work(plies, seats, budget))


def seconds_per_unit(game: str) -> float:
    """CPU seconds per work unit of ``game``, as its latest measured analyses took them
    (``LANTERN_ANALYSIS_SECONDS_PER_UNIT`` until some are measured)."""
    measured = (
        MatchAnalysis.objects.filter(
            match__game=game,
            cpu_seconds__isnull=False,
            work__gt=0,
            status=MatchAnalysis.Status.DONE,
        )
        .order_by("-finished_at")
        .values_list("cpu_seconds", "work")[:LEARN_FROM]
    )
    seconds = sum(row[0] for row in measured)
    units = sum(row[1] for row in measured)
    return seconds / units if units else settings.LANTERN_ANALYSIS_SECONDS_PER_UNIT


def estimate(game: str, units: int) -> float:
    """Estimated CPU seconds of an analysis of ``units`` work units of ``game``."""
    return units * seconds_per_unit(game)


# --- a person ------------------------------------------------------------------------


def _active(user: AbstractBaseUser):
    return MatchAnalysis.objects.filter(
        requested_by=user,
        automatic=False,
        status__in=[MatchAnalysis.Status.QUEUED, MatchAnalysis.Status.RUNNING],
    )


def admit_person(user: AbstractBaseUser) -> None:
    """Within the transaction that queues an analysis for ``user``: refuse it
    (OverBudget, 429) when they have ``LANTERN_ANALYSES_AT_ONCE`` queued or running."""
    lock_person(user)
    limit = settings.LANTERN_ANALYSES_AT_ONCE
    active = list(_active(user).values_list("estimated_seconds", "plies_done", "plies_total"))
    if len(active) < limit:
        return
    # The soonest to end: what is left of its estimate (at least a few seconds).
    left = min(seconds * (1 - done / total if total else 1) for seconds, done, total in active)
    wait = max(10, math.ceil(left))
    raise OverBudget(
        format_lazy(
            ngettext_lazy(
                "You have {count} analysis queued or running, and the limit is {limit} at once per "
                "person. Try again in about {wait} seconds, when one has finished.",
                "You have {count} analyses queued or running, and the limit is {limit} at once per "
                "person. Try again in about {wait} seconds, when one has finished.",
                "count",
            ),
            count=len(active),
            limit=limit,
            wait=wait,
        ),
        retry_after=wait,
        limit=limit,
    )


# --- a club's automatic analysis -------------------------------------------------------


def club_zone(time_zone: str) -> ZoneInfo:
    """The zone a club's days are counted in: its own (``Club.time_zone``), UTC when it
    has none (or one this machine does not know)."""
    return zones.zone_or_none(time_zone) or ZoneInfo("UTC")


def club_day(time_zone: str, now: datetime | None = None) -> date:
    """The club's day at ``now`` (the clock's by default): the date in its time zone."""
    return (now or timezone.now()).astimezone(club_zone(time_zone)).date()


def day_starts(time_zone: str, day: date) -> datetime:
    """When the club's ``day`` starts: its midnight in the club's time zone (the first
    moment of that date where a clock change skips midnight)."""
    zone = club_zone(time_zone)
    midnight = datetime.combine(day, time(0), tzinfo=zone)
    # a midnight a clock change skips does not exist: the day starts at the first moment
    # the zone's clocks show that date, which a round trip through UTC finds
    return midnight.astimezone(UTC).astimezone(zone)


def next_day_starts(time_zone: str, now: datetime | None = None) -> datetime:
    """When the club's next day (and a new day's budget) starts."""
    return day_starts(time_zone, club_day(time_zone, now) + timedelta(days=1))


def _club_time_zone(club_id: int) -> str:
    return Club.objects.filter(pk=club_id).values_list("time_zone", flat=True).first() or ""


def _day(club_id: int, day: date) -> None:
    """Make sure the club's row for ``day`` exists (two first requests at once: one
    creates it, the other finds it)."""
    if ClubAnalysisDay.objects.filter(club_id=club_id, day=day).exists():
        return
    try:
        with transaction.atomic():
            ClubAnalysisDay.objects.create(club_id=club_id, day=day)
    except IntegrityError:
        pass


def lock_club_day(club_id: int, day: date) -> ClubAnalysisDay:
    """The club's row for ``day``, locked until the transaction ends (call inside
    ``atomic``): whoever starts the club's waiting analyses does it alone."""
    _day(club_id, day)
    return ClubAnalysisDay.objects.select_for_update().get(club_id=club_id, day=day)


def reserve_for_club(club_id: int, seconds: float, *, day: date | None = None) -> bool:
    """Reserve ``seconds`` of the club's automatic-analysis budget for ``day`` (the
    club's today by default); False when they do not fit."""
    if day is None:
        day = club_day(_club_time_zone(club_id))
    _day(club_id, day)
    limit = settings.LANTERN_CLUB_ANALYSIS_SECONDS_PER_DAY
    rows = ClubAnalysisDay.objects.filter(club_id=club_id, day=day)
    return bool(
        rows.filter(reserved_seconds__lte=limit - seconds).update(
            reserved_seconds=F("reserved_seconds") + seconds
        )
    )


def never_fits(club_id: int, day: date) -> None:
    """Count a match whose estimate is more than a whole day's budget: it is not analysed
    automatically on any day."""
    _day(club_id, day)
    ClubAnalysisDay.objects.filter(club_id=club_id, day=day).update(skipped=F("skipped") + 1)


def settle(analysis: MatchAnalysis, cpu_seconds: float, *, share: float) -> None:
    """A stored chunk of an automatic analysis took ``cpu_seconds``: the club day that
    paid for the analysis holds that in place of the chunk's ``share`` of its estimate."""
    if not analysis.automatic:
        return
    spent = cpu_seconds - analysis.estimated_seconds * share
    ClubAnalysisDay.objects.filter(
        club_id=analysis.match.club_id, day=analysis.club_day or analysis.created_at.date()
    ).update(reserved_seconds=F("reserved_seconds") + spent)
