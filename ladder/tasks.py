"""Celery tasks of the ladder app: thin wrappers over ``ladder.services``."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task

from config.redelivery import BoundedRedeliveryTask
from ladder import services
from ladder.models import RecomputeJob

#: A worker that dies in the middle of a task (SIGKILL, out of memory, a lost machine)
#: must not lose it: the message is acknowledged only once the task has finished
#: (``acks_late``) and handed back to the queue when the process running it is lost
#: (``reject_on_worker_lost``). If the whole worker dies, Redis gives the message to
#: another worker after the broker's visibility timeout (settings). Rerunning these
#: tasks is safe: a recompute computes, then swaps in one transaction, and a rated
#: match is never rated twice.
#: A task that kills its worker each time is given up after a few deliveries
#: (config.redelivery) and listed on the dashboard.
REDELIVERED_IF_LOST = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "base": BoundedRedeliveryTask,
}


@shared_task(name="ladder.rate_match", **REDELIVERED_IF_LOST)
def rate_match(match_id: int) -> str:
    """Rate a stored match (queued after every ingest, with transaction.on_commit).
    Back-dated or voided: the ladder recomputes. Running it twice changes nothing."""
    return str(services.apply_match(match_id))


@shared_task(name="ladder.rate_matches", **REDELIVERED_IF_LOST)
def rate_matches(match_ids: list[int]) -> list[str]:
    """rate_match for each match in turn: a bulk import queues one task per batch of
    logs rather than one per match (the first back-dated one recomputes its ladder
    from the earliest match still waiting; the others then find themselves rated)."""
    return [str(services.apply_match(match_id)) for match_id in match_ids]


@shared_task(name="ladder.recompute_ladder", **REDELIVERED_IF_LOST)
def recompute_ladder(
    ladder_id: int, reason: str = RecomputeJob.Reason.MANUAL, job_id: int | None = None
) -> dict[str, object]:
    job = RecomputeJob.objects.get(pk=job_id) if job_id is not None else None
    job = services.recompute_ladder(ladder_id, reason=reason, job=job)
    return {"job": job.pk, "status": job.status, "matches": job.total}


@shared_task(name="ladder.recompute_all_ladders", **REDELIVERED_IF_LOST)
def recompute_all_ladders() -> int:
    """Nightly: every ladder recomputed from its matches (and missing ladders created)."""
    services.ensure_ladders()
    return len(services.recompute_all_ladders(RecomputeJob.Reason.NIGHTLY))


@shared_task(name="ladder.retry_stalled_recomputes")
def retry_stalled_recomputes() -> int:
    """Every few minutes (beat): recomputes whose worker died are marked and queued again
    (a bounded number of times in a row; services.retry_stalled_recomputes)."""
    return services.retry_stalled_recomputes()


@shared_task(name="ladder.requeue_unrated_matches")
def requeue_unrated_matches(older_than_seconds: float | None = None) -> int:
    """Every few minutes (beat): queue ``rate_match`` again for matches stored but
    never rated (their task was lost, e.g. Redis was down at upload), stored at least
    ``older_than_seconds`` ago (default: services.REQUEUE_AFTER)."""
    if older_than_seconds is None:
        return services.requeue_unrated_matches()
    return services.requeue_unrated_matches(older_than=timedelta(seconds=older_than_seconds))
