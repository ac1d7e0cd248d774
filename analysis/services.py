"""Writes of match analysis: requesting one (queued on its own Celery queue once
committed) and running it (claim, progress, result), safe to run twice.

A worker that dies mid-analysis leaves its row ``running`` with a heartbeat that stops;
once it is older than :data:`STALLED_AFTER`, a new request (or the periodic
:func:`requeue_stalled`) queues it again, at most :data:`MAX_ATTEMPTS` starts in all.
"""

from __future__ import annotations

import json
import logging
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from analysis.models import MatchAnalysis
from config.errors import AppError
from config.queueing import send_task_on_commit
from engine import (
    ANALYSIS_BUDGET,
    Message,
    analysable,
    analyse,
    analysis_version,
    get_game,
    msg,
    replay,
)
from games.models import Match

log = logging.getLogger(__name__)

#: a running analysis whose heartbeat is older than this lost its worker
STALLED_AFTER = timedelta(minutes=5)
#: starts of one analysis before it is left failed (one that kills its worker is not
#: retried for ever)
MAX_ATTEMPTS = 3
#: progress is written at most this often (each write is also the heartbeat)
PROGRESS_EVERY = timedelta(seconds=1)


class AnalysisError(AppError):
    code = "refused"


def stored_reason(message: Message) -> str:
    """Why an analysis failed, as stored in its row: the engine message (an id and its
    parameters, as JSON), said in each reader's language when shown (selectors)."""
    return json.dumps(message, sort_keys=True)


def budget() -> int:
    """Playouts per estimate of new analyses (settings.LANTERN_ANALYSIS_BUDGET overrides)."""
    return int(getattr(settings, "LANTERN_ANALYSIS_BUDGET", ANALYSIS_BUDGET))


def current_version(match: Match) -> str | None:
    """The engine version an analysis of ``match`` is made by now; None when its game
    cannot be analysed."""
    game = get_game(match.game)
    return analysis_version(game) if game is not None and analysable(game) else None


def _queue(analysis: MatchAnalysis) -> None:
    # by name (analysis.tasks imports this module)
    send_task_on_commit("analysis.analyse_match", analysis.pk)


def _stalled(now) -> Q:
    return Q(status=MatchAnalysis.Status.RUNNING, heartbeat_at__lte=now - STALLED_AFTER)


def request_analysis(match: Match, user: AbstractBaseUser | None) -> MatchAnalysis:
    """The analysis of ``match`` by the current engine: the stored one when done or under
    way (no work), else queued (new, failed, or stalled). Permission is the caller's
    (clubs.policy.can_analyse)."""
    version = current_version(match)
    if version is None:
        game = get_game(match.game)
        name = game.name if game is not None else match.game
        raise AnalysisError(f"{name} matches cannot be analysed: the engine has no belief sampler for it yet")
    if match.status != Match.Status.VALID:
        raise AnalysisError(gettext("only a finished, valid match can be analysed"))
    with transaction.atomic():
        analysis, created = MatchAnalysis.objects.get_or_create(
            match=match, engine_version=version,
            defaults={"budget": budget(), "requested_by": user})
        if created:
            _queue(analysis)
            return analysis
        now = timezone.now()
        again = (MatchAnalysis.objects.filter(pk=analysis.pk)
                 .filter(Q(status=MatchAnalysis.Status.FAILED) | _stalled(now))
                 .update(status=MatchAnalysis.Status.QUEUED, error="", attempts=0,
                         plies_done=0, heartbeat_at=None))
        if again:
            analysis.refresh_from_db()
            _queue(analysis)
    return analysis


def requeue_stalled() -> int:
    """Queue again the analyses whose worker died (running, silent for STALLED_AFTER) and
    those queued long ago whose task was lost; those started MAX_ATTEMPTS times are left
    failed. Returns how many were queued."""
    now = timezone.now()
    stale = MatchAnalysis.objects.filter(
        _stalled(now) | Q(status=MatchAnalysis.Status.QUEUED, created_at__lte=now - STALLED_AFTER))
    queued = 0
    for analysis in stale:
        if analysis.attempts >= MAX_ATTEMPTS:
            MatchAnalysis.objects.filter(pk=analysis.pk).update(
                status=MatchAnalysis.Status.FAILED,
                error=stored_reason(msg("analysis.failed.stalled", count=analysis.attempts)))
            continue
        MatchAnalysis.objects.filter(pk=analysis.pk).update(status=MatchAnalysis.Status.QUEUED)
        _queue(analysis)
        queued += 1
    return queued


def _claim(analysis_id: int) -> MatchAnalysis | None:
    """Mark the analysis running for this worker, unless it is done or another worker
    is running it (a duplicated task): then None, and nothing is done."""
    with transaction.atomic():
        analysis = (MatchAnalysis.objects.select_for_update(of=("self",)).select_related("match__log")
                    .filter(pk=analysis_id).first())
        if analysis is None or analysis.status == MatchAnalysis.Status.DONE:
            return None
        now = timezone.now()
        if (analysis.status == MatchAnalysis.Status.RUNNING and analysis.heartbeat_at
                and analysis.heartbeat_at > now - STALLED_AFTER):
            return None
        analysis.status = MatchAnalysis.Status.RUNNING
        analysis.heartbeat_at = now
        analysis.attempts += 1
        analysis.plies_done = 0
        analysis.save(update_fields=["status", "heartbeat_at", "attempts", "plies_done"])
    return analysis


def run_analysis(analysis_id: int) -> str:
    """Analyse (the task's body): ``done`` when this run stored the result, ``skipped``
    when there was nothing to do (done already, or running elsewhere), ``failed``."""
    analysis = _claim(analysis_id)
    if analysis is None:
        return "skipped"
    rows = MatchAnalysis.objects.filter(pk=analysis.pk, status=MatchAnalysis.Status.RUNNING)
    last = timezone.now()

    def progress(done: int, total: int) -> None:
        nonlocal last
        now = timezone.now()
        if now - last >= PROGRESS_EVERY or done == total:
            rows.update(plies_done=done, plies_total=total, heartbeat_at=now)
            last = now

    try:
        game = get_game(analysis.match.game)
        if game is None or analysis_version(game) != analysis.engine_version:
            rows.update(status=MatchAnalysis.Status.FAILED,
                        error=stored_reason(msg("analysis.failed.engine_changed")))
            return "failed"
        rows.update(plies_total=len(analysis.match.log.document["actions"]) + 1)
        result = analyse(replay(analysis.match.log.document), budget=analysis.budget, progress=progress)
    except Exception:  # noqa: BLE001 - logged with its traceback; the row keeps what to say
        log.exception("analysis %s of match %s failed", analysis.pk, analysis.match_id)
        rows.update(status=MatchAnalysis.Status.FAILED, error=stored_reason(msg("analysis.failed.engine_error")))
        return "failed"
    rows.update(status=MatchAnalysis.Status.DONE, result=result, finished_at=timezone.now(),
                heartbeat_at=timezone.now())
    return "done"
