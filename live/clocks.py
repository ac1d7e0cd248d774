"""The clocks of a live table, kept by the server (docs/live.md, "Clocks and absence").

A table's time control is one of three: none (untimed: only the idle end applies),
real time (minutes for the whole game, plus seconds added after each move) and
correspondence (days for each move, as Board Game Arena's turn-based mode). Each
person's seat has what is left on its clock (``TableSeat.clock_ms``) and, while it is
that seat's turn, the moment its clock started running (``turn_since``): every seat the
engine names in ``to_act`` runs at once (Mister X's detectives move their pawns in any
order, each seat on its own clock). A bot's seat has no clock.

Nothing runs in the background: what is due (a clock run out, a table gone idle) is
worked out from these figures whenever the table is read or written
(``live.endings.settle``), and a Celery task asks again at the moment the earliest
clock would fall. Everything here is arithmetic on a table whose row is locked; the
endings themselves are ``live.endings``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from config.queueing import BROKER_ERRORS, registered
from live.models import Table, TableSeat

log = logging.getLogger(__name__)

#: The time now; tests put a fixed clock of their own here (``monkeypatch``).
now = timezone.now

#: Real-time limits (the database checks them too: ``table_clock_shape``).
MINUTES = (1, 180)
INCREMENT = (0, 60)
DAYS = (1, 14)
#: The real-time controls the table form offers first: (minutes, seconds per move).
PRESETS = [(3, 2), (5, 3), (10, 5), (15, 10), (30, 20), (60, 30)]
#: How long a seat that is not at its table still counts as here: a page without a
#: socket asks for news every few seconds, and a moment's reload is no absence.
HERE_FOR = timedelta(seconds=30)
#: How long an open socket counts as here without a word from its page (the page says
#: "here" every minute): a socket whose server process died never closed, and its seat
#: must not count as here for ever.
SOCKET_SILENT_FOR = timedelta(minutes=3)


class TimeControlInvalid(ValueError):
    """A time control outside the shapes or limits above (``args[0]``: why, translated;
    ``field``: which value)."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class TimeControl:
    kind: str = Table.Clock.NONE
    minutes: int | None = None
    increment: int = 0
    days: int | None = None
    on_time_out: str = Table.OnTimeOut.LOSE

    @classmethod
    def of(cls, held: Any) -> TimeControl:
        """The control kept in ``held``'s fields (a table's, an event's online rounds')."""
        return cls(held.clock, held.clock_minutes, held.clock_increment, held.clock_days)

    def apply(self, table: Table) -> None:
        table.clock, table.clock_minutes = self.kind, self.minutes
        table.clock_increment, table.clock_days = self.increment, self.days
        table.on_time_out = self.on_time_out


def _whole(value: Any, field: str, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise TimeControlInvalid(
            gettext("%(field)s must be a whole number from %(low)s to %(high)s")
            % {"field": field, "low": low, "high": high},
            field,
        )
    return value


def time_control(raw: Any) -> TimeControl:
    """Read a time control as the API takes it: null or ``{"kind": "none" | "realtime" |
    "correspondence", "minutes", "increment", "days", "on_time_out": "lose" | "bot"}``.
    TimeControlInvalid when it is none of them, or outside the limits."""
    if raw is None:
        return TimeControl()
    if not isinstance(raw, dict):
        raise TimeControlInvalid(gettext("clock must be an object"), "clock")
    kind = raw.get("kind", Table.Clock.NONE)
    on_time_out = raw.get("on_time_out", Table.OnTimeOut.LOSE)
    if on_time_out not in Table.OnTimeOut.values:
        raise TimeControlInvalid(
            gettext("on_time_out is one of %(values)s")
            % {"values": ", ".join(Table.OnTimeOut.values)},
            "on_time_out",
        )
    if kind == Table.Clock.NONE:
        return TimeControl(on_time_out=on_time_out)
    if kind == Table.Clock.REALTIME:
        return TimeControl(
            kind,
            minutes=_whole(raw.get("minutes"), "minutes", *MINUTES),
            increment=_whole(raw.get("increment", 0), "increment", *INCREMENT),
            on_time_out=on_time_out,
        )
    if kind == Table.Clock.CORRESPONDENCE:
        return TimeControl(
            kind, days=_whole(raw.get("days"), "days", *DAYS), on_time_out=on_time_out
        )
    raise TimeControlInvalid(
        gettext("clock kind is one of %(values)s") % {"values": ", ".join(Table.Clock.values)},
        "kind",
    )


def label(table: Table | Any) -> str:
    """The time control of ``table`` (or of an event's online rounds: the same fields) in a
    few words, as a club's list of tables says it ("" untimed)."""
    if table.clock == Table.Clock.REALTIME:
        return gettext("real time %(minutes)s + %(increment)s") % {
            "minutes": table.clock_minutes,
            "increment": table.clock_increment,
        }
    if table.clock == Table.Clock.CORRESPONDENCE:
        days = table.clock_days or 0
        return ngettext("%(days)s day per move", "%(days)s days per move", days) % {"days": days}
    return ""


def timed(table: Table) -> bool:
    return table.clock != Table.Clock.NONE


def _ms(delta: timedelta) -> int:
    return int(delta.total_seconds() * 1000)


def _per_move_ms(table: Table) -> int:
    return (table.clock_days or 0) * 86_400_000


def start(table: Table, seats: list[TableSeat]) -> None:
    """At the deal: each person's seat gets its time (real time: the whole game's)."""
    if table.clock != Table.Clock.REALTIME:
        return
    for seat in seats:
        if not seat.bot:
            seat.clock_ms = (table.clock_minutes or 0) * 60_000


def turn(
    table: Table, seats: list[TableSeat], mover: str | None, to_act: list[str], at: datetime
) -> None:
    """The clocks after a write at ``at``: ``mover`` (the seat that moved, if a person's)
    is charged what its move took and, in real time, given its increment; a seat no
    longer to act stops, a seat newly to act starts (in correspondence with a full
    move's days). The caller saves ``seats``."""
    if not timed(table):
        return
    correspondence = table.clock == Table.Clock.CORRESPONDENCE
    for seat in seats:
        if seat.bot or seat.clock_ms is None and not correspondence:
            seat.turn_since = None
            continue
        running = seat.turn_since is not None
        if running and (seat.seat == mover or seat.seat not in to_act):
            seat.clock_ms = max(0, seat.clock_ms - _ms(at - seat.turn_since))
            if seat.seat == mover and not correspondence:
                seat.clock_ms += table.clock_increment * 1000
            seat.turn_since = None
        if seat.seat in to_act and seat.turn_since is None:
            if correspondence:
                seat.clock_ms = _per_move_ms(table)
            seat.turn_since = at


def stop(seats: list[TableSeat], at: datetime) -> None:
    """Every clock stops (the table is over): what is left is what it shows from now on."""
    for seat in seats:
        if seat.turn_since is not None:
            seat.clock_ms = max(0, seat.clock_ms - _ms(at - seat.turn_since))
            seat.turn_since = None


def out_of_time(seat: TableSeat, at: datetime) -> bool:
    """Has ``seat``'s running clock reached zero by ``at``?"""
    falls = falls_at(seat)
    return falls is not None and falls <= at


def falls_at(seat: TableSeat) -> datetime | None:
    """When a running clock reaches zero."""
    if seat.turn_since is None or seat.clock_ms is None:
        return None
    return seat.turn_since + timedelta(milliseconds=seat.clock_ms)


def idle_after(table: Table) -> timedelta:
    """How long a table nobody moves at lasts (LIVE-1.6): the site's idle time, and never
    less than a correspondence move's days (its clock decides first)."""
    idle = timedelta(seconds=settings.LIVE_IDLE_AFTER)
    if table.clock == Table.Clock.CORRESPONDENCE:
        idle = max(idle, timedelta(days=(table.clock_days or 0) + 1))
    return idle


def due_at(table: Table, seats: list[TableSeat]) -> datetime | None:
    """The earliest moment something falls due at a table not over: a running clock
    reaches zero, or nobody has moved for :func:`idle_after`."""
    if table.status not in (Table.Status.OPEN, Table.Status.PLAYING):
        return None
    moments = [m for m in (falls_at(seat) for seat in seats) if m is not None]
    if table.moved_at is not None:
        moments.append(table.moved_at + idle_after(table))
    return min(moments, default=None)


def grace(table: Table) -> timedelta | None:
    """How long a seat may be away before the others may claim the game; None where no
    one claims (correspondence: its clock is the rule)."""
    if table.clock == Table.Clock.CORRESPONDENCE:
        return None
    return timedelta(seconds=settings.LIVE_ABSENCE_GRACE)


#: A person's seat as the others see it: at the table, away (for less than the grace
#: period), or gone (away for longer: it may be claimed).
HERE, AWAY, GONE = "here", "away", "gone"


def presence(table: Table, seat: TableSeat, at: datetime) -> str | None:
    """:data:`HERE`, :data:`AWAY` or :data:`GONE` for a person's seat (None for a bot's,
    a free one, or where no one claims)."""
    if seat.user_id is None or seat.bot:
        return None
    if seat.seen_at is None:
        return HERE
    quiet = at - seat.seen_at
    if quiet < HERE_FOR or (seat.sockets > 0 and quiet < SOCKET_SILENT_FOR):
        return HERE
    limit = grace(table)
    if limit is None:
        return None
    return GONE if at - seat.seen_at >= limit else AWAY


def figures(table: Table, seats: list[TableSeat], at: datetime) -> dict[str, Any]:
    """The clocks as everyone at the table sees them (a real table's clocks are public):
    the time control, and per person's seat what is left as of ``at`` and whether it is
    running. Drawn only from who is to act and when each seat moved, which every seat
    sees; nothing of what a move was."""
    clocks = None
    if timed(table):
        clocks = {}
        for seat in seats:
            if seat.clock_ms is None:
                continue
            left = seat.clock_ms
            if seat.turn_since is not None:
                left = max(0, left - _ms(at - seat.turn_since))
            clocks[seat.seat] = {"left_ms": left, "running": seat.turn_since is not None}
    limit = grace(table)
    return {
        "control": {
            "kind": table.clock,
            "minutes": table.clock_minutes,
            "increment": table.clock_increment,
            "days": table.clock_days,
            "on_time_out": table.on_time_out,
            "grace_s": int(limit.total_seconds()) if limit is not None else None,
        },
        "clocks": clocks,
    }


# --- after every write ------------------------------------------------------------------------

#: The longest countdown given to Celery: a task held longer than the broker's visibility
#: timeout is handed out again (Redis), so a later moment is left to the sweep
#: (``live.settle_due_tables``, every minute) and to the next read of the table.
SCHEDULE_WITHIN = timedelta(minutes=30)


def _seats(table: Table) -> list[TableSeat]:
    """The table's seats in their order: those read with it under its lock where they were
    (a move's: their clocks written here are what its answer shows), else read now."""
    if "seats" in getattr(table, "_prefetched_objects_cache", {}):
        return sorted(table.seats.all(), key=lambda seat: seat.order)
    return list(TableSeat.objects.filter(table=table).order_by("order"))


def keep(table: Table, to_act: list[str] | None, mover: str | None) -> None:
    """The clocks after a write to ``table`` (under its row lock): turned for who is to
    act now (``to_act``, None when the write did not move the game), stopped once the
    table is over; ``due_at`` worked out again, and a countdown to it sent once this
    commits. The caller saves the table."""
    at = now()
    seats = _seats(table)
    before = [(seat.clock_ms, seat.turn_since, seat.seen_at) for seat in seats]
    if table.status == Table.Status.PLAYING and to_act is not None:
        if all(seat.clock_ms is None for seat in seats):
            start(table, seats)
        turn(table, seats, mover, to_act, at)
    elif table.status not in (Table.Status.OPEN, Table.Status.PLAYING):
        stop(seats, at)
    for seat in seats:
        # The mover is here; written at most every few seconds, as a page's "here" is.
        if seat.seat == mover and (seat.seen_at is None or seat.seen_at < at - HERE_FOR / 3):
            seat.seen_at = at
    changed = [
        seat
        for seat, was in zip(seats, before, strict=True)
        if (seat.clock_ms, seat.turn_since, seat.seen_at) != was
    ]
    if changed:
        TableSeat.objects.bulk_update(changed, ["clock_ms", "turn_since", "seen_at"])
    table.due_at = due_at(table, seats)
    if table.due_at is not None:
        transaction.on_commit(partial(schedule, table.pk, table.due_at))


def schedule(table_id: int, due: datetime) -> None:
    """Ask Celery to settle the table at ``due`` (``live.settle_table``: it checks again
    under the table's lock, so a countdown made stale by a later move does nothing).

    Not where tasks run eagerly (``make run``, no Redis): an eager task runs at once,
    before anything is due, and holds the request that sent it; there a time-out is
    settled by the next read of the table, which the page makes when a clock it shows
    reaches zero, and by the sweep where beat runs."""
    task = registered("live.settle_table")
    if task.app.conf.task_always_eager:
        return
    delay = (due - now()).total_seconds()
    if delay > SCHEDULE_WITHIN.total_seconds():
        return
    try:
        # A moment after the clock falls, so the check finds it fallen.
        task.apply_async((table_id,), countdown=max(0.0, delay) + 0.05, ignore_result=True)
    except BROKER_ERRORS as exc:
        log.warning("table %s: its clock countdown was not queued (%s)", table_id, exc)
