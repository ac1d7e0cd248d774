"""Events: round-robin and Swiss tournaments whose games are uploaded logs or games
recorded at the table.

A :class:`Pairing` is one game to play (a leg: two per board with ``double``)
or one bye; its :class:`PairingSeat` rows say who sits where and, once the
result is in, the points each player took. A played pairing points at the
ordinary :class:`games.models.Match` its log created, so tournament games are
rated on the club ladder like any other match.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from clubs.models import Club, Player
from games.models import Match
from live.models import CLOCK_SHAPE, Table
from recorder.models import Draft
from tournaments.explanations import explanation


class Tournament(models.Model):
    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", _("Round-robin")
        SWISS = "swiss", _("Swiss")

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("Registration")
        RUNNING = "running", pgettext_lazy("a tournament's status", "Running")
        FINISHED = "finished", _("Finished")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="tournaments")
    name = models.CharField(max_length=120)
    game = models.CharField(max_length=64, help_text="Engine game id, e.g. mister-x.")
    format = models.CharField(max_length=16, choices=Format.choices)
    rounds = models.PositiveSmallIntegerField(
        help_text="Rounds to play; a round-robin sets it at the start."
    )
    current_round = models.PositiveSmallIntegerField(default=0)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.REGISTRATION)
    table_size = models.PositiveSmallIntegerField(
        default=2, help_text="Players per game (2 for two-seat games)."
    )
    double = models.BooleanField(
        default=False, help_text="Two-seat games: every pairing plays both roles."
    )
    bye_points = models.FloatField(default=1.0, help_text="Points for a bye, per game.")
    strict_role_parity = models.BooleanField(
        default=False,
        help_text="Two-seat Swiss: keep every player's roles within one of each other "
        "before keeping score groups together (never at the cost of a repeat, "
        "a third role in a row or the bye's place). Off: roles within two, as "
        "colours in a chess Swiss.",
    )
    tiebreaks = models.JSONField(
        default=list, help_text="Tie-breaks in order (tournaments.standings.TIEBREAKS)."
    )
    options = models.JSONField(
        default=dict, blank=True, help_text="The game's rule options every log must use."
    )
    # --- the time control of the tables its rounds are played online at (live.clocks) ---
    clock = models.CharField(max_length=16, choices=Table.Clock.choices, default=Table.Clock.NONE)
    #: real time: each seat's minutes for the game, and the seconds added after each turn
    clock_minutes = models.PositiveSmallIntegerField(null=True, blank=True)
    clock_increment = models.PositiveSmallIntegerField(default=0)
    #: correspondence: the days a seat has for each turn
    clock_days = models.PositiveSmallIntegerField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=~Q(name=""), name="tournament_name_not_empty"),
            models.CheckConstraint(condition=~Q(game=""), name="tournament_game_not_empty"),
            models.CheckConstraint(
                condition=Q(format__in=["round_robin", "swiss"]), name="tournament_format_valid"
            ),
            models.CheckConstraint(
                condition=Q(status__in=["registration", "running", "finished"]),
                name="tournament_status_valid",
            ),
            models.CheckConstraint(condition=Q(rounds__gte=1), name="tournament_rounds_positive"),
            models.CheckConstraint(
                condition=Q(current_round__lte=F("rounds")),
                name="tournament_current_round_in_range",
            ),
            models.CheckConstraint(
                condition=Q(table_size__gte=2, table_size__lte=6),
                name="tournament_table_size_valid",
            ),
            models.CheckConstraint(
                condition=Q(double=False) | Q(table_size=2), name="tournament_double_only_two_seats"
            ),
            models.CheckConstraint(condition=Q(bye_points__gte=0), name="tournament_bye_points"),
            models.CheckConstraint(
                condition=Q(format="swiss") | Q(table_size=2),
                name="tournament_round_robin_two_seats",
            ),
            # Role parity is a rule of two-seat Swiss rounds with one game per pairing.
            models.CheckConstraint(
                condition=Q(strict_role_parity=False)
                | Q(format="swiss", table_size=2, double=False),
                name="tournament_strict_role_parity_two_seat_swiss",
            ),
            models.CheckConstraint(condition=CLOCK_SHAPE, name="tournament_clock_shape"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def legs(self) -> int:
        return 2 if self.double else 1


class Entry(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    seed_rating = models.FloatField(default=1500.0)
    withdrawn = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        ordering = ["tournament", "-seed_rating", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="entry_player_once_per_tournament"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament}"


class ForbiddenPairing(models.Model):
    """Two entries never paired (family, same team); kept apart at tables too."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="forbidden_pairings"
    )
    first = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(max_length=200)

    class Meta:
        verbose_name = _("forbidden pairing")
        verbose_name_plural = _("forbidden pairings")
        constraints = [
            # Stored in id order, so each pair has exactly one row.
            models.CheckConstraint(
                condition=Q(first__lt=F("second")), name="forbidden_pairing_ordered"
            ),
            models.UniqueConstraint(
                fields=["tournament", "first", "second"], name="forbidden_pairing_unique"
            ),
            models.CheckConstraint(condition=~Q(reason=""), name="forbidden_pairing_reason"),
        ]

    def __str__(self) -> str:
        return f"{self.first} / {self.second}: {self.reason}"


class Pairing(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        PLAYED = "played", pgettext_lazy("a pairing's game", "Played")
        FORFEIT = "forfeit", _("Forfeit")
        BYE = "bye", _("Bye")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="pairings")
    round = models.PositiveSmallIntegerField()
    board = models.PositiveSmallIntegerField()
    leg = models.PositiveSmallIntegerField(default=1, help_text="2 for the return game (double).")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    match = models.OneToOneField(
        Match, null=True, blank=True, on_delete=models.PROTECT, related_name="tournament_pairing"
    )
    #: The game recorded at the table for this pairing (``recorder``): one column, so a
    #: pairing has one draft at a time (a second "Record" resumes it), and one-to-one, so
    #: a draft settles no other pairing. Its match becomes the result once stored
    #: (``tournaments.handlers``); an abandoned draft is replaced by the next one.
    draft = models.OneToOneField(
        Draft, null=True, blank=True, on_delete=models.SET_NULL, related_name="pairing"
    )
    #: The live table its game is played at online (``live``; "Play this round online"):
    #: one-to-one, so a table settles no other pairing; its finished game's match becomes
    #: the result (``tournaments.handlers``), as an uploaded log's does.
    table = models.OneToOneField(
        "live.Table", null=True, blank=True, on_delete=models.SET_NULL, related_name="pairing"
    )
    explanation = models.TextField(
        help_text="Why the pairing program made this pairing, in English (for search and logs)."
    )
    #: Why, as what to say (the engine's Message, ``tournaments.pairing.explanations``):
    #: each reader is told it in their language (``explanation_text``). A pairing made
    #: before it was kept holds ``{"plain": <its English text>}``.
    why = models.JSONField(default=dict, blank=True)
    overridden = models.BooleanField(default=False)
    override_reason = models.TextField(blank=True)
    forfeit_reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("pairing")
        verbose_name_plural = _("pairings")
        ordering = ["tournament", "round", "board", "leg"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "round", "board", "leg"], name="pairing_board_unique"
            ),
            models.CheckConstraint(
                condition=Q(round__gte=1) & Q(board__gte=1), name="pairing_round_board_positive"
            ),
            models.CheckConstraint(condition=Q(leg__in=[1, 2]), name="pairing_leg_valid"),
            models.CheckConstraint(
                condition=Q(status__in=["pending", "played", "forfeit", "bye"]),
                name="pairing_status_valid",
            ),
            # A match exactly when played.
            models.CheckConstraint(
                condition=(Q(status="played") & Q(match__isnull=False))
                | (~Q(status="played") & Q(match__isnull=True)),
                name="pairing_match_iff_played",
            ),
            models.CheckConstraint(
                condition=Q(overridden=False) | ~Q(override_reason=""),
                name="pairing_override_has_reason",
            ),
            models.CheckConstraint(
                condition=~Q(status="forfeit") | ~Q(forfeit_reason=""),
                name="pairing_forfeit_has_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} r{self.round} b{self.board}" + (
            f" leg {self.leg}" if self.leg > 1 else ""
        )

    @property
    def is_bye(self) -> bool:
        return self.status == self.Status.BYE

    @property
    def explanation_text(self) -> str:
        """Why the pairing program made it, in the active language (the reader's)."""
        return explanation(self.why, self.explanation, self.tournament.game)

    @property
    def explanation_is_english(self) -> bool:
        """A pairing made before its explanation was kept as what to say: English only."""
        return not self.why or "plain" in self.why

    @property
    def recording(self) -> Draft | None:
        """The draft its game is being recorded in now, if any."""
        draft = self.draft
        return draft if draft is not None and draft.status == Draft.Status.RECORDING else None


class PairingSeat(models.Model):
    pairing = models.ForeignKey(Pairing, on_delete=models.CASCADE, related_name="seats")
    seat = models.CharField(max_length=32, help_text="Seat id of the log; 'bye' for a bye.")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="seats")
    order = models.PositiveSmallIntegerField(help_text="Position in the log's seat list.")
    points = models.FloatField(null=True, blank=True, help_text="Null until the result is in.")

    class Meta:
        verbose_name = _("pairing seat")
        verbose_name_plural = _("pairing seats")
        ordering = ["pairing", "order"]
        constraints = [
            models.UniqueConstraint(fields=["pairing", "seat"], name="pairingseat_seat_unique"),
            models.UniqueConstraint(fields=["pairing", "entry"], name="pairingseat_entry_unique"),
            models.UniqueConstraint(fields=["pairing", "order"], name="pairingseat_order_unique"),
            models.CheckConstraint(condition=~Q(seat=""), name="pairingseat_seat_not_empty"),
            models.CheckConstraint(
                condition=Q(points__isnull=True) | Q(points__gte=0),
                name="pairingseat_points_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.seat}: {self.entry.player}"
