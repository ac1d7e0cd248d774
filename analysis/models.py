"""A match's analysis (engine.core.analysis), one per match and engine version."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from games.models import Match


class MatchAnalysis(models.Model):
    """The analysis of one match by one engine version: waiting (automatic, for a club
    day with room), queued, running (with its
    progress and a heartbeat), done (with the result) or failed. The unique constraint
    makes a retried or duplicated job store one result; a new engine version is a new row."""

    class Status(models.TextChoices):
        #: automatic, waiting for a club day with room in its budget (analysis.budgets)
        WAITING = "waiting", _("Waiting for the club's next day")
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="analyses")
    engine_version = models.CharField(
        max_length=64,
        help_text="The game's rules version and the analysis method's (engine.core.analysis).",
    )
    budget = models.PositiveIntegerField(help_text="Playouts per estimate.")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    plies_done = models.PositiveIntegerField(default=0)
    plies_total = models.PositiveIntegerField(default=0)
    result = models.JSONField(null=True, blank=True)
    #: why it failed: an engine message (id and parameters) as JSON (services.stored_reason),
    #: said in the reader's language by the page
    error = models.TextField(blank=True)
    #: how many times a worker started it (a stalled run is started again, a bounded number
    #: of times; asking again does not reset it: analysis.budgets)
    attempts = models.PositiveIntegerField(default=0)
    #: queued by the club's automatic analysis (its daily budget pays), not by a person
    automatic = models.BooleanField(default=False)
    #: the club day whose automatic-analysis budget pays for it (the club's own date), set
    #: when it is queued
    club_day = models.DateField(null=True, blank=True)
    #: plies × (seats + 1) × budget (analysis.budgets.work)
    work = models.PositiveBigIntegerField(default=0)
    #: CPU seconds it was expected to take when queued (reserved against the club's day)
    estimated_seconds = models.FloatField(default=0.0)
    #: CPU seconds its runs took (measured by the worker), once it ended
    cpu_seconds = models.FloatField(null=True, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    #: when it was last sent to the workers (a queued one silent since STALLED_AFTER lost
    #: its task); None for one sent when it was made (created_at says when)
    queued_at = models.DateTimeField(null=True, blank=True)
    #: written when a worker starts it and with every progress report: a start silent for
    #: long before its chunks were sent lost its worker (a chunk has a heartbeat of its own)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    #: when its current start last sent chunks to the workers; None until then. Once sent, a
    #: chunk waiting in the queue is not a stall: only a chunk started and then silent is
    #: (services.requeue_stalled)
    chunks_sent_at = models.DateTimeField(null=True, blank=True)
    #: the first chunk its current start has not sent yet: chunks are sent in order, at
    #: most LANTERN_ANALYSIS_CHUNKS_AT_ONCE sent or running at once (services.chunk_window)
    next_chunk = models.PositiveIntegerField(default=0)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("match analysis")
        verbose_name_plural = _("match analyses")
        constraints = [
            models.UniqueConstraint(
                fields=["match", "engine_version"], name="analysis_one_per_match_version"
            ),
            models.CheckConstraint(
                condition=Q(status__in=["waiting", "queued", "running", "done", "failed"]),
                name="analysis_status_valid",
            ),
            models.CheckConstraint(
                condition=Q(status="done", result__isnull=False)
                | (~Q(status="done") & Q(result__isnull=True)),
                name="analysis_result_only_when_done",
            ),
            models.CheckConstraint(
                condition=Q(estimated_seconds__gte=0), name="analysis_estimate_not_negative"
            ),
            models.CheckConstraint(
                condition=Q(cpu_seconds__isnull=True) | Q(cpu_seconds__gte=0),
                name="analysis_cpu_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return f"analysis of match {self.match_id} ({self.engine_version}, {self.status})"


class ClubAnalysisDay(models.Model):
    """A club's automatic analysis on one of its days (a date in the club's time zone):
    the CPU seconds reserved for it (estimates of the analyses queued, replaced by what
    each took once it ended) and the matches not analysed automatically because each
    costs more than a whole day's budget (analysis.budgets)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="analysis_days")
    day = models.DateField()
    reserved_seconds = models.FloatField(default=0.0)
    skipped = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("club's day of automatic analysis")
        verbose_name_plural = _("clubs' days of automatic analysis")
        constraints = [
            models.UniqueConstraint(fields=["club", "day"], name="analysis_one_row_per_club_day"),
        ]

    def __str__(self) -> str:
        return f"automatic analysis of {self.club_id} on {self.day}"


class AnalysisChunk(models.Model):
    """One chunk of plies of a running analysis (analysis.chunking), from when a worker
    picks it up: running (no result yet, a heartbeat) or stored (its result). One row per
    analysis and chunk, so a retried or duplicated chunk runs and stores once; a chunk
    with no row is waiting in the queue. Deleted once the whole analysis is stored."""

    analysis = models.ForeignKey(MatchAnalysis, on_delete=models.CASCADE, related_name="chunks")
    index = models.PositiveIntegerField()
    first = models.PositiveIntegerField(help_text="Its first ply.")
    stop = models.PositiveIntegerField(help_text="The ply after its last.")
    #: None while a worker runs it
    result = models.JSONField(null=True, blank=True)
    #: when the worker now running it (or that stored it) picked it up
    started_at = models.DateTimeField(default=timezone.now)
    #: written with the run's progress: running and silent for STALLED_AFTER, its worker died
    heartbeat_at = models.DateTimeField(default=timezone.now)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("chunk of an analysis")
        verbose_name_plural = _("chunks of analyses")
        constraints = [
            models.UniqueConstraint(fields=["analysis", "index"], name="analysis_chunk_once"),
            models.CheckConstraint(
                condition=Q(stop__gt=models.F("first")), name="analysis_chunk_not_empty"
            ),
        ]

    def __str__(self) -> str:
        plies = f"{self.first}-{self.stop - 1}"
        return f"chunk {self.index} (plies {plies}) of analysis {self.analysis_id}"
