"""What the operator dashboard reads. Each function is one question an operator asks."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import Count, Exists, OuterRef, QuerySet
from django.db.models.functions import TruncDate
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from config.health import check_redis
from games.models import Match, Upload
from ladder.models import RecomputeJob
from ladder.services import is_stalled

#: the periods the dashboard offers for rejections and validation times, in days
PERIODS = (1, 7, 30, 90)
DEFAULT_PERIOD = 7


def uploads_per_day(days: int = 30) -> tuple[list[date], dict[str, list[int]]]:
    """Matches stored per day and game over the last ``days`` days (oldest first)."""
    today = timezone.localdate()
    first = today - timedelta(days=days - 1)
    rows = (
        Match.objects.filter(uploaded_at__date__gte=first)
        .annotate(day=TruncDate("uploaded_at"))
        .values("day", "game")
        .annotate(n=Count("id"))
    )
    day_list = [first + timedelta(days=i) for i in range(days)]
    index = {d: i for i, d in enumerate(day_list)}
    series: dict[str, list[int]] = {}
    for row in rows:
        counts = series.setdefault(row["game"], [0] * days)
        if row["day"] in index:
            counts[index[row["day"]]] += row["n"]
    return day_list, dict(sorted(series.items()))


def database_size() -> dict[str, Any]:
    """Bytes used by the database, by the vendor's own measure."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT pg_database_size(current_database())")
            size = cursor.fetchone()[0]
        elif connection.vendor == "sqlite":
            cursor.execute("PRAGMA page_count")
            pages = cursor.fetchone()[0]
            cursor.execute("PRAGMA page_size")
            size = pages * cursor.fetchone()[0]
        else:
            size = None
    return {"vendor": connection.vendor, "bytes": size}


def queue_health() -> dict[str, Any]:
    """Redis and the Celery workers: reachable, and who answers a ping."""
    if not settings.REDIS_URL:
        return {
            "mode": "eager",
            "redis": None,
            "workers": [],
            "note": gettext(
                "No REDIS_URL: tasks run in the web process; there is no worker to watch."
            ),
        }
    from config.celery import app

    redis_check = check_redis(settings.REDIS_URL)
    workers: list[str] = []
    error = None
    if redis_check["ok"]:
        try:
            replies = app.control.inspect(timeout=1.0).ping() or {}
            workers = sorted(replies)
        except Exception as exc:  # a broker hiccup is something to show, not to crash on
            error = str(exc)
    return {"mode": "redis", "redis": redis_check, "workers": workers, "error": error}


# --- rejections and validation times ------------------------------------------------


def period_start(days: int) -> datetime:
    """The moment ``days`` days ago: a period is the last ``days`` × 24 hours."""
    return timezone.now() - timedelta(days=days)


@dataclass(frozen=True)
class RejectionRate:
    """Upload attempts of one game (or all: ``game`` None) over a period."""

    game: str | None
    attempts: int
    accepted: int
    duplicates: int
    rejected: int

    @property
    def rate(self) -> float:
        """Share of the attempts refused, 0..1 (0 when there were none)."""
        return self.rejected / self.attempts if self.attempts else 0.0

    @property
    def percent(self) -> float:
        return round(100 * self.rate, 1)


def rejection_rates(days: int = DEFAULT_PERIOD) -> list[RejectionRate]:
    """Per game, then all games together (last), the upload attempts of the last ``days``
    days and how many were refused. Uploads whose log named no game (unreadable JSON,
    say) count under the game ``""``. Every attempt counts, duplicates included: each one was an
    upload
    someone made."""
    counts: dict[str, dict[str, int]] = {}
    rows = (
        Upload.objects.filter(created_at__gte=period_start(days))
        .order_by()
        .values_list("game", "status")
        .annotate(n=Count("id"))
    )
    for game, status, n in rows:
        counts.setdefault(game, {})[status] = n

    def rate(game: str | None, by_status: dict[str, int]) -> RejectionRate:
        accepted = by_status.get(Upload.Status.ACCEPTED, 0)
        duplicates = by_status.get(Upload.Status.DUPLICATE, 0)
        rejected = by_status.get(Upload.Status.REJECTED, 0)
        return RejectionRate(game, accepted + duplicates + rejected, accepted, duplicates, rejected)

    per_game = [rate(game, counts[game]) for game in sorted(counts)]
    overall: dict[str, int] = {}
    for by_status in counts.values():
        for status, n in by_status.items():
            overall[status] = overall.get(status, 0) + n
    return [*per_game, rate(None, overall)]


@dataclass(frozen=True)
class RuleCount:
    """How often one rule (or, for refusals no rule covers, one error code) refused a log."""

    rule: str
    error: str
    count: int
    share: float  # of all rejections in the period (and game), 0..1

    @property
    def percent(self) -> float:
        return round(100 * self.share, 1)


def frequent_rejection_rules(
    days: int = DEFAULT_PERIOD, *, game: str | None = None, limit: int = 10
) -> list[RuleCount]:
    """The rule ids that refused the most uploads in the last ``days`` days (of ``game``,
    or of every game), most frequent first. A refusal without a rule id (unknown players,
    too large) counts under its error code, with ``rule`` empty."""
    rejected = Upload.objects.filter(
        status=Upload.Status.REJECTED, created_at__gte=period_start(days)
    )
    if game is not None:
        rejected = rejected.filter(game=game)
    total = rejected.count()
    if not total:
        return []
    rows = (
        rejected.order_by()
        .values_list("error_rule", "error")
        .annotate(n=Count("id"))
        .order_by("-n", "error_rule", "error")[:limit]
    )
    return [RuleCount(rule, error, n, n / total) for rule, error, n in rows]


def recent_rejections(limit: int = 20, *, game: str | None = None) -> QuerySet[Upload]:
    """The newest refused uploads, with their club and uploader (one query)."""
    uploads = Upload.objects.filter(status=Upload.Status.REJECTED)
    if game is not None:
        uploads = uploads.filter(game=game)
    return (
        uploads.select_related("club", "uploaded_by")
        .defer("document_text", "error_details")
        .order_by("-created_at", "-id")[:limit]
    )


def slowest_validations(days: int = DEFAULT_PERIOD, *, limit: int = 10) -> QuerySet[Upload]:
    """The uploads whose replay took the engine longest in the last ``days`` days,
    slowest first, with their club and match (its action count)."""
    return (
        Upload.objects.filter(validation_ms__isnull=False, created_at__gte=period_start(days))
        .select_related("club", "match")
        .defer("document_text", "error_details", "match__result")
        .order_by("-validation_ms", "-id")[:limit]
    )


# --- ladder recompute jobs ----------------------------------------------------------------


def _jobs() -> QuerySet[RecomputeJob]:
    return RecomputeJob.objects.select_related("ladder__club")


def ladder_jobs(
    *, failed_limit: int = 20, finished_limit: int = 5
) -> dict[str, list[RecomputeJob]]:
    """Recompute jobs an operator watches: ``active`` (queued and running, oldest first),
    ``failed`` (newest first; only those their ladder has not recomputed since, so each
    one still needs a look or a retry) and the last few ``finished``."""
    later = RecomputeJob.objects.filter(ladder=OuterRef("ladder"), pk__gt=OuterRef("pk"))
    return {
        "active": list(
            _jobs()
            .filter(status__in=[RecomputeJob.Status.QUEUED, RecomputeJob.Status.RUNNING])
            .order_by("created_at", "id")
        ),
        "failed": list(
            _jobs()
            .filter(status=RecomputeJob.Status.FAILED)
            .exclude(Exists(later))
            .order_by("-created_at", "-id")[:failed_limit]
        ),
        "finished": list(
            _jobs()
            .filter(status=RecomputeJob.Status.DONE)
            .order_by("-finished_at", "-id")[:finished_limit]
        ),
    }


def _when(moment: datetime | None) -> str:
    """A moment as the page shows it, in the site's time zone."""
    return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M") if moment else ""


# What a running recompute is doing (``RecomputeJob.phase``, set by ladder.services), in words.
JOB_PHASES = {
    "reading": gettext_lazy("reading matches"),
    "rating": gettext_lazy("rating the matches"),
    "writing": gettext_lazy("writing the ratings"),
}


def job_summary(job: RecomputeJob) -> dict[str, Any]:
    """One job as the dashboard shows it (the page and /dashboard/jobs.json alike).
    ``stalled``: queued or running but silent too long (ladder.services.is_stalled)."""
    return {
        "id": job.pk,
        "club": job.ladder.club.name,
        "game": job.ladder.game,
        "ladder": job.ladder.title,
        "stalled": is_stalled(job),
        "reason": job.get_reason_display(),
        "status": job.status,
        "status_label": job.get_status_display(),
        "phase": job.phase,
        "phase_label": str(JOB_PHASES.get(job.phase, job.phase)),
        "progress": job.progress,
        "total": job.total,
        "percent": job.percent,
        "error": job.error,
        "created_at": job.created_at.isoformat(),
        "started_at": job.started_at.isoformat() if job.started_at else None,
        "finished_at": job.finished_at.isoformat() if job.finished_at else None,
        "heartbeat_at": job.heartbeat_at.isoformat() if job.heartbeat_at else None,
        "finished": _when(job.finished_at),
        "last_seen": _when(job.heartbeat_at or job.started_at or job.created_at),
    }


# --- tasks given up, imports that failed ---------------------------------------------


def dropped_tasks(limit: int = 20) -> list[Any]:
    """Tasks given up after killing their worker too often (config.redelivery), newest first."""
    from dashboard.models import DroppedTask

    return list(DroppedTask.objects.all()[:limit])


def failed_imports(limit: int = 10) -> list[Any]:
    """Bulk imports that ended failed (a file that could not be read, an internal error,
    or too many lost workers), newest first, with what they kept."""
    from games.models import Import

    return list(
        Import.objects.filter(status=Import.Status.FAILED)
        .select_related("club")
        .order_by("-finished_at", "-id")[:limit]
    )
