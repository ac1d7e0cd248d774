"""Tables played online: a game of a club, each seat on its own device (or a bot's).

A table is opened by a member with the game, its options and its seats: a member's,
a bot's, or free for a member to take. Once every seat is taken the server deals (a
seed), and the table holds its log's parts as a recorder's draft does (setup, actions,
moves, what seats have opened), played through the recorder's engine steps and bots.

Every change of a table is a numbered :class:`TableEvent` (1, 2, 3…, ``Table.last_event``
the newest). A socket sends, for each event after the one a client last saw, what that
event looks like to the socket's seat, built on the server from the engine's view for
that seat (``live.selectors``): the database holds the truth, a push only says "there is
news", and a client that reconnects names its last number and gets what it missed.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from games.models import Match

#: A time control is one of three shapes, within the limits a club plays with (the fields
#: ``clock``, ``clock_minutes``, ``clock_increment``, ``clock_days`` of a table, and of an
#: event whose rounds are played online). A bound compared with NULL is unknown, which a
#: CHECK lets pass: the figures a shape needs are required to be there.
CLOCK_SHAPE = (
    (
        Q(clock="none")
        & Q(clock_minutes__isnull=True)
        & Q(clock_days__isnull=True)
        & Q(clock_increment=0)
    )
    | (
        Q(clock="realtime")
        & Q(clock_minutes__isnull=False)
        & Q(clock_minutes__gte=1)
        & Q(clock_minutes__lte=180)
        & Q(clock_increment__lte=60)
        & Q(clock_days__isnull=True)
    )
    | (
        Q(clock="correspondence")
        & Q(clock_days__isnull=False)
        & Q(clock_days__gte=1)
        & Q(clock_days__lte=14)
        & Q(clock_minutes__isnull=True)
        & Q(clock_increment=0)
    )
)


class Table(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for players")
        PLAYING = "playing", _("Being played")
        FINISHED = "finished", _("Finished")
        ABANDONED = "abandoned", _("Abandoned")

    class Clock(models.TextChoices):
        NONE = "none", _("No clock")
        REALTIME = "realtime", _("Real time")
        CORRESPONDENCE = "correspondence", _("Correspondence")

    class OnTimeOut(models.TextChoices):
        LOSE = "lose", _("The seat's side loses")
        BOT = "bot", _("A bot takes the seat over")

    class Ending(models.TextChoices):
        """How a table ended off the board (docs/rules/log-format.md, LIVE-1)."""

        NONE = "", _("On the board, or not over")
        TIME = "time", _("A clock ran out")
        CLAIM = "claim", _("Claimed from a seat that left")
        IDLE = "idle", _("Nobody moved")
        FULL = "full", _("The log is full")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="tables")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tables_opened"
    )
    game = models.CharField(max_length=64, help_text="Engine game id, e.g. cryptid.")
    options = models.JSONField(default=dict, blank=True, help_text="Normalized game options.")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    #: dealt when the last seat is taken (the server deals every live game)
    seed = models.BigIntegerField(null=True, blank=True)
    #: the complete setup, as the log records it (set when play starts)
    setup = models.JSONField(default=dict, blank=True)
    actions = models.JSONField(default=list, blank=True)
    #: one entry per action: {"round", "phase", "notation", "bot"} (recorder.services.move_entry)
    moves = models.JSONField(default=list, blank=True)
    #: seat -> the pick it has opened (engine ``Session.opened``); never in the log
    opened = models.JSONField(default=dict, blank=True)
    #: the number of the table's newest event (0: none yet)
    last_event = models.PositiveIntegerField(default=0)
    #: the seat asking to take back its last move (blank: no one), and the seats that agreed
    takeback_by = models.CharField(max_length=32, blank=True, default="")
    takeback_agreed = models.JSONField(default=list, blank=True)
    match = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="tables"
    )
    # --- the time control (live.clocks) ---
    clock = models.CharField(max_length=16, choices=Clock.choices, default=Clock.NONE)
    #: real time: each seat's minutes for the game, and the seconds added after each turn
    clock_minutes = models.PositiveSmallIntegerField(null=True, blank=True)
    clock_increment = models.PositiveSmallIntegerField(default=0)
    #: correspondence: the days a seat has for each turn
    clock_days = models.PositiveSmallIntegerField(null=True, blank=True)
    on_time_out = models.CharField(max_length=8, choices=OnTimeOut.choices, default=OnTimeOut.LOSE)
    #: when the table's newest event happened (a table nobody moves at goes idle from it)
    moved_at = models.DateTimeField(null=True, blank=True)
    #: the earliest moment something falls due: a clock runs out, or the table goes idle
    due_at = models.DateTimeField(null=True, blank=True, db_index=True)
    ending = models.CharField(max_length=8, choices=Ending.choices, default="", blank=True)
    #: the seat whose time ran out, or that left and was claimed
    ended_seat = models.CharField(max_length=32, blank=True, default="")
    #: the seats a bot took over (LIVE-1.5): {"seat", "player", "reason", "at"}
    takeovers = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["-updated_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["open", "playing", "finished", "abandoned"]),
                name="table_status_valid",
            ),
            models.CheckConstraint(condition=~Q(game=""), name="table_game_not_empty"),
            # Dealt exactly when play starts: an open table has no seed, a played one has.
            models.CheckConstraint(
                condition=(Q(status="open") & Q(seed__isnull=True))
                | (~Q(status="open") & Q(seed__isnull=False))
                | Q(status="abandoned"),
                name="table_seed_iff_dealt",
            ),
            models.CheckConstraint(
                condition=Q(seed__isnull=True) | Q(seed__gte=0), name="table_seed_not_negative"
            ),
            models.CheckConstraint(
                condition=Q(match__isnull=True) | Q(status="finished"),
                name="table_match_only_when_finished",
            ),
            models.CheckConstraint(condition=CLOCK_SHAPE, name="table_clock_shape"),
            models.CheckConstraint(
                condition=Q(on_time_out__in=["lose", "bot"]), name="table_on_time_out_valid"
            ),
            # Ended by time or claim: finished (a match); idle: closed without one; full:
            # stored as an unfinished match (LOG-LENGTH).
            models.CheckConstraint(
                condition=Q(ending="")
                | (Q(ending__in=["time", "claim"]) & Q(status="finished") & ~Q(ended_seat=""))
                | (Q(ending="idle") & Q(status="abandoned"))
                | (Q(ending="full") & Q(status="finished") & Q(ended_seat="")),
                name="table_ending_valid",
            ),
        ]
        indexes = [models.Index(fields=["club", "status", "-updated_at"], name="table_club_status")]

    def __str__(self) -> str:
        return f"table {self.pk} of {self.game} in {self.club} ({self.status})"


class TableSeat(models.Model):
    """One seat of a table: a member's (``user``), a bot's (``bot``: the engine's level),
    or free (neither) until a member takes it. ``player`` is the club handle the seat
    plays as in the log (a member's own handle; a bot's ``bot-greedy``)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    seat = models.CharField(max_length=32, help_text="The engine's seat id (p1, mrx, det1…).")
    order = models.PositiveSmallIntegerField(help_text="The seat's place in the log's seat list.")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="table_seats",
    )
    bot = models.CharField(max_length=16, blank=True, default="")
    player = models.CharField(max_length=64, blank=True, default="")
    #: a timed table's person's seat: what is left on its clock, as of ``turn_since``
    clock_ms = models.BigIntegerField(null=True, blank=True)
    #: when this seat's clock started running (its turn); null while it is not running
    turn_since = models.DateTimeField(null=True, blank=True)
    #: the table's sockets its person has open now (several tabs count as one presence)
    sockets = models.PositiveSmallIntegerField(default=0)
    #: when its person was last seen at the table (a socket, a poll, a move)
    seen_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("seat at a table")
        verbose_name_plural = _("seats at tables")
        ordering = ["table", "order"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="table_seat_once"),
            models.UniqueConstraint(fields=["table", "order"], name="table_seat_order_once"),
            # One seat per person at a table: each device sees one seat's secrets.
            models.UniqueConstraint(
                fields=["table", "user"],
                condition=Q(user__isnull=False),
                name="table_one_seat_per_person",
            ),
            models.CheckConstraint(
                condition=Q(user__isnull=True) | Q(bot=""), name="table_seat_person_or_bot"
            ),
            models.CheckConstraint(
                condition=Q(clock_ms__isnull=True) | Q(clock_ms__gte=0),
                name="table_seat_clock_not_negative",
            ),
            models.CheckConstraint(
                condition=Q(turn_since__isnull=True) | Q(clock_ms__isnull=False),
                name="table_seat_runs_only_a_clock",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.seat} of table {self.table_id}"

    @property
    def is_free(self) -> bool:
        return self.user_id is None and not self.bot


class TableEvent(models.Model):
    """A numbered change of a table. What it shows a seat is drawn from the table's log
    parts by ``live.selectors`` for that seat's eyes; the row keeps only what is public:
    its kind, the seat it concerns and the ply it made."""

    class Kind(models.TextChoices):
        SEATED = "seated", _("A seat was taken")
        STARTED = "started", _("The game started")
        MOVE = "move", _("A move")
        OPENED = "opened", _("A seat looked inside its pick")
        FINISHED = "finished", _("The game ended")
        ABANDONED = "abandoned", _("The table was closed")
        TAKEBACK_ASKED = "takeback-ask", _("A seat asked to take back its last move")
        TAKEBACK_DECLINED = "takeback-no", _("A take-back was declined")
        TAKEN_BACK = "taken-back", _("A move was taken back")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="events")
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=16, choices=Kind.choices)
    seat = models.CharField(max_length=32, blank=True, default="")
    #: a move's place in the log (1 = the first action); a take-back's first ply taken back
    ply = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("table event")
        verbose_name_plural = _("table events")
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="table_event_number_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_event_number_positive"),
            models.CheckConstraint(
                condition=Q(
                    kind__in=[
                        "seated",
                        "started",
                        "move",
                        "opened",
                        "finished",
                        "abandoned",
                        "takeback-ask",
                        "takeback-no",
                        "taken-back",
                    ]
                ),
                name="table_event_kind_valid",
            ),
            # A move's ply; a take-back's: the first ply it took back.
            models.CheckConstraint(
                condition=Q(ply__isnull=True) | Q(kind__in=["move", "taken-back"]),
                name="table_event_ply_only_for_moves",
            ),
        ]

    def __str__(self) -> str:
        return f"event {self.number} ({self.kind}) of table {self.table_id}"


class SeatLink(models.Model):
    """A one-time link to a free seat of a table, for a guest (a club that allows guests at
    its tables): whoever opens it first takes the seat, and it is spent. Only the token's
    SHA-256 is stored; the token itself is shown once, to the person who made the link."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seat_links")
    seat = models.CharField(max_length=32)
    token_hash = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seat_links_made"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="seat_links_used",
    )
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("seat link")
        verbose_name_plural = _("seat links")
        ordering = ["table", "seat", "-created_at"]
        constraints = [
            # One link waiting per seat: a new one replaces it (the old is deleted).
            models.UniqueConstraint(
                fields=["table", "seat"],
                condition=Q(used_at__isnull=True),
                name="seat_link_one_waiting_per_seat",
            ),
            models.CheckConstraint(
                condition=Q(used_at__isnull=True) | Q(used_by__isnull=False),
                name="seat_link_used_by_someone",
            ),
        ]

    def __str__(self) -> str:
        return f"link to {self.seat} of table {self.table_id}"
