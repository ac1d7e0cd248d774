"""The recompute jobs' lifecycle: queued, retried, marked stalled, nightly."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from config.queueing import send_task_on_commit
from ladder.kernel import (
    rated_games,
)
from ladder.models import Ladder, RecomputeJob
from ladder.services.reads import rated_matches
from ladder.services.recompute import recompute_ladder


class RecomputeError(Exception):
    """A recompute request that cannot be carried out, with a sentence for the operator."""


#: A queued or running job with no sign of life for this long has lost its task or its
#: worker (killed, the broker lost the message): it may be retried like a failed one.
#: A running job saves its progress every PROGRESS_SECONDS; writing a very large
#: ladder's history is its longest silence, far below this.
STALLED_AFTER = timedelta(minutes=15)


def last_sign_of_life(job: RecomputeJob) -> datetime:
    return job.heartbeat_at or job.started_at or job.created_at


def is_stalled(job: RecomputeJob, now: datetime | None = None) -> bool:
    """Queued or running, and silent for STALLED_AFTER."""
    if job.status not in (RecomputeJob.Status.QUEUED, RecomputeJob.Status.RUNNING):
        return False
    return (now or timezone.now()) - last_sign_of_life(job) >= STALLED_AFTER


def queue_recompute(ladder: Ladder, reason: str) -> RecomputeJob:
    """A queued job (visible at once) and its task, sent once this transaction commits."""
    job = RecomputeJob.objects.create(ladder=ladder, reason=reason)
    send_task_on_commit("ladder.recompute_ladder", ladder.pk, reason, job.pk)
    return job


def retry_recompute(actor: Any, job_id: int) -> RecomputeJob:
    """Queue the ladder of a failed or stalled recompute again (a new job: the failed one
    keeps its error; a stalled one is marked failed, saying so) and note in the club's
    audit trail who did. Refused when the job neither failed nor stalled, or its ladder
    has a newer job already (retried, or recomputed since)."""
    from clubs.services import audit

    with transaction.atomic():
        # Locking the failed job makes two clicks on Retry queue one recompute, not two.
        job = (
            RecomputeJob.objects.select_for_update()
            .select_related("ladder__club")
            .filter(pk=job_id)
            .first()
        )
        if job is None:
            raise RecomputeError("There is no such recompute job.")
        stalled = is_stalled(job)
        if job.status != RecomputeJob.Status.FAILED and not stalled:
            raise RecomputeError(
                f"Job {job.pk} did not fail and is not stalled ({job.get_status_display()})."
            )
        # Ids grow with time: a job with a larger id on the ladder came after this one.
        newer = (
            RecomputeJob.objects.filter(ladder=job.ladder, pk__gt=job.pk).order_by("-pk").first()
        )
        if newer is not None:
            raise RecomputeError(
                f"The ladder has a newer recompute (job {newer.pk}, "
                f"{newer.get_status_display().lower()}): nothing to retry."
            )
        if stalled:
            _mark_stalled(job, "retried")
        retry = queue_recompute(job.ladder, RecomputeJob.Reason.MANUAL)
        audit(
            job.ladder.club,
            actor,
            "ladder.recompute_retry",
            f"retried the {'stalled' if stalled else 'failed'} recompute of the "
            f"{job.ladder.title} (job {job.pk}, now job {retry.pk})",
            ladder=job.ladder.pk,
            failed_job=job.pk,
            job=retry.pk,
        )
    return retry


#: How every job marked stalled begins its error (how the automatic retry counts them).
STALLED = "Stalled:"
#: Recomputes of one ladder that may stall in a row (each lost its worker or its task)
#: before the last is left failed for an operator: a recompute that kills its worker
#: every time is not retried forever.
MAX_STALLED_IN_A_ROW = 3


def _mark_stalled(job: RecomputeJob, outcome: str) -> None:
    silent_since = timezone.localtime(last_sign_of_life(job)).strftime("%Y-%m-%d %H:%M")
    job.error = (
        f"{STALLED} {job.get_status_display().lower()} with no sign of life since "
        f"{silent_since} (its task or its worker was lost); {outcome}."
    )
    job.status, job.finished_at = RecomputeJob.Status.FAILED, timezone.now()
    job.save(update_fields=["status", "finished_at", "error"])


def retry_stalled_recomputes() -> int:
    """Every few minutes (beat): each stalled job (queued or running, silent for
    STALLED_AFTER: its worker died or its task was lost) is marked failed, saying so, and
    its ladder queued again — unless it is the ladder's MAX_STALLED_IN_A_ROW-th stalled
    job in a row: then it stays failed, on the dashboard, for an operator to retry.
    Returns how many were queued again."""
    queued = 0
    active = RecomputeJob.objects.filter(
        status__in=[RecomputeJob.Status.QUEUED, RecomputeJob.Status.RUNNING]
    ).order_by("pk")
    for job in active.select_related("ladder"):
        if not is_stalled(job):
            continue
        with transaction.atomic():
            job = RecomputeJob.objects.select_for_update().select_related("ladder").get(pk=job.pk)
            if not is_stalled(job):
                continue
            newer = RecomputeJob.objects.filter(ladder=job.ladder, pk__gt=job.pk).exists()
            earlier = RecomputeJob.objects.filter(ladder=job.ladder, pk__lt=job.pk).order_by("-pk")
            in_a_row = 1
            for error in earlier.values_list("error", flat=True)[:MAX_STALLED_IN_A_ROW]:
                if not error.startswith(STALLED):
                    break
                in_a_row += 1
            if newer:
                _mark_stalled(job, "not retried: the ladder has a newer recompute")
            elif in_a_row >= MAX_STALLED_IN_A_ROW:
                _mark_stalled(
                    job,
                    f"not retried: {in_a_row} recomputes of this ladder in a row "
                    "lost their worker (Retry on the dashboard once it is understood)",
                )
            else:
                _mark_stalled(job, "retried automatically")
                queue_recompute(job.ladder, job.reason)
                queued += 1
    return queued


def recompute_all_ladders(reason: str = RecomputeJob.Reason.NIGHTLY) -> list[RecomputeJob]:
    return [
        recompute_ladder(pk, reason=reason) for pk in Ladder.objects.values_list("pk", flat=True)
    ]


def ensure_ladders() -> None:
    """A ladder for every (club, game) with rated matches but none yet, and a bot ladder
    for every (club, game) with rated matches against bots (nightly)."""
    pairs = (
        rated_matches()
        .filter(game__in=rated_games())
        .values_list("club_id", "game", "with_bots")
        .distinct()
    )
    for club_id, game, with_bots in pairs:
        kind = Ladder.Kind.BOTS if with_bots else Ladder.Kind.STANDARD
        Ladder.objects.get_or_create(club_id=club_id, game=game, kind=kind)
