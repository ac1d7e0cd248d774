"""Ladders: one per (club, game), its ratings and the full history of changes.

The maths is in ``ladder.kernel`` (ratings.md, EL-*); these tables hold its
state and its records. Ratings are written only by ``ladder.services``.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Player
from games.models import Match
from ladder.kernel import LadderOptions, OptionsError, rated_games


def game_choices() -> list[tuple[str, str]]:
    """The games a ladder may rate: every engine game with a rating shape (asked when a
    form or check needs them, so a game registered later is one too)."""
    return [(game, game) for game in rated_games()]


def validate_options(value: Any) -> None:
    try:
        LadderOptions.from_json(value)
    except OptionsError as exc:
        raise ValidationError(str(exc)) from None


class Ladder(models.Model):
    """One ladder per (club, game) (EL-1.1), with its rating options; and apart from it,
    one *bot ladder* per (club, game) for the matches where a bot held a seat (games
    against the recorder's bots, ``Match.with_bots``), which never count on the other."""

    class Kind(models.TextChoices):
        STANDARD = "standard", _("Ladder")
        BOTS = "bots", _("Bot ladder")

    #: the bot ladder's page is ``…/ladders/<game>-bots/``
    BOTS_SUFFIX = "-bots"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="ladders")
    game = models.CharField(max_length=64, choices=game_choices)
    kind = models.CharField(
        max_length=16,
        choices=Kind.choices,
        default=Kind.STANDARD,
        help_text="standard: matches between people; bots: matches with a bot seat only.",
    )
    options = models.JSONField(
        default=dict,
        blank=True,
        validators=[validate_options],
        help_text="EL-1.1: initial, k, provisional_k, provisional_games, role_advantage "
        '("none", "estimated" or e.g. {"cryptid": 35}); absent keys take the defaults.',
    )
    #: EL-3.3 tallies after the last rated match: {"cryptid": [wins, matches]}
    role_tallies = models.JSONField(default=dict, blank=True, editable=False)
    #: the newest rated match, in rating order (played_at, id): a match after it is
    #: rated incrementally, one before it makes the ladder recompute.
    last_rated_at = models.DateTimeField(null=True, blank=True, editable=False)
    last_rated_match = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", editable=False
    )
    rated_matches = models.PositiveIntegerField(default=0, editable=False)
    #: bumped by every write of ratings; a recompute computed against an older
    #: version is computed again.
    version = models.PositiveIntegerField(default=0, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("ladder")
        verbose_name_plural = _("ladders")
        ordering = ["club", "game"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "game", "kind"], name="ladder_unique_club_game_kind"
            ),
            models.CheckConstraint(
                condition=Q(kind__in=["standard", "bots"]), name="ladder_kind_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club} — {self.title}"

    @property
    def with_bots(self) -> bool:
        """Whether this ladder rates the matches with a bot seat (and only those)."""
        return self.kind == self.Kind.BOTS

    @property
    def title(self) -> str:
        """``Mister X ladder``, or ``Mister X bot ladder (games against bots only)``:
        the game by the engine's name for it."""
        from games.display import game_name

        if self.with_bots:
            return gettext("%(game)s bot ladder (games against bots only)") % {
                "game": game_name(self.game)
            }
        return gettext("%(game)s ladder") % {"game": game_name(self.game)}

    @property
    def url_key(self) -> str:
        """The ladder's segment in page URLs: the game id, ``-bots`` added for a bot ladder."""
        return self.game + self.BOTS_SUFFIX if self.with_bots else self.game

    @classmethod
    def parse_url_key(cls, key: str) -> tuple[str, str]:
        """(game, kind) of a page URL's ladder segment."""
        if key.endswith(cls.BOTS_SUFFIX):
            return key[: -len(cls.BOTS_SUFFIX)], cls.Kind.BOTS
        return key, cls.Kind.STANDARD

    @property
    def rating_options(self) -> LadderOptions:
        return LadderOptions.from_json(self.options)


class Rating(models.Model):
    """A player's current standing in one ladder."""

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="ratings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    rating = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    #: per seat role: {"cryptid": {"wins": 3, "losses": 1}, "detectives": {...}}
    roles = models.JSONField(default=dict)
    provisional = models.BooleanField(default=True, help_text="EL-1.4: shown as 1532?")
    last_played_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        ordering = ["ladder", "-rating", "player_id"]
        constraints = [
            models.UniqueConstraint(fields=["ladder", "player"], name="rating_unique_player"),
            models.CheckConstraint(
                condition=Q(games__gte=models.F("wins") + models.F("losses")),
                name="rating_games_cover_results",
            ),
        ]
        indexes = [models.Index(fields=["ladder", "-rating"], name="rating_standings")]

    def __str__(self) -> str:
        return f"{self.player} {self.display}"

    @property
    def display(self) -> str:
        """Rounded for pages (EL-1.3), with "?" while provisional (EL-1.4)."""
        return f"{round(self.rating)}{'?' if self.provisional else ''}"


class RatingChange(models.Model):
    """One player's change in one rated match: everything EL-7.1 needs to redo
    the sum, ``after = before + k * weight * (score - expected)``."""

    # A recompute rewrites every row of a ladder, so every index costs: the single-column
    # FK indexes are left out where a composite index below starts with the column.
    ladder = models.ForeignKey(
        Ladder, on_delete=models.CASCADE, related_name="changes", db_index=False
    )
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="rating_changes", db_index=False
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="rating_changes", db_index=False
    )
    #: position of the match in the ladder's rating order (EL-1.3), from 1
    sequence = models.PositiveIntegerField()
    played_at = models.DateTimeField()
    role = models.CharField(max_length=32)
    before = models.FloatField()
    after = models.FloatField()
    expected = models.FloatField()
    score = models.FloatField()
    k = models.FloatField()
    weight = models.FloatField(help_text="1; pawns/5 for a detective; 1/(N-1) in a free-for-all")
    advantage = models.FloatField(help_text="role advantage of this player's side (EL-3)")
    opponent_rating = models.FloatField(null=True, blank=True)
    won = models.BooleanField()

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["ladder", "sequence", "id"]
        constraints = [
            # A match belongs to one ladder (its club and game): one change per player.
            models.UniqueConstraint(
                fields=["match", "player"], name="ratingchange_one_per_player_match"
            ),
        ]
        # Player pages and head-to-head use (ladder, player); no index on player alone:
        # a player with rating changes has seats, which protect it from deletion.
        indexes = [
            models.Index(fields=["ladder", "player", "sequence"], name="ratingchange_history"),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.delta:+.1f} in match {self.match_id}"

    @property
    def delta(self) -> float:
        return self.after - self.before


class RecomputeJob(models.Model):
    """A full recompute of one ladder: queued, running (with progress), done or failed."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    class Reason(models.TextChoices):
        BACKDATED = "backdated", _("A back-dated match")
        CHANGED = "changed", _("A rated match changed (void, options)")
        NIGHTLY = "nightly", _("Nightly")
        MANUAL = "manual", _("Manual")

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="recompute_jobs")
    reason = models.CharField(max_length=16, choices=Reason.choices)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    #: matches rated so far / to rate; ``phase`` says which step is running
    progress = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    phase = models.CharField(max_length=32, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="The running job's last sign of life: when it started or last saved "
        "its progress. A job silent for long lost its worker (ladder.services.STALLED_AFTER).",
    )

    class Meta:
        verbose_name = _("ladder recompute")
        verbose_name_plural = _("ladder recomputes")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["queued", "running", "done", "failed"]),
                name="recomputejob_status_valid",
            ),
            models.CheckConstraint(
                condition=Q(progress__lte=models.F("total")) | Q(total=0),
                name="recomputejob_progress_within_total",
            ),
        ]

    def __str__(self) -> str:
        return f"recompute {self.ladder} ({self.status})"

    @property
    def percent(self) -> int:
        return round(100 * self.progress / self.total) if self.total else 0
