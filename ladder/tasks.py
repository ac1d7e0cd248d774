"""Celery tasks of the ladder app: thin wrappers over ``ladder.services``."""

from __future__ import annotations

from celery import shared_task

from ladder import services
from ladder.models import RecomputeJob


@shared_task(name="ladder.rate_match")
def rate_match(match_id: int) -> str:
    """Rate a stored match (queued after every ingest, with transaction.on_commit).
    Back-dated or voided: the ladder recomputes. Running it twice changes nothing."""
    return str(services.apply_match(match_id))


@shared_task(name="ladder.rate_matches")
def rate_matches(match_ids: list[int]) -> list[str]:
    """rate_match for each match in turn: a bulk import queues one task per batch of
    logs rather than one per match (the first back-dated one recomputes its ladder
    from the earliest match still waiting; the others then find themselves rated)."""
    return [str(services.apply_match(match_id)) for match_id in match_ids]


@shared_task(name="ladder.recompute_ladder")
def recompute_ladder(ladder_id: int, reason: str = RecomputeJob.Reason.MANUAL,
                     job_id: int | None = None) -> dict[str, object]:
    job = RecomputeJob.objects.get(pk=job_id) if job_id is not None else None
    job = services.recompute_ladder(ladder_id, reason=reason, job=job)
    return {"job": job.pk, "status": job.status, "matches": job.total}


@shared_task(name="ladder.recompute_all_ladders")
def recompute_all_ladders() -> int:
    """Nightly: every ladder recomputed from its matches (and missing ladders created)."""
    services.ensure_ladders()
    return len(services.recompute_all_ladders(RecomputeJob.Reason.NIGHTLY))

