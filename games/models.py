"""The matches clubs upload: seats, logs, uploads and bulk imports.

Every rule that must hold for the data lives in the database as a constraint,
so no code path (API, admin, bulk import, a shell) can break it.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Player
from config.sentences import Sentence
from engine import canonical_json
from games.bundles import LINE_NAME, SKIP_REASONS


def log_content_hash(document: dict[str, Any]) -> str:
    """sha256 (hex) of the canonical text of a lantern-log/1 document.

    Whitespace and key order do not change it, so re-uploading the same log is detected.
    """
    return canonical_text_hash(canonical_json(document).encode("utf-8"))


def canonical_text_hash(canonical: bytes) -> str:
    """:func:`log_content_hash` of a document whose canonical text (UTF-8) is at hand."""
    return hashlib.sha256(canonical).hexdigest()


_LINE_NAME = re.compile(re.escape(LINE_NAME).replace(r"\{number\}", r"(\d+)"))


class Match(models.Model):
    class Status(models.TextChoices):
        VALID = "valid", _("Valid")
        REJECTED = "rejected", _("Rejected")
        UNFINISHED = "unfinished", _("Unfinished")

    # No index of its own: (club, content_hash) and (club, -played_at) start with it,
    # and every index is one more write per stored match.
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="matches", db_index=False)
    game = models.CharField(max_length=64, help_text="Engine game id, e.g. mister-x.")
    played_at = models.DateTimeField(
        null=True, blank=True, help_text="When the game was played (the log's meta), if known."
    )
    status = models.CharField(max_length=16, choices=Status.choices)
    result = models.JSONField(
        null=True, blank=True, help_text="The result the engine computed (null unless valid)."
    )
    winner = models.CharField(
        max_length=64, blank=True, help_text="Winning seat or team; empty when none."
    )
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="uploaded_matches",
    )
    uploaded_at = models.DateTimeField(auto_now_add=True)
    content_hash = models.CharField(
        max_length=64, help_text="sha256 of the log's canonical JSON (see log_content_hash)."
    )
    rules_version = models.CharField(max_length=64, blank=True)
    is_void = models.BooleanField(
        default=False,
        help_text="Set by an organiser: a void match stays viewable but is never rated "
        "(ratings.md EL-1.2); ladders recompute without it.",
    )
    void_reason = models.CharField(max_length=500, blank=True)
    voided_at = models.DateTimeField(null=True, blank=True)
    action_count = models.PositiveIntegerField(default=0)
    with_bots = models.BooleanField(
        default=False,
        help_text="A seat was played by a bot (the log's seat entry names it): rated only "
        "on the club's bot ladder, never on its normal ladder.",
    )
    ended_at_table = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the game ended at a live table (empty: uploaded or recorded). Who "
        "did not sit at it sees its hidden facts the club's delay after "
        "(Club.watchers_see_all_after; games.policy).",
    )

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["-uploaded_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "content_hash"], name="match_log_unique_in_club"
            ),
            models.CheckConstraint(
                condition=Q(status__in=["valid", "rejected", "unfinished"]),
                name="match_status_valid",
            ),
            models.CheckConstraint(condition=~Q(game=""), name="match_game_not_empty"),
            models.CheckConstraint(
                condition=~Q(content_hash=""), name="match_content_hash_not_empty"
            ),
            # Only a valid (finished) match has a winner.
            models.CheckConstraint(
                condition=Q(status="valid") | Q(winner=""), name="match_winner_only_when_valid"
            ),
        ]
        indexes = [
            models.Index(fields=["club", "-played_at"], name="match_club_played"),
            models.Index(fields=["game", "status"], name="match_game_status"),
        ]

    def __str__(self) -> str:
        return f"{self.game} #{self.pk} ({self.status})"


class MatchSeat(models.Model):
    class Outcome(models.TextChoices):
        WIN = "win", _("Win")
        LOSS = "loss", _("Loss")
        NONE = "none", pgettext_lazy("outcome", "None")

    # No index of its own: the unique (match, seat) starts with it.
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats", db_index=False)
    seat = models.CharField(max_length=32, help_text="Seat id from the log, e.g. mrx or det2.")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    outcome = models.CharField(max_length=8, choices=Outcome.choices, default=Outcome.NONE)

    class Meta:
        verbose_name = _("match seat")
        verbose_name_plural = _("match seats")
        ordering = ["match", "id"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="matchseat_unique_seat"),
            models.CheckConstraint(
                condition=Q(outcome__in=["win", "loss", "none"]), name="matchseat_outcome_valid"
            ),
            models.CheckConstraint(condition=~Q(seat=""), name="matchseat_seat_not_empty"),
        ]

    def __str__(self) -> str:
        return f"{self.seat}: {self.player} ({self.outcome})"


class MatchLog(models.Model):
    """The whole lantern-log/1 document as uploaded (parsed), kept apart from the
    Match row so listing matches never loads the logs."""

    match = models.OneToOneField(
        Match, on_delete=models.CASCADE, primary_key=True, related_name="log"
    )
    document = models.JSONField()

    class Meta:
        verbose_name = _("match log")
        verbose_name_plural = _("match logs")

    def __str__(self) -> str:
        return f"log of match {self.match_id}"

    @property
    def content_hash(self) -> str:
        return log_content_hash(self.document)


class Import(models.Model):
    """A bulk import: one JSON-lines or zip file of logs, ingested by a Celery task.

    The counters are the progress shown on the import's page and API resource;
    every log of it also has an Upload record (the rejections with their reasons).
    """

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="imports")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="log_imports",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    filename = models.CharField(max_length=200, blank=True)
    size = models.PositiveBigIntegerField(default=0, help_text="Bytes of the uploaded file.")
    # Kept in the database so a worker on another machine can read it; bounded by
    # settings.LANTERN_MAX_IMPORT_FILE_BYTES.
    payload = models.BinaryField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    error = models.TextField(
        blank=True,
        help_text="Why the file as a whole could not be read, in English (for logs and search).",
    )
    #: Why, as what to say (``config.sentences.Sentence``): said in each reader's language.
    error_sentence = models.JSONField(default=dict, blank=True)
    total = models.PositiveIntegerField(default=0, help_text="Logs in the file (once read).")
    processed = models.PositiveIntegerField(default=0)
    accepted = models.PositiveIntegerField(default=0, help_text="New matches stored.")
    duplicates = models.PositiveIntegerField(default=0, help_text="Logs already stored.")
    rejected = models.PositiveIntegerField(default=0)
    skipped = models.JSONField(
        default=list,
        blank=True,
        help_text="Members of a zip archive not read as logs: [{name, reason}], reason a key "
        "of games.bundles.SKIP_REASONS.",
    )
    #: Each time a worker takes the import up (the first run, then each resume of a
    #: run whose worker died); past games.services.MAX_IMPORT_ATTEMPTS it fails instead.
    attempts = models.PositiveSmallIntegerField(default=0)
    heartbeat_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="The running import's last sign of life: when it started or last saved a batch.",
    )

    class Meta:
        verbose_name = _("bulk import")
        verbose_name_plural = _("bulk imports")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["queued", "running", "done", "failed"]),
                name="import_status_valid",
            ),
            models.CheckConstraint(
                condition=Q(processed=F("accepted") + F("duplicates") + F("rejected")),
                name="import_counters_add_up",
            ),
            models.CheckConstraint(
                condition=Q(processed__lte=F("total")), name="import_processed_within_total"
            ),
        ]

    def __str__(self) -> str:
        return f"import {self.pk} into {self.club} ({self.status})"

    @property
    def error_text(self) -> str:
        """Why the file could not be read, in the active language (the reader's); an
        import that failed before its reason was kept as a sentence says its English."""
        if not self.error:
            return ""
        return Sentence.from_json(self.error_sentence, self.error).text()

    @property
    def skipped_members(self) -> list[dict[str, str]]:
        """The members not read as logs, each with why in the active language."""
        return [
            {
                "name": member["name"],
                "reason": member["reason"],
                "why": gettext(SKIP_REASONS.get(member["reason"], member["reason"])),
            }
            for member in self.skipped
        ]

    @property
    def progress_percent(self) -> int:
        """Whole percent of the logs processed; 100 once done (even for an empty file)."""
        if self.status == self.Status.DONE:
            return 100
        return (100 * self.processed // self.total) if self.total else 0


class Upload(models.Model):
    """One attempt to add a log to a club, whatever came of it.

    A rejected log stores nothing else: this record keeps why (error code, action
    index, rule id, sentence) and, unless it was refused for its size, the text,
    so an organiser can step through the valid part of the game up to the error.
    """

    class Source(models.TextChoices):
        API = "api", _("API")
        FORM = "form", _("Web form")
        IMPORT = "import", _("Bulk import")
        SITE = "site", _("Command line / demo data")
        RECORDER = "recorder", _("Recorded at the table")
        LIVE = "live", _("Played online")

    class Status(models.TextChoices):
        ACCEPTED = "accepted", _("Accepted")
        DUPLICATE = "duplicate", _("Already stored")
        REJECTED = "rejected", _("Rejected")

    class Error(models.TextChoices):
        MALFORMED = "malformed", _("Malformed")
        TOO_LARGE = "too_large", _("Too large")
        ILLEGAL = "illegal", _("Illegal action")
        UNKNOWN_PLAYERS = "unknown_players", _("Unknown players")

    # No index of its own: (club, status, -created_at) starts with it.
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="uploads", db_index=False)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="log_uploads",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    source = models.CharField(max_length=16, choices=Source.choices)
    import_run = models.ForeignKey(
        Import, null=True, blank=True, on_delete=models.CASCADE, related_name="uploads"
    )
    name = models.CharField(max_length=200, blank=True, help_text="File name or line in an import.")
    size = models.PositiveIntegerField(default=0)
    content_hash = models.CharField(max_length=64, blank=True)
    game = models.CharField(max_length=64, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices)
    match = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="uploads"
    )
    error = models.CharField(max_length=32, choices=Error.choices, blank=True)
    error_index = models.PositiveIntegerField(null=True, blank=True)
    error_rule = models.CharField(max_length=32, blank=True)
    error_message = models.TextField(blank=True, help_text="Why, in English (for logs and search).")
    # Why, as what to say (config.sentences.Sentence): shown in each reader's language.
    error_sentence = models.JSONField(default=dict, blank=True)
    error_details = models.JSONField(default=dict, blank=True)
    document_text = models.TextField(blank=True)
    validation_ms = models.FloatField(
        null=True,
        blank=True,
        help_text="Milliseconds the engine took to replay the log (null: not replayed, "
        "e.g. malformed, a duplicate, or uploaded before this was measured).",
    )

    class Meta:
        verbose_name = _("upload")
        verbose_name_plural = _("uploads")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["accepted", "duplicate", "rejected"]),
                name="upload_status_valid",
            ),
            # A rejection always says why; an accepted upload never carries an error.
            models.CheckConstraint(
                condition=(Q(status="rejected") & ~Q(error=""))
                | (~Q(status="rejected") & Q(error="")),
                name="upload_error_iff_rejected",
            ),
        ]
        indexes = [
            models.Index(fields=["club", "status", "-created_at"], name="upload_club_status"),
        ]

    def __str__(self) -> str:
        return f"upload {self.pk} to {self.club} ({self.status})"

    @property
    def name_text(self) -> str:
        """Its name for a reader: a JSON-lines import's ``line 3`` in their language (行 3,
        строка 3); any other name (a file's) as it was given."""
        found = _LINE_NAME.fullmatch(self.name or "") if self.source == self.Source.IMPORT else None
        if found is None:
            return self.name
        return gettext("line %(number)s") % {"number": found.group(1)}

    @property
    def error_text(self) -> str:
        """Why it was refused, in the active language (the reader's)."""
        if not self.error:
            return ""
        return Sentence.from_json(self.error_sentence, self.error_message).text()
