"""Writes of match analysis: requesting one (queued on its own Celery queue once
committed) and running it (claim, progress, result), safe to run twice.

A start sends the analysis's first chunks to the ``analysis`` queue (analysis.chunking),
at most LANTERN_ANALYSIS_CHUNKS_AT_ONCE, and each chunk stored sends the next
(:func:`chunk_window`): so an analysis asked for later waits behind that many chunks of
each analysis ahead of it, not all of theirs. They may wait behind other analyses' chunks
for as long as the queue is busy: Redis keeps
a message until a worker takes it, and one taken by a worker that is lost goes back to
the queue (the tasks are ``acks_late`` and ``reject_on_worker_lost``: at once when the
worker's process dies, after the broker's visibility timeout when its machine does). So
a chunk waiting is never a stall, and is not sent again until nothing of its analysis
has run for a whole visibility timeout (:func:`waited_too_long`). A stall is a run
started and then silent for :data:`STALLED_AFTER`: a chunk a worker picked up whose
heartbeat stopped (only that chunk is sent again), or a start whose worker died before
sending the chunks (it is started again). Each counts one of the :data:`MAX_ATTEMPTS`
starts; past them the analysis is left failed (:func:`requeue_stalled`, from the beat,
or a new request). The beat also sends the next chunks of an analysis none of whose
stored chunks could (its worker lost before it sent them, or the broker unreachable).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from datetime import datetime, timedelta
from functools import partial

from celery import group
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Exists, OuterRef, Q, QuerySet, Value
from django.db.models.functions import Coalesce, Least
from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext, ngettext_lazy

from analysis import budgets
from analysis.models import AnalysisChunk, MatchAnalysis
from clubs.models import Club
from config.errors import AppError
from config.queueing import BROKER_ERRORS, registered, send_task_on_commit
from engine import (
    Message,
    analysable,
    analysis_chunks,
    analysis_version,
    get_game,
    msg,
    replay,
)
from games.models import Match

log = logging.getLogger(__name__)

#: a started run (a chunk, or the start sending them) silent this long lost its worker
STALLED_AFTER = timedelta(minutes=5)
#: starts of one analysis before it is left failed (one that kills its worker is not
#: retried for ever)
MAX_ATTEMPTS = 3
#: progress is written at most this often (each write is also the heartbeat)
PROGRESS_EVERY = timedelta(seconds=1)


def waited_too_long() -> timedelta:
    """Chunks sent this long ago, nothing of whose analysis has run since, are sent again
    (without costing an attempt): the broker's visibility timeout, by when a chunk taken
    by a worker that was lost is back in the queue, so they are either still waiting
    behind others or lost with the broker's data (a Redis restarted without its latest
    writes). A copy that finds its chunk stored or running does nothing."""
    return timedelta(seconds=settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"])


class AnalysisError(AppError):
    code = "refused"


def stored_reason(message: Message) -> str:
    """Why an analysis failed, as stored in its row: the engine message (an id and its
    parameters, as JSON), said in each reader's language when shown (selectors)."""
    return json.dumps(message, sort_keys=True)


def current_version(match: Match) -> str | None:
    """The engine version an analysis of ``match`` is made by now; None when its game
    cannot be analysed."""
    game = get_game(match.game)
    return analysis_version(game) if game is not None and analysable(game) else None


def _queue(analysis: MatchAnalysis) -> None:
    # by name (analysis.tasks imports this module)
    send_task_on_commit("analysis.analyse_match", analysis.pk)


def _start_stalled(now: datetime) -> Q:
    """Running, its chunks not sent, and its start silent: the worker that started it died
    before sending them (or the broker was unreachable)."""
    return Q(
        status=MatchAnalysis.Status.RUNNING,
        chunks_sent_at__isnull=True,
        heartbeat_at__lte=now - STALLED_AFTER,
    )


def _dead_chunks(now: datetime) -> QuerySet[AnalysisChunk]:
    """Chunks a worker picked up and went silent on, unstored: their worker died."""
    return AnalysisChunk.objects.filter(result__isnull=True, heartbeat_at__lte=now - STALLED_AFTER)


def _chunk_stalled(now: datetime) -> Q:
    return Q(status=MatchAnalysis.Status.RUNNING) & Q(
        Exists(_dead_chunks(now).filter(analysis=OuterRef("pk")))
    )


def _stalled(now: datetime) -> Q:
    """Started and then silent (not waiting in the queue: see the module's docstring)."""
    return _start_stalled(now) | _chunk_stalled(now)


def plan_of(match: Match) -> budgets.Plan:
    """How ``match`` would be analysed (analysis.budgets.plan): AppError when too long."""
    document = match.log.document
    return budgets.plan(len(document["actions"]) + 1, len(document["seats"]))


def _analysable_version(match: Match) -> str:
    version = current_version(match)
    if version is None:
        game = get_game(match.game)
        name = game.name if game is not None else match.game
        raise AnalysisError(
            f"{name} matches cannot be analysed: the engine has no belief sampler for it yet"
        )
    if match.status != Match.Status.VALID:
        raise AnalysisError(gettext("only a finished, valid match can be analysed"))
    return version


def request_analysis(match: Match, user: AbstractBaseUser | None) -> MatchAnalysis:
    """The analysis of ``match`` by the current engine, as ``user`` asks for it: the
    stored one when done or under way (no work, no budget spent), else queued (new,
    failed, stalled, or waiting for its club's next day) within the person's budget
    (analysis.budgets: OverBudget past it). One that failed MAX_ATTEMPTS times is not
    queued again: asking does not reset its attempts. ``user`` None: the site itself
    (the demo, an operator's shell), within no person's budget. Permission is the
    caller's (clubs.policy.can_analyse)."""
    version = _analysable_version(match)
    now = timezone.now()
    # one waiting for its club's next day is queued now, as this person's
    again = Q(status__in=[MatchAnalysis.Status.FAILED, MatchAnalysis.Status.WAITING]) | _stalled(
        now
    )
    analysis = MatchAnalysis.objects.filter(match=match, engine_version=version).first()
    if analysis is not None and not MatchAnalysis.objects.filter(again, pk=analysis.pk).exists():
        return analysis
    if analysis is not None and analysis.attempts >= MAX_ATTEMPTS:
        raise AnalysisError(
            format_lazy(
                ngettext_lazy(
                    "this analysis was started {count} time and failed; it is not started again "
                    "until the "
                    "engine changes",
                    "this analysis was started {count} times and failed; it is not started "
                    "again until the engine changes",
                    "count",
                ),
                count=analysis.attempts,
            ),
            code="retries_spent",
        )
    plan = plan_of(match)
    estimated = budgets.estimate(match.game, plan.work)
    with transaction.atomic():
        if user is not None:
            budgets.admit_person(user)
        fields = {
            "budget": plan.budget,
            "work": plan.work,
            "estimated_seconds": estimated,
            "requested_by": user,
            "automatic": False,
            "queued_at": now,
        }
        if analysis is None:
            analysis, created = MatchAnalysis.objects.get_or_create(
                match=match, engine_version=version, defaults=fields
            )
            if created:
                _queue(analysis)
            return analysis
        queued = MatchAnalysis.objects.filter(
            again, pk=analysis.pk, attempts__lt=MAX_ATTEMPTS
        ).update(
            status=MatchAnalysis.Status.QUEUED, error="", plies_done=0, heartbeat_at=None, **fields
        )
        analysis.refresh_from_db()
        if queued:
            _queue(analysis)
    return analysis


def analyse_automatically(matches: Iterable[Match]) -> int:
    """Analyse a club's newly stored ``matches`` (its automatic analysis) within the
    club's CPU budget a day: each waits in line (``waiting``) behind the club's older ones,
    and those that fit in what is left of the club's day are queued now; the rest start
    on the club's next days (:func:`start_waiting`, from the beat). A match whose estimate
    is more than a whole day's budget is counted on the club's day instead (a member may
    still ask for it). Games the engine cannot analyse, and logs too long to, are passed
    over. Returns how many were queued now."""
    rates: dict[str, float] = {}
    clubs: dict[int, str] = {}
    limit = settings.LANTERN_CLUB_ANALYSIS_SECONDS_PER_DAY
    for match in matches:
        version = current_version(match)
        if version is None or match.status != Match.Status.VALID:
            continue
        if MatchAnalysis.objects.filter(match=match, engine_version=version).exists():
            continue
        try:
            plan = plan_of(match)
        except AppError:
            continue
        if match.game not in rates:
            rates[match.game] = budgets.seconds_per_unit(match.game)
        if match.club_id not in clubs:
            clubs[match.club_id] = match.club.time_zone
        estimated = plan.work * rates[match.game]
        if estimated > limit:
            budgets.never_fits(match.club_id, budgets.club_day(clubs[match.club_id]))
            continue
        MatchAnalysis.objects.get_or_create(
            match=match,
            engine_version=version,
            defaults={
                "status": MatchAnalysis.Status.WAITING,
                "budget": plan.budget,
                "work": plan.work,
                "estimated_seconds": estimated,
                "automatic": True,
            },
        )
    return sum(start_waiting(club_id) for club_id in clubs)


def start_waiting(club_id: int, now: datetime | None = None) -> int:
    """Queue the club's waiting automatic analyses, oldest first, while they fit in what
    is left of the club's day at ``now`` (the clock's by default); the first that does
    not fit, and all after it, wait for the next day. Done under a lock on the club's
    day, so two callers at once (two beats, a beat and an import) never both start one.
    Returns how many were queued."""
    time_zone = Club.objects.values_list("time_zone", flat=True).get(pk=club_id)
    day = budgets.club_day(time_zone, now)
    queued = 0
    with transaction.atomic():
        budgets.lock_club_day(club_id, day)
        waiting = MatchAnalysis.objects.filter(
            match__club_id=club_id, status=MatchAnalysis.Status.WAITING, automatic=True
        ).order_by("created_at", "pk")
        for analysis in waiting:
            if analysis.estimated_seconds > settings.LANTERN_CLUB_ANALYSIS_SECONDS_PER_DAY:
                # more than a whole day (the budget was lowered since): it would hold the
                # line for ever, so it leaves it, counted as a new one that big would be
                MatchAnalysis.objects.filter(pk=analysis.pk).delete()
                budgets.never_fits(club_id, day)
                continue
            if not budgets.reserve_for_club(club_id, analysis.estimated_seconds, day=day):
                break
            MatchAnalysis.objects.filter(pk=analysis.pk).update(
                status=MatchAnalysis.Status.QUEUED, club_day=day, queued_at=now or timezone.now()
            )
            _queue(analysis)
            queued += 1
    return queued


def start_waiting_everywhere(now: datetime | None = None) -> int:
    """:func:`start_waiting` for every club with analyses waiting (the beat, every few
    minutes: a club's new day starts them). Returns how many were queued."""
    clubs = (
        MatchAnalysis.objects.filter(status=MatchAnalysis.Status.WAITING, automatic=True)
        .values_list("match__club_id", flat=True)
        .distinct()
    )
    return sum(start_waiting(club_id, now) for club_id in sorted(set(clubs)))


def analyse_at_once(match: Match) -> bool:
    """Analyse ``match`` here and now, unless the current engine's analysis of it is
    stored (the demo data; a worker's chunks when one runs). Returns whether it ran."""
    version = _analysable_version(match)
    plan = plan_of(match)
    analysis, _created = MatchAnalysis.objects.get_or_create(
        match=match,
        engine_version=version,
        defaults={"budget": plan.budget, "work": plan.work, "automatic": False},
    )
    if analysis.status == MatchAnalysis.Status.DONE:
        return False
    return run_analysis(analysis.pk) in ("done", "sent")


def requeue_stalled() -> int:
    """Start again what was started and then went silent for STALLED_AFTER, and re-send
    the analyses sent to the workers that long ago whose task was lost (sent when made,
    when started from a club's line, or when asked for again). A chunk whose worker died
    is sent again alone; a start that died before sending its chunks is queued again.
    Each costs an attempt; one started MAX_ATTEMPTS times is left failed. Chunks waiting
    in the queue are neither (see the module's docstring). Returns how many analyses were
    sent again."""
    now = timezone.now()
    sent_before = now - STALLED_AFTER
    lost = Q(status=MatchAnalysis.Status.QUEUED) & (
        Q(queued_at__lte=sent_before) | Q(queued_at__isnull=True, created_at__lte=sent_before)
    )
    queued = 0
    for analysis in MatchAnalysis.objects.filter(_start_stalled(now) | lost):
        if analysis.attempts >= MAX_ATTEMPTS:
            _fail_stalled(analysis)
            continue
        MatchAnalysis.objects.filter(pk=analysis.pk).update(
            status=MatchAnalysis.Status.QUEUED, queued_at=now
        )
        _queue(analysis)
        queued += 1
    for pk in MatchAnalysis.objects.filter(_chunk_stalled(now)).values_list("pk", flat=True):
        queued += _resend_dead_chunks(pk, now)
    for pk in MatchAnalysis.objects.filter(_waited_too_long(now)).values_list("pk", flat=True):
        queued += _resend_waiting_chunks(pk, now)
    sending = Q(status=MatchAnalysis.Status.RUNNING, chunks_sent_at__isnull=False)
    for pk in MatchAnalysis.objects.filter(sending).values_list("pk", flat=True):
        queued += _send_unsent_chunks(pk, now)
    return queued


def _waited_too_long(now: datetime) -> Q:
    """Running, its chunks sent :func:`waited_too_long` ago, and nothing of it run since."""
    silent_since = now - waited_too_long()
    return Q(
        status=MatchAnalysis.Status.RUNNING,
        chunks_sent_at__lte=silent_since,
        heartbeat_at__lte=silent_since,
    )


def _resend_waiting_chunks(analysis_id: int, now: datetime) -> int:
    """Send again, once committed, the chunks of an analysis that no worker has picked up
    since they were sent :func:`waited_too_long` ago; no attempt is spent (none of them
    started). Returns 1 when sent, else 0."""
    with transaction.atomic():
        analysis = (
            MatchAnalysis.objects.select_for_update(of=("self",))
            .select_related("match__log")
            .filter(_waited_too_long(now), pk=analysis_id)
            .first()
        )
        if analysis is None:
            return 0
        _dead_chunks(now).filter(analysis=analysis).delete()  # sent again: waiting
        waiting, more = chunk_window(analysis, _chunk_count(analysis))
        if not waiting and not more:  # each picked up meanwhile
            return 0
        MatchAnalysis.objects.filter(pk=analysis_id).update(chunks_sent_at=now)
        transaction.on_commit(partial(_resend, analysis_id, sorted(waiting + more)))
    return 1


def _send_unsent_chunks(analysis_id: int, now: datetime) -> int:
    """Send, once committed, the next chunks of a running analysis with room in its window
    that no stored chunk sent (its worker lost between storing it and sending them, or
    the broker unreachable then), so it never waits for ever for a chunk nobody sent; no
    attempt is spent. Returns 1 when sent, else 0."""
    with transaction.atomic():
        analysis = (
            MatchAnalysis.objects.select_for_update(of=("self",))
            .select_related("match__log")
            .filter(pk=analysis_id, status=MatchAnalysis.Status.RUNNING)
            .exclude(chunks_sent_at=None)
            .first()
        )
        if analysis is None:
            return 0
        _waiting, more = chunk_window(analysis, _chunk_count(analysis))
        if not more:
            return 0
        send_on_commit(analysis, more, now)
    return 1


def _fail_stalled(analysis: MatchAnalysis) -> None:
    MatchAnalysis.objects.filter(pk=analysis.pk).update(
        status=MatchAnalysis.Status.FAILED,
        error=stored_reason(msg("analysis.failed.stalled", count=analysis.attempts)),
    )


def _resend_dead_chunks(analysis_id: int, now: datetime) -> int:
    """Send again the chunks of a running analysis whose worker died, once committed, as
    one more attempt (or leave it failed when its attempts are spent). Their rows go, so
    until a worker picks them up again they are waiting, not stalled; the lost worker's
    own delivery, should Redis hand it out again, finds them stored or running. Returns 1
    when sent, else 0."""
    with transaction.atomic():
        analysis = (
            MatchAnalysis.objects.select_for_update()
            .filter(pk=analysis_id, status=MatchAnalysis.Status.RUNNING)
            .first()
        )
        # locked: a run coming back to life meanwhile waits, then finds its row gone (and
        # stores anew: services.chunking)
        dead = list(_dead_chunks(now).select_for_update().filter(analysis_id=analysis_id))
        if analysis is None or not dead:
            return 0
        if analysis.attempts >= MAX_ATTEMPTS:
            _fail_stalled(analysis)
            return 0
        AnalysisChunk.objects.filter(pk__in=[chunk.pk for chunk in dead]).delete()
        analysis.attempts += 1
        analysis.chunks_sent_at = now
        analysis.save(update_fields=["attempts", "chunks_sent_at"])
        # those its start sent; one past the window's edge (sent by an earlier start) is
        # now one not sent, sent in turn (_send_unsent_chunks)
        indices = sorted(chunk.index for chunk in dead if chunk.index < analysis.next_chunk)
        if indices:
            transaction.on_commit(partial(_resend, analysis_id, indices))
    return 1


def _resend(analysis_id: int, indices: list[int]) -> None:
    if not _send_chunks(analysis_id, indices):
        # nothing will run them: the start counts as not having sent its chunks, so it is
        # started again once silent (requeue_stalled)
        MatchAnalysis.objects.filter(pk=analysis_id).update(chunks_sent_at=None)


def _claim(analysis_id: int) -> MatchAnalysis | None:
    """Mark the analysis running for this worker, unless it is done or another worker
    is running it (a duplicated task): then None, and nothing is done."""
    with transaction.atomic():
        analysis = (
            MatchAnalysis.objects.select_for_update(of=("self",))
            .select_related("match__log")
            .filter(pk=analysis_id)
            .first()
        )
        if analysis is None or analysis.status == MatchAnalysis.Status.DONE:
            return None
        now = timezone.now()
        if analysis.status == MatchAnalysis.Status.RUNNING and (
            analysis.chunks_sent_at is not None
            or (analysis.heartbeat_at and analysis.heartbeat_at > now - STALLED_AFTER)
        ):
            # its chunks are sent (waiting in the queue or running), or its start is alive
            return None
        analysis.status = MatchAnalysis.Status.RUNNING
        analysis.heartbeat_at = now
        analysis.chunks_sent_at = None
        analysis.attempts += 1
        analysis.plies_done = 0
        analysis.save(
            update_fields=["status", "heartbeat_at", "chunks_sent_at", "attempts", "plies_done"]
        )
    return analysis


def chunks_at_once(count: int) -> int:
    """How many of an analysis's ``count`` chunks may be sent to the workers or running at
    once: LANTERN_ANALYSIS_CHUNKS_AT_ONCE, so that an analysis asked for later waits in the
    queue behind that many chunks of each analysis ahead of it, not all of theirs. Without
    a worker (Celery eager: ``make run``, the demo) all of them: they run in turn in this
    process, where no one else's analysis waits behind them (and a chunk sending the next
    would run it inside its own run, as deep as the game is long)."""
    if registered("analysis.analyse_chunk").app.conf.task_always_eager:
        return count
    return settings.LANTERN_ANALYSIS_CHUNKS_AT_ONCE


def chunk_window(analysis: MatchAnalysis, count: int) -> tuple[list[int], list[int]]:
    """On the analysis's locked row: the chunks its start sent that no worker has picked
    up (below ``next_chunk`` with no row: waiting in the queue, or lost), and the next
    ones to send, in order, while fewer than :func:`chunks_at_once` are sent or running.
    ``next_chunk`` is moved past the latter (and past chunks stored or running) and saved.
    With every chunk stored, the last is to be sent anyway: its run puts the analysis
    together (one whose worker died just before doing so)."""
    rows = AnalysisChunk.objects.filter(analysis=analysis)
    stored = set(rows.filter(result__isnull=False).values_list("index", flat=True))
    running = set(rows.filter(result__isnull=True).values_list("index", flat=True))
    if len(stored) == count:
        return [], [count - 1]
    taken = stored | running
    waiting = [index for index in range(analysis.next_chunk) if index not in taken]
    room = chunks_at_once(count) - len(waiting) - len(running)
    more: list[int] = []
    index = analysis.next_chunk
    while index < count:
        if index not in taken:
            if len(more) >= room:
                break
            more.append(index)
        index += 1
    analysis.next_chunk = index
    analysis.save(update_fields=["next_chunk"])
    return waiting, more


def send_on_commit(analysis: MatchAnalysis, indices: list[int], now: datetime) -> None:
    """Send chunks ``indices`` (the next in the analysis's window: :func:`chunk_window`)
    once the current transaction commits. Unsent (the broker unreachable), the window's
    edge goes back to them, so the beat sends them (:func:`_send_unsent_chunks`)."""
    MatchAnalysis.objects.filter(pk=analysis.pk).update(chunks_sent_at=now)
    transaction.on_commit(partial(_send_next, analysis.pk, indices))


def _send_next(analysis_id: int, indices: list[int]) -> None:
    if not _send_chunks(analysis_id, indices):
        MatchAnalysis.objects.filter(pk=analysis_id).update(
            next_chunk=Least("next_chunk", Value(min(indices)))
        )


def _chunk_count(analysis: MatchAnalysis) -> int:
    return len(analysis_chunks(replay(analysis.match.log.document)))


def _send_chunks(analysis_id: int, indices: list[int]) -> bool:
    """Send chunks ``indices`` of the analysis as one group on the analysis queue (by
    name: analysis.tasks imports this module; run in turn here without a worker).
    Returns False when the broker is unreachable."""
    task = registered("analysis.analyse_chunk")
    try:
        group(task.si(analysis_id, index) for index in indices).apply_async(ignore_result=True)
    except BROKER_ERRORS as exc:
        log.warning(
            "chunks %s of analysis %s were not queued: the broker is unreachable (%s)",
            indices,
            analysis_id,
            exc,
        )
        return False
    return True


def run_analysis(analysis_id: int) -> str:
    """Start an analysis (the task's body): its first chunks of plies, as many as
    :func:`chunks_at_once`, are sent as one group on the analysis queue (analysis.chunking),
    those already stored or running (a restarted analysis) left out; each stored sends the
    next. ``sent`` when this run sent them (run in turn here without a worker: then
    ``done``), ``skipped`` when there was nothing to do (done already, or its chunks sent
    by another start), ``failed``."""
    analysis = _claim(analysis_id)
    if analysis is None:
        return "skipped"
    rows = MatchAnalysis.objects.filter(pk=analysis.pk, status=MatchAnalysis.Status.RUNNING)
    try:
        game = get_game(analysis.match.game)
        if game is None or analysis_version(game) != analysis.engine_version:
            rows.update(
                status=MatchAnalysis.Status.FAILED,
                error=stored_reason(msg("analysis.failed.engine_changed")),
            )
            return "failed"
        rep = replay(analysis.match.log.document)
    except Exception:  # noqa: BLE001 - logged with its traceback; the row keeps what to say
        log.exception("analysis %s of match %s failed", analysis.pk, analysis.match_id)
        rows.update(
            status=MatchAnalysis.Status.FAILED,
            error=stored_reason(msg("analysis.failed.engine_error")),
        )
        return "failed"
    rows.update(plies_total=len(rep.actions) + 1)
    now = timezone.now()
    with transaction.atomic():
        analysis = MatchAnalysis.objects.select_for_update().get(pk=analysis.pk)
        # the chunks of those whose worker died are sent again now: waiting, not stalled
        _dead_chunks(now).filter(analysis=analysis).delete()
        analysis.next_chunk = 0
        _waiting, indices = chunk_window(analysis, len(analysis_chunks(rep)))
        rows.update(chunks_sent_at=now)
    # unsent, its start stalls once silent, and is started again (requeue_stalled)
    _resend(analysis.pk, indices)
    analysis.refresh_from_db(fields=["status"])
    return {MatchAnalysis.Status.DONE: "done", MatchAnalysis.Status.FAILED: "failed"}.get(
        analysis.status, "sent"
    )


def record_cpu(analysis: MatchAnalysis, seconds: float, *, share: float) -> None:
    """Charge a stored chunk's CPU ``seconds`` (this thread's: the worker's process may run
    others beside it) to the analysis and, for an automatic one, to the club's day, in
    place of ``share`` of the estimate the day reserved (the chunk's part of the plies).
    While the chunks run, the day holds what the stored ones took and the estimate of the
    rest; once all are stored, what the analysis took. Called by the run that stores the
    chunk, in its transaction: a chunk run twice is charged once, and a run that fails
    is not charged (its part of the estimate stays reserved)."""
    MatchAnalysis.objects.filter(pk=analysis.pk).update(
        cpu_seconds=Coalesce("cpu_seconds", Value(0.0)) + seconds
    )
    budgets.settle(analysis, seconds, share=share)
