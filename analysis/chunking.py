"""One match's analysis shared by several workers: its plies in chunks (the engine's
``analysis_chunks``), each a Celery task of one group on the ``analysis`` queue, each
chunk's result stored once (a row per analysis and chunk, unique in the database), the
whole put together by whichever chunk finishes last.

A retried or duplicated chunk finds its row and stores nothing; a chunk's CPU is charged
by the run that stores it, in the same transaction, so a duplicate that ran alongside is
charged nothing, and a run that fails is not charged (the part of the estimate its plies
stand for stays reserved: services.record_cpu). A chunk lost with its worker leaves the
analysis silent, and the stalled analysis is started again
(services.requeue_stalled), which sends only the chunks not stored yet. The chunks are the
engine's, fixed by the log, so a game gives the same analysis with one worker or many.
"""

from __future__ import annotations

import logging
import time

from django.db import IntegrityError, transaction
from django.db.models import Sum, Value
from django.db.models.functions import Greatest
from django.utils import timezone

from analysis.models import AnalysisChunk, MatchAnalysis
from analysis.services import PROGRESS_EVERY, record_cpu, stored_reason
from engine import analyse_plies, analysis_chunks, merge_analysis, msg, replay

log = logging.getLogger(__name__)

#: the seed of every analysis the site stores (the analysis is a function of the log)
SEED = 0


def run_chunk(analysis_id: int, index: int) -> str:
    """Analyse chunk ``index`` of a running analysis and store it (the task's body):
    ``stored``, ``skipped`` (stored already, or the analysis is not running) or ``failed``."""
    analysis = (
        MatchAnalysis.objects.select_related("match__log")
        .filter(pk=analysis_id, status=MatchAnalysis.Status.RUNNING)
        .first()
    )
    if analysis is None:
        return "skipped"
    if AnalysisChunk.objects.filter(analysis=analysis, index=index).exists():
        assemble(analysis_id)
        return "skipped"
    rows = MatchAnalysis.objects.filter(pk=analysis_id, status=MatchAnalysis.Status.RUNNING)
    # progress: the plies of the chunks stored and of this one (others running meanwhile
    # are counted once they are stored)
    stored = (
        AnalysisChunk.objects.filter(analysis=analysis).aggregate(plies=Sum("stop") - Sum("first"))[
            "plies"
        ]
        or 0
    )
    last = timezone.now()

    def heartbeat(done: int, _total: int) -> None:
        nonlocal last
        now = timezone.now()
        if now - last >= PROGRESS_EVERY:
            rows.update(plies_done=Greatest("plies_done", Value(stored + done)), heartbeat_at=now)
            last = now

    started = time.thread_time()
    try:
        rep = replay(analysis.match.log.document)
        first, stop = analysis_chunks(rep)[index]
        result = analyse_plies(
            rep, first, stop, budget=analysis.budget, seed=SEED, progress=heartbeat
        )
    except Exception:  # noqa: BLE001 - logged with its traceback; the row keeps what to say
        log.exception(
            "chunk %s of analysis %s failed after %.1f s of CPU",
            index,
            analysis_id,
            time.thread_time() - started,
        )
        rows.update(
            status=MatchAnalysis.Status.FAILED,
            error=stored_reason(msg("analysis.failed.engine_error")),
        )
        return "failed"
    seconds = time.thread_time() - started
    try:
        with transaction.atomic():
            AnalysisChunk.objects.create(
                analysis=analysis, index=index, first=first, stop=stop, result=result
            )
            # what the chunk cost, counted against the analysis (and its club's day) once:
            # a duplicate whose row is refused above rolls back its charge with it
            record_cpu(analysis, seconds, share=(stop - first) / (len(rep.actions) + 1))
    except IntegrityError:  # a duplicate of this chunk stored it meanwhile
        assemble(analysis_id)
        return "skipped"
    assemble(analysis_id)
    return "stored"


def assemble(analysis_id: int) -> bool:
    """Store the whole analysis once every chunk is stored (its progress meanwhile).
    Returns whether this call stored it."""
    with transaction.atomic():
        analysis = (
            MatchAnalysis.objects.select_for_update(of=("self",))
            .select_related("match__log")
            .filter(pk=analysis_id, status=MatchAnalysis.Status.RUNNING)
            .first()
        )
        if analysis is None:
            return False
        parts = list(AnalysisChunk.objects.filter(analysis=analysis).order_by("index"))
        rep = replay(analysis.match.log.document)
        now = timezone.now()
        if len(parts) < len(analysis_chunks(rep)):
            analysis.plies_done = sum(part.stop - part.first for part in parts)
            analysis.heartbeat_at = now
            analysis.save(update_fields=["plies_done", "heartbeat_at"])
            return False
        analysis.result = merge_analysis(
            rep, [part.result for part in parts], budget=analysis.budget, seed=SEED
        )
        analysis.status = MatchAnalysis.Status.DONE
        analysis.plies_done = analysis.plies_total
        analysis.finished_at = analysis.heartbeat_at = now
        analysis.save(
            update_fields=["result", "status", "plies_done", "finished_at", "heartbeat_at"]
        )
        AnalysisChunk.objects.filter(analysis=analysis).delete()
    return True
