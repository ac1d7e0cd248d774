"""One match's analysis shared by several workers: its plies in chunks (the engine's
``analysis_chunks``), each a Celery task on the ``analysis`` queue, each chunk's result
stored once (a row per analysis and chunk, unique in the database), the whole put
together by whichever chunk finishes last. At most LANTERN_ANALYSIS_CHUNKS_AT_ONCE of an
analysis's chunks are sent or running at once: each chunk stored sends the next, once
committed (services.chunk_window), so other people's analyses take their turns between.

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
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Sum, Value
from django.db.models.functions import Greatest
from django.utils import timezone

from analysis.models import AnalysisChunk, MatchAnalysis
from analysis.services import (
    PROGRESS_EVERY,
    STALLED_AFTER,
    chunk_window,
    record_cpu,
    send_on_commit,
    stored_reason,
)
from engine import analyse_plies, analysis_chunks, merge_analysis, msg, replay

log = logging.getLogger(__name__)

#: the seed of every analysis the site stores (the analysis is a function of the log)
SEED = 0


def run_chunk(analysis_id: int, index: int) -> str:
    """Analyse chunk ``index`` of a running analysis and store it (the task's body):
    ``stored``, ``skipped`` (stored already, running elsewhere, or the analysis is not
    running) or ``failed``."""
    analysis = (
        MatchAnalysis.objects.select_related("match__log")
        .filter(pk=analysis_id, status=MatchAnalysis.Status.RUNNING)
        .first()
    )
    if analysis is None:
        return "skipped"
    rep = replay(analysis.match.log.document)
    first, stop = analysis_chunks(rep)[index]
    if not _pick_up(analysis, index, first, stop):
        assemble(analysis_id)
        return "skipped"
    rows = MatchAnalysis.objects.filter(pk=analysis_id, status=MatchAnalysis.Status.RUNNING)
    chunk = AnalysisChunk.objects.filter(analysis=analysis, index=index, result__isnull=True)
    # progress: the plies of the chunks stored and of this one (others running meanwhile
    # are counted once they are stored)
    stored = (
        AnalysisChunk.objects.filter(analysis=analysis, result__isnull=False).aggregate(
            plies=Sum("stop") - Sum("first")
        )["plies"]
        or 0
    )
    last = timezone.now()

    def heartbeat(done: int, _total: int) -> None:
        nonlocal last
        now = timezone.now()
        if now - last >= PROGRESS_EVERY:
            chunk.update(heartbeat_at=now)
            rows.update(plies_done=Greatest("plies_done", Value(stored + done)), heartbeat_at=now)
            last = now

    started = time.thread_time()
    try:
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
        chunk.delete()  # asked again, the analysis sends it at once
        rows.update(
            status=MatchAnalysis.Status.FAILED,
            error=stored_reason(msg("analysis.failed.engine_error")),
        )
        return "failed"
    seconds = time.thread_time() - started
    share = (stop - first) / (len(rep.actions) + 1)
    stored_now = _store(analysis, index, first, stop, result, seconds, share)
    assemble(analysis_id)
    return "stored" if stored_now else "skipped"


def _pick_up(analysis: MatchAnalysis, index: int, first: int, stop: int) -> bool:
    """Record that this run has the chunk (its row, running): False when it is stored, or
    another run of it is alive (a duplicate delivery). A row silent for STALLED_AFTER is
    a run whose worker died: this run takes it over."""
    now = timezone.now()
    if _row_made(analysis, index, first, stop, started_at=now, heartbeat_at=now):
        return True
    # the UPDATE's condition is checked again on the locked row: of two runs taking over
    # one dead run, one does
    return bool(
        AnalysisChunk.objects.filter(
            analysis=analysis,
            index=index,
            result__isnull=True,
            heartbeat_at__lte=now - STALLED_AFTER,
        ).update(started_at=now, heartbeat_at=now)
    )


def _store(
    analysis: MatchAnalysis,
    index: int,
    first: int,
    stop: int,
    result: dict[str, Any],
    seconds: float,
    share: float,
) -> bool:
    """Store the chunk's result and charge its CPU, once: False when another run of it
    stored it first (one that took it over from this run, taken for dead)."""
    now = timezone.now()
    with transaction.atomic():
        taken = AnalysisChunk.objects.filter(
            analysis=analysis, index=index, result__isnull=True
        ).update(result=result, heartbeat_at=now)
        # none: the row went (the chunk sent again as stalled while this run was silent),
        # so it is stored anew, or it is stored, and the database refuses this one
        if not taken and not _row_made(
            analysis, index, first, stop, result=result, heartbeat_at=now
        ):
            return False
        # what the chunk cost, counted against the analysis (and its club's day) once, in
        # the transaction that stores it
        record_cpu(analysis, seconds, share=share)
    return True


def _row_made(analysis: MatchAnalysis, index: int, first: int, stop: int, **fields: Any) -> bool:
    """Make the chunk's row; False when it has one (one row per analysis and chunk)."""
    try:
        with transaction.atomic():
            AnalysisChunk.objects.create(
                analysis=analysis, index=index, first=first, stop=stop, **fields
            )
    except IntegrityError:
        return False
    return True


def assemble(analysis_id: int) -> bool:
    """Store the whole analysis once every chunk is stored (meanwhile its progress, and
    the next chunks sent as stored ones made room). Returns whether this call stored it."""
    with transaction.atomic():
        analysis = (
            MatchAnalysis.objects.select_for_update(of=("self",))
            .select_related("match__log")
            .filter(pk=analysis_id, status=MatchAnalysis.Status.RUNNING)
            .first()
        )
        if analysis is None:
            return False
        parts = list(
            AnalysisChunk.objects.filter(analysis=analysis, result__isnull=False).order_by("index")
        )
        rep = replay(analysis.match.log.document)
        now = timezone.now()
        count = len(analysis_chunks(rep))
        if len(parts) < count:
            analysis.plies_done = sum(part.stop - part.first for part in parts)
            analysis.heartbeat_at = now
            analysis.save(update_fields=["plies_done", "heartbeat_at"])
            if analysis.chunks_sent_at is not None:  # its start sent chunks: the window moves
                _waiting, more = chunk_window(analysis, count)
                if more:
                    send_on_commit(analysis, more, now)
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
