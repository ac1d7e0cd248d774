"""Drafts: games being recorded at the table (or played against a bot), one action at a time.

A draft holds everything its ``lantern-log/1`` document needs (game, options, seats,
seed, setup, actions) and is saved after every action, so a closed tab loses
nothing. ``version`` is bumped by every write: a write names the version it was
made against, and the row is updated only if that is still the current one (see
``recorder.services``), so two tabs can never fork a draft. Once finished the draft
points at the match its log became (through ``games.services.ingest_log``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from games.models import Match


class Draft(models.Model):
    class Status(models.TextChoices):
        RECORDING = "recording", _("Recording")
        FINISHED = "finished", _("Finished")
        ABANDONED = "abandoned", _("Abandoned")

    class Chance(models.TextChoices):
        TABLE = "table", _("Entered as it came out at the table")
        SERVER = "server", _("Dealt by the server from a seed")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="drafts")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="drafts"
    )
    game = models.CharField(max_length=64, help_text="Engine game id, e.g. mister-x.")
    options = models.JSONField(default=dict, blank=True, help_text="Normalized game options.")
    #: [{"seat": "p1", "player": "alice"}, {"seat": "p2", "player": "bot-greedy", "bot": "greedy"}]
    seats = models.JSONField()
    chance = models.CharField(max_length=8, choices=Chance.choices, default=Chance.TABLE)
    seed = models.BigIntegerField(
        null=True, blank=True, help_text="Set in server-dealt drafts only (chance = server)."
    )
    #: the complete setup (every chance outcome written out), as the log records it
    setup = models.JSONField(default=dict, blank=True)
    #: the actions as recorded (chance outcomes written in)
    actions = models.JSONField(default=list, blank=True)
    #: one entry per action: {"round", "phase", "notation", "bot"} (the move list)
    moves = models.JSONField(default=list, blank=True)
    #: seat -> the pick it has opened and must play within (engine ``Session.opened``:
    #: Cloak & Dagger's envelope, looked into before choosing); never in the log
    opened = models.JSONField(default=dict, blank=True)
    played_at = models.DateTimeField(help_text="When the game was played (the log's meta).")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.RECORDING)
    version = models.PositiveIntegerField(default=1)
    match = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="drafts"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("draft")
        verbose_name_plural = _("drafts")
        ordering = ["-updated_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["recording", "finished", "abandoned"]),
                name="draft_status_valid",
            ),
            models.CheckConstraint(
                condition=Q(chance__in=["table", "server"]), name="draft_chance_valid"
            ),
            # The server deals from a seed; a table game has none.
            models.CheckConstraint(
                condition=(Q(chance="server") & Q(seed__isnull=False))
                | (Q(chance="table") & Q(seed__isnull=True)),
                name="draft_seed_iff_server_chance",
            ),
            models.CheckConstraint(
                condition=Q(seed__isnull=True) | Q(seed__gte=0), name="draft_seed_not_negative"
            ),
            models.CheckConstraint(condition=~Q(game=""), name="draft_game_not_empty"),
            # Only a finished draft became a match (the match may later be deleted).
            models.CheckConstraint(
                condition=Q(match__isnull=True) | Q(status="finished"),
                name="draft_match_only_when_finished",
            ),
        ]
        indexes = [
            models.Index(fields=["club", "status", "-updated_at"], name="draft_club_status"),
            models.Index(fields=["created_by", "status"], name="draft_creator_status"),
        ]

    def __str__(self) -> str:
        return f"draft {self.pk} of {self.game} in {self.club} ({self.status})"

    @property
    def bot_seats(self) -> dict[str, str]:
        """{seat: bot name} of the seats a bot plays."""
        return {entry["seat"]: entry["bot"] for entry in self.seats if entry.get("bot")}


class DraftWrite(models.Model):
    """One write to a draft (apply, undo, finish, abandon), made against ``version``.

    Each version of a draft is written from at most once (the unique constraint): that
    is what keeps two tabs from forking a draft, in the database itself. The write
    also keeps who made it and a fingerprint of the request, so that the draft's latest
    write posted again (a double click, a retry after a timeout) is answered exactly as
    the first time — drawn again from the draft as that write left it, nothing having
    changed since — without being applied twice, while a different request against that
    version is stale (409). Only the same person gets that answer: it is drawn with that
    person's eyes.
    """

    class Kind(models.TextChoices):
        APPLY = "apply", "Apply an action"
        UNDO = "undo", "Undo the last action"
        FINISH = "finish", "Store as a match"
        ABANDON = "abandon", "Discard"

    draft = models.ForeignKey(Draft, on_delete=models.CASCADE, related_name="writes")
    version = models.PositiveIntegerField(
        help_text="The draft's version this write was made against."
    )
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    #: sha256 (hex) of the request: endpoint, body and query (recorder.api.fingerprint)
    fingerprint = models.CharField(max_length=64)
    #: the moves the bots made in reply (recorder.budgets counts them per minute)
    bot_moves = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("draft write")
        verbose_name_plural = _("draft writes")
        ordering = ["draft", "version"]
        constraints = [
            models.UniqueConstraint(
                fields=["draft", "version"], name="draft_write_once_per_version"
            ),
            models.CheckConstraint(
                condition=Q(kind__in=["apply", "undo", "finish", "abandon"]),
                name="draft_write_kind_valid",
            ),
            models.CheckConstraint(
                condition=~Q(fingerprint=""), name="draft_write_fingerprint_set"
            ),
        ]
        indexes = [models.Index(fields=["user", "created_at"], name="draft_write_user_time")]

    def __str__(self) -> str:
        return f"{self.kind} of draft {self.draft_id} at version {self.version}"
