"""A match's analysis (engine.core.analysis), one per match and engine version."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.models import Match


class MatchAnalysis(models.Model):
    """The analysis of one match by one engine version: queued, running (with its
    progress and a heartbeat), done (with the result) or failed. The unique constraint
    makes a retried or duplicated job store one result; a new engine version is a new row."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="analyses")
    engine_version = models.CharField(
        max_length=64, help_text="The game's rules version and the analysis method's (engine.core.analysis).")
    budget = models.PositiveIntegerField(help_text="Playouts per estimate.")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    plies_done = models.PositiveIntegerField(default=0)
    plies_total = models.PositiveIntegerField(default=0)
    result = models.JSONField(null=True, blank=True)
    #: why it failed: an engine message (id and parameters) as JSON (services.stored_reason),
    #: said in the reader's language by the page
    error = models.TextField(blank=True)
    #: how many times a worker started it (a stalled run is started again, a bounded number of times)
    attempts = models.PositiveIntegerField(default=0)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    #: written with every progress report: a running analysis silent for long lost its worker
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("match analysis")
        verbose_name_plural = _("match analyses")
        constraints = [
            models.UniqueConstraint(fields=["match", "engine_version"], name="analysis_one_per_match_version"),
            models.CheckConstraint(
                condition=Q(status__in=["queued", "running", "done", "failed"]), name="analysis_status_valid"),
            models.CheckConstraint(
                condition=Q(status="done", result__isnull=False) | (~Q(status="done") & Q(result__isnull=True)),
                name="analysis_result_only_when_done"),
        ]

    def __str__(self) -> str:
        return f"analysis of match {self.match_id} ({self.engine_version}, {self.status})"
