"""The endings of a live table off the board (docs/rules/log-format.md, LIVE-1) and the
presence of its seats: a clock that runs out (the seat's side loses, or a bot takes the
seat over where the table chose that), a seat gone longer than the grace period (the
other side may claim the game), a table nobody moves at (it ends without a result).

What is due is settled under the table's row lock whenever the table is read or
written (:func:`settle_due`, cheap when nothing is) and by the countdown task
``live.settle_table`` (``live.clocks.schedule``); settling twice settles once.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import F, Q
from django.db.models.functions import Greatest
from django.utils.translation import gettext, ngettext

from clubs.models import Player
from config.errors import OverBudget
from engine import bots_of, get_game, winning_side
from live import clocks, policy
from live.models import Table, TableEvent, TableSeat
from live.services import (
    NOT_OVER,
    ClosedTable,
    DueFirst,
    Move,
    TableError,
    TimeRanOut,
    _bots_and_end,
    _event,
    _finish,
    _save,
    position_of,
)
from live.services import play as _play
from recorder.services import Position

log = logging.getLogger(__name__)


class NoClaim(TableError):
    """A claim refused: the code says why (``too_early``: the seat left less than the grace
    period ago, ``details["wait_s"]`` says how long is left; ``nobody_away``: every seat
    of the other side is here; ``no_claims``: a correspondence table, where the clock is
    the rule)."""

    def __init__(self, message: str, *, code: str = "too_early", **details: Any) -> None:
        super().__init__(message, **details)
        self.code = code


def _locked(table_id: int) -> Table | None:
    return Table.objects.select_for_update().filter(pk=table_id).first()


def _seats(table: Table) -> list[TableSeat]:
    return list(TableSeat.objects.filter(table=table).order_by("order"))


# --- settling what is due ---------------------------------------------------------------------


def settle_due(table_id: int) -> None:
    """Settle the table if something fell due (one indexed read when nothing has)."""
    if Table.objects.filter(pk=table_id, due_at__lte=clocks.now()).exists():
        settle(table_id)


def settle(table_id: int) -> None:
    """Under the table's lock: a clock that ran out ends the game for its seat (or hands
    the seat to a bot), a table nobody moved at for the idle time ends as idle. Nothing
    due (a countdown made stale by a later move, a table already over): nothing changes."""
    with transaction.atomic():
        table = _locked(table_id)
        if table is not None and table.status in NOT_OVER:
            _settle_locked(table, clocks.now())


def play_settled(table_id: int, move: Move) -> Table:
    """A seat's move (``live.services.play``) with what fell due settled first: a clock
    that ran out before the move is settled at once and the move refused (TimeRanOut); a
    table whose idle end or another seat's time-out fell due is settled, then the move
    is played (or refused: the table is over)."""
    try:
        return _play(table_id, move)
    except TimeRanOut:
        settle(table_id)
        raise
    except DueFirst:
        settle(table_id)
    return _play(table_id, move)


def _settle_locked(table: Table, at: datetime) -> None:
    seats = _seats(table)
    fallen = sorted(
        ((clocks.falls_at(s), s.order, s) for s in seats if clocks.out_of_time(s, at)),
        key=lambda item: (item[0], item[1]),
    )
    if fallen and table.status == Table.Status.PLAYING:
        _time_out(table, fallen[0][2])
    elif table.moved_at is not None and table.moved_at + clocks.idle_after(table) <= at:
        table.status, table.ending = Table.Status.ABANDONED, Table.Ending.IDLE
        _event(table, TableEvent.Kind.ABANDONED)
        _save(table)
    elif table.due_at is not None and table.due_at <= at:
        _save(table)  # due_at worked out again: nothing was due after all


def _two_sides(position: Position, seat: str) -> bool:
    return winning_side(position.game, position.session.seats, seat) is not None


def _time_out(table: Table, seat: TableSeat) -> None:
    """LIVE-1.1: the seat's clock shows zero; its side loses, or a bot takes it over
    where the table chose that or the game has more than two sides (LIVE-1.4)."""
    TableSeat.objects.filter(pk=seat.pk).update(clock_ms=0, turn_since=None)
    position = position_of(table)
    if table.on_time_out == Table.OnTimeOut.LOSE and _two_sides(position, seat.seat):
        _end(table, position, Table.Ending.TIME, seat.seat)
        return
    try:
        with transaction.atomic():
            _take_over(table, [seat], Table.Ending.TIME)
    except OverBudget:
        # The opener's share of bot moves is spent, and a time-out settled on a read must
        # not fail the read: the seat's side loses instead where it can; in a free-for-all
        # its clock stays at zero and the table goes on without it until its idle end.
        table.refresh_from_db()
        if _two_sides(position, seat.seat):
            _end(table, position, Table.Ending.TIME, seat.seat)
        else:
            log.warning("table %s: no bot could take over %s (over budget)", table.pk, seat.seat)
            _save(table)


def _end(table: Table, position: Position, reason: str, seat: str) -> None:
    table.ending, table.ended_seat = reason, seat
    _finish(table, position)
    _save(table, position)


def _take_over(table: Table, seats: list[TableSeat], reason: str) -> None:
    """LIVE-1.5: a bot plays each of ``seats`` from now on (an event each, as a seat
    taken), and moves at once where it is to act."""
    game = position_of(table).game
    levels = bots_of(game)
    level = "greedy" if "greedy" in levels else sorted(levels)[0]
    used = set(TableSeat.objects.filter(table=table).values_list("player", flat=True))
    for seat in seats:
        handle, n = f"bot-{level}", 1
        while handle in used:
            n += 1
            handle = f"bot-{level}-{n}"
        used.add(handle)
        # the club's player of that bot, as a table opened with it has (recorder.services)
        Player.objects.get_or_create(club=table.club, handle=handle, defaults={"bot": level})
        table.takeovers = [
            *table.takeovers,
            {"seat": seat.seat, "player": seat.player, "reason": reason, "at": len(table.actions)},
        ]
        TableSeat.objects.filter(pk=seat.pk).update(
            user=None, bot=level, player=handle, clock_ms=None, turn_since=None, sockets=0
        )
        _event(table, TableEvent.Kind.SEATED, seat=seat.seat)
    position = position_of(table)
    _bots_and_end(table, position)
    _save(table, position)


# --- claims -----------------------------------------------------------------------------------


def claim(table_id: int, user: Any) -> Table:
    """LIVE-1.2: ``user``'s seat claims the game from the seats of the other side gone
    longer than the grace period: a win for the claimer's side (in a free-for-all of more
    than two, a bot takes each gone seat over instead, LIVE-1.4). Refused (NoClaim, 409)
    before the grace period is over, when nobody is away, or at a correspondence table;
    a table already over (a second claim) is ClosedTable. The caller checks that
    ``user`` holds a seat."""
    with transaction.atomic():
        table = _locked(table_id)
        if table is None or table.status not in NOT_OVER:
            raise ClosedTable(gettext("this table is already over"))
        at = clocks.now()
        _settle_locked(table, at)
        if table.status != Table.Status.PLAYING:
            raise ClosedTable(gettext("this table is not being played"))
        held = policy.seat_of(user, table)
        grace = clocks.grace(table)
        if grace is None:
            raise NoClaim(
                gettext("a correspondence table has no claims: its clock is the rule"),
                code="no_claims",
            )
        position = position_of(table)
        side = position.game.side_of(held.seat) if held else None
        others = [
            s
            for s in _seats(table)
            if s.user_id is not None and position.game.side_of(s.seat) != side
        ]
        gone = [s for s in others if clocks.presence(table, s, at) == clocks.GONE]
        if not gone:
            away = [s for s in others if clocks.presence(table, s, at) == clocks.AWAY]
            if not away:
                raise NoClaim(
                    gettext("every player of the other side is at the table"),
                    code="nobody_away",
                )
            wait = min(int((s.seen_at + grace - at).total_seconds()) + 1 for s in away)
            raise NoClaim(
                ngettext(
                    "a seat may be claimed once it has been away %(grace)s second",
                    "a seat may be claimed once it has been away %(grace)s seconds",
                    int(grace.total_seconds()),
                )
                % {"grace": int(grace.total_seconds())},
                wait_s=wait,
            )
        if _two_sides(position, gone[0].seat):
            _end(table, position, Table.Ending.CLAIM, gone[0].seat)
        else:
            _take_over(table, gone, Table.Ending.CLAIM)
    return table


def claimable(table: Table, eyes: str, at: datetime) -> list[str]:
    """The seats ``eyes`` (a seat) may claim the game from now: people of another side
    gone longer than the grace period (empty for a watcher, or at a table not played)."""
    game = get_game(table.game)
    if game is None or table.status != Table.Status.PLAYING or clocks.grace(table) is None:
        return []
    seats = list(table.seats.all())
    if not any(s.seat == eyes and s.user_id is not None for s in seats):
        return []
    return [
        s.seat
        for s in seats
        if game.side_of(s.seat) != game.side_of(eyes)
        and clocks.presence(table, s, at) == clocks.GONE
    ]


# --- presence ---------------------------------------------------------------------------------


def arrive(table_id: int, user: Any) -> None:
    """A socket of ``user``'s seat opened (another tab counts too)."""
    _seat_of(table_id, user).update(sockets=F("sockets") + 1, seen_at=clocks.now())


def leave(table_id: int, user: Any) -> None:
    """A socket of ``user``'s seat closed; the seat is away once none is open."""
    _seat_of(table_id, user).update(sockets=Greatest(F("sockets") - 1, 0), seen_at=clocks.now())


def seen(table_id: int, user: Any) -> None:
    """``user`` asked for the table's news (a page without a socket, a client with a
    token) or its page said it is still open: here. Written at most every few seconds."""
    at = clocks.now()
    _seat_of(table_id, user).filter(
        Q(seen_at__isnull=True) | Q(seen_at__lt=at - clocks.HERE_FOR / 3)
    ).update(seen_at=at)


def _seat_of(table_id: int, user: Any) -> Any:
    if not getattr(user, "is_authenticated", False):
        return TableSeat.objects.none()
    return TableSeat.objects.filter(table_id=table_id, user=user)
