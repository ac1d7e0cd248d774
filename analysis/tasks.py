"""Celery tasks of match analysis, on the ``analysis`` queue (config/settings.py): a
worker started with ``-Q analysis`` may run on another machine."""

from __future__ import annotations

from celery import shared_task

from analysis import chunking, services
from config.redelivery import BoundedRedeliveryTask


#: acknowledged when done and handed back when its worker is lost: rerunning is safe
#: (services._claim skips a done or running analysis; one row per match and version)
@shared_task(
    name="analysis.analyse_match",
    acks_late=True,
    reject_on_worker_lost=True,
    base=BoundedRedeliveryTask,
)
def analyse_match(analysis_id: int) -> str:
    return services.run_analysis(analysis_id)


#: one chunk of plies of an analysis (analysis.chunking): rerunning is safe (a chunk
#: stored already is skipped; one row per analysis and chunk)
@shared_task(
    name="analysis.analyse_chunk",
    acks_late=True,
    reject_on_worker_lost=True,
    base=BoundedRedeliveryTask,
)
def analyse_chunk(analysis_id: int, index: int) -> str:
    return chunking.run_chunk(analysis_id, index)


@shared_task(name="analysis.requeue_stalled")
def requeue_stalled() -> int:
    """Every few minutes (beat): analyses whose worker died are queued again."""
    return services.requeue_stalled()


@shared_task(name="analysis.start_waiting")
def start_waiting() -> int:
    """Every few minutes (beat): a club's new day starts the automatic analyses waiting
    for it, oldest first, within the day's budget."""
    return services.start_waiting_everywhere()
