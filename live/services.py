"""Writes of the live tables: open a table, take a seat (the game is dealt when the last
seat is taken), play a seat's move (and the bots' replies), abandon a table, and store
the finished game as a match through ``games.services.ingest_log``, the path every log
takes.

The game itself is played exactly as the recorder plays a draft against a bot: the
same engine session, steps told only what the seat knows, bot moves and seeds
(``recorder.services``). Every write runs under the table's row lock and adds numbered
events; once it commits, the table's sockets are told there is news (``live.push``).
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from clubs import services as club_services
from clubs.models import Club
from config.errors import Refusal
from config.events import publish
from config.sentences import engine_locale, say
from engine import FORMAT, MAX_ACTIONS, IllegalAction, Session, bots_of, end_result, get_game
from games import services as game_services
from games.models import Upload
from live import clocks, events, policy, push, sessions
from live.models import Table, TableEvent, TableSeat
from recorder import budgets
from recorder import services as steps
from recorder.errors import DraftError
from recorder.services import Position

log = logging.getLogger(__name__)

#: Rule ids of the live tables' own refusals (the engine's are cited as they are).
LIVE_SEAT = "LIVE-SEAT"  # a move for a seat that is not the mover's
LIVE_SEATS = "LIVE-SEATS"  # seats that are not this game's, or no seat for a person

#: The statuses of a table that is not over (one that can still be abandoned).
NOT_OVER = (Table.Status.OPEN, Table.Status.PLAYING)

#: How a seat is filled when a table is opened.
ME, FREE, BOT = "me", "free", "bot"


class TableError(Refusal):
    """A refused request about a table (``config.errors.Refusal``; its code says which kind)."""


class TableInvalid(TableError):
    """A malformed request."""


class TableIllegal(TableError):
    """The engine (or the table's seat rules) refused it (with the rule id)."""

    code = "illegal"


class StaleTable(TableError):
    """The table moved on since the event the client last saw."""

    code = "stale"


class ClosedTable(TableError):
    """Not now: the table is not waiting for players, or not being played."""

    code = "closed"


class TimeRanOut(TableError):
    """The mover's clock ran out before the move (the time-out is settled at once)."""

    code = "time_out"


class DueFirst(TableError):
    """Something fell due at the table before this move (the idle end, another seat's
    clock): the caller settles it first (``live.endings.play_settled``) and asks again."""

    code = "closed"


# --- the game of a table -------------------------------------------------------------------


def seat_entries(table: Table) -> list[dict[str, Any]]:
    """The table's seats as the log lists them: ``{"seat", "player"}``, a bot's with its
    ``"bot"`` level."""
    return [
        {"seat": s.seat, "player": s.player, **({"bot": s.bot} if s.bot else {})}
        for s in table.seats.all()
    ]


def position_of(table: Table) -> Position:
    """The table's game through the engine (a started table only): the session this
    process kept (``live.sessions``) stepped to the table's actions, else rebuilt from
    its log. The caller may give the session back with ``live.sessions.keep``."""
    entries = seat_entries(table)
    bots = {e["seat"]: e["bot"] for e in entries if "bot" in e}
    kept = sessions.take(table, [e["seat"] for e in entries])
    if kept is not None:
        return Position(kept, bots)
    game = get_game(table.game)
    if game is None:  # a game removed from the engine since the table was opened
        raise TableIllegal(
            gettext("the engine no longer knows the game %(game)s") % {"game": repr(table.game)},
            rule="LOG-GAME",
        )
    session = Session(
        game,
        table.options,
        [e["seat"] for e in entries],
        table.setup,
        table.seed,
        table.actions,
        table.opened,
    )
    return Position(session, bots)


def table_document(table: Table, position: Position) -> dict[str, Any]:
    """The table's game as a ``lantern-log/1`` document (its result once over): one ended
    by time or claim says so in its ``end`` (LIVE-1.1, LIVE-1.2), and the seats a bot
    took over are in ``meta.live.takeovers`` (LIVE-1.5)."""
    session, seats = position.session, seat_entries(table)
    live: dict[str, Any] = {"table": table.pk}
    if table.takeovers:
        live["takeovers"] = table.takeovers
    document = {
        "format": FORMAT,
        "game": table.game,
        "options": table.options,
        "seats": seats,
        "seed": table.seed,
        "setup": table.setup,
        "actions": list(table.actions),
        "result": session.result,
        "meta": {"played_at": table.created_at.isoformat(), "live": live},
    }
    if table.ending in (Table.Ending.TIME, Table.Ending.CLAIM):
        document["end"] = {"reason": table.ending, "seat": table.ended_seat}
        document["result"] = end_result(
            position.game, session.state, [s["seat"] for s in seats], document["end"]
        )
    return document


def _event(table: Table, kind: str, *, seat: str = "", ply: int | None = None) -> None:
    """Add the table's next numbered event (the caller saves ``last_event``); the events a
    write added are kept on its table as ``events_written`` (its news needs no read of
    them: ``live.selectors.Drawn.after_write``)."""
    table.last_event += 1
    table.moved_at = clocks.now()
    event = TableEvent.objects.create(
        table=table, number=table.last_event, kind=kind, seat=seat, ply=ply
    )
    table.__dict__.setdefault("events_written", []).append(event)


def _save(table: Table, position: Position | None = None, mover: str | None = None) -> None:
    """Save the table (under its row lock), its clocks after the write (``position``: where
    the game stands now; ``mover``: the person's seat that moved), and tell its sockets
    once this commits."""
    clocks.keep(table, position.to_act if position is not None else None, mover)
    table.save()
    push.after_commit(table)


# --- opening a table, taking a seat ---------------------------------------------------------


def open_table(
    club: Club,
    user: Any,
    *,
    game_id: Any,
    options: Any = None,
    seats: Any = None,
    clock: Any = None,
) -> Table:
    """Open a table for ``game_id`` in ``club``. ``seats``: per seat of the game, in order,
    ``{"seat", "take": "me" | "free" | "bot", "bot": level}``. The opener sits in the
    ``me`` seat (at most one); free seats wait for members; when none is free the game
    is dealt at once. ``clock``: its time control (``live.clocks.time_control``; none by
    default). The caller checks ``live.policy.can_open_table``."""
    game = get_game(game_id) if isinstance(game_id, str) else None
    if game is None:
        raise TableInvalid(gettext("unknown game %(game)s") % {"game": repr(game_id)}, field="game")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise TableInvalid(gettext("options must be an object"), field="options")
    try:
        options = game.normalize_options(options)
    except IllegalAction as exc:
        raise TableIllegal(exc.text(engine_locale()), rule=exc.rule) from None
    if not isinstance(seats, list) or not seats or not all(isinstance(s, dict) for s in seats):
        raise TableInvalid(gettext("seats must be a non-empty list of {seat, take}"), field="seats")
    try:
        expected = game.seat_ids(options, len(seats))
    except ValueError as exc:
        raise TableIllegal(str(exc), rule=LIVE_SEATS) from None
    if [s.get("seat") for s in seats] != expected:
        raise TableIllegal(
            gettext("%(game)s with %(count)s players has the seats %(seats)s, in that order")
            % {"game": say(game.title()), "count": len(seats), "seats": ", ".join(expected)},
            rule=LIVE_SEATS,
        )
    takes = [s.get("take") for s in seats]
    if any(take not in (ME, FREE, BOT) for take in takes):
        raise TableInvalid(gettext("each seat's take is one of me, free, bot"), field="seats")
    if takes.count(ME) > 1:
        raise TableIllegal(gettext("you can sit in one seat of a table"), rule=LIVE_SEATS)
    if all(take == BOT for take in takes):
        raise TableIllegal(gettext("at least one seat must be a person's"), rule=LIVE_SEATS)
    for entry in seats:
        if entry["take"] == BOT and entry.get("bot") not in bots_of(game):
            raise TableIllegal(
                gettext("%(game)s has no bot %(bot)s (it has %(bots)s)")
                % {
                    "game": say(game.title()),
                    "bot": repr(entry.get("bot")),
                    "bots": ", ".join(sorted(bots_of(game))),
                },
                rule=LIVE_SEATS,
            )
    try:
        control = clocks.time_control(clock)
    except clocks.TimeControlInvalid as exc:
        raise TableInvalid(str(exc), field=exc.field) from None
    with transaction.atomic():
        if BOT in takes:  # one budget of games against a bot per person (live.budgets)
            budgets.admit_bot_game(user)
        table = Table(club=club, created_by=user, game=game.id, options=options)
        control.apply(table)
        table.save()
        for order, entry in enumerate(seats):
            TableSeat.objects.create(
                table=table,
                seat=entry["seat"],
                order=order,
                bot=entry["bot"] if entry["take"] == BOT else "",
            )
        me = next((entry["seat"] for entry in seats if entry["take"] == ME), None)
        if me is not None:
            _seat(table, user, me)
        started = None if any(seat.is_free for seat in table.seats.all()) else _start(table)
        _save(table, started)
    return table


def _seat(table: Table, user: Any, seat_id: str, handle: str | None = None) -> None:
    """Put ``user`` in ``seat_id`` as the club's handle they play as (``handle``: a
    guest's, ``live.guests``)."""
    if handle is None:
        handle = club_services.handle_for_member(user, table.club, user.pk).handle
    TableSeat.objects.filter(table=table, seat=seat_id).update(
        user=user, player=handle, seen_at=clocks.now()
    )
    _event(table, TableEvent.Kind.SEATED, seat=seat_id)


def take_seat(table_id: int, user: Any, seat: str | None = None) -> Table:
    """Sit ``user`` in ``seat`` (default: the first free one) of a table waiting for
    players; the last seat taken deals the game. The caller checks
    ``live.policy.can_take_seat``."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        if table.status != Table.Status.OPEN:
            raise ClosedTable(gettext("this table is not waiting for players any more"))
        if policy.seat_of(user, table) is not None:
            raise TableIllegal(gettext("you already have a seat at this table"), rule=LIVE_SEATS)
        free = [s for s in table.seats.all() if s.is_free]
        chosen = next((s for s in free if seat is None or s.seat == seat), None)
        if chosen is None:
            raise TableIllegal(
                gettext("that seat is not free") if seat else gettext("no seat is free"),
                rule=LIVE_SEATS,
            )
        _seat(table, user, chosen.seat)
        _save(table, _start(table) if len(free) == 1 else None)
    return table


def _start(table: Table) -> Position:
    """Deal the game (a seed of the server's), let the bots that act first move, and mark
    the table playing; where the game then stands."""
    game = get_game(table.game)
    assert game is not None
    try:
        entries = steps.read_seats(
            game,
            table.options,
            [
                {
                    "seat": e["seat"],
                    **({"bot": e["bot"]} if "bot" in e else {"player": e["player"]}),
                }
                for e in seat_entries(table)
            ],
        )
        steps.check_players(table.club, None, entries)
        seed = secrets.randbelow(steps.SEED_LIMIT)
        session, setup = steps.start_session(
            game, table.options, [e["seat"] for e in entries], {}, seed
        )
    except DraftError as exc:
        raise TableIllegal(exc.message, rule=exc.rule) from None
    for entry in entries:  # the bots' club handles (bot-greedy, bot-greedy-2…)
        if "bot" in entry:
            TableSeat.objects.filter(table=table, seat=entry["seat"]).update(player=entry["player"])
    table.seed, table.setup, table.status = seed, setup, Table.Status.PLAYING
    _event(table, TableEvent.Kind.STARTED)
    position = Position(session, {e["seat"]: e["bot"] for e in entries if "bot" in e})
    _bots_and_end(table, position)
    return position


def abandon_table(table_id: int, user: Any) -> Table:
    """Close a table that is not over: no one plays it any more, it leaves the club's
    list and frees its opener's place among the open games against a bot
    (``live.budgets``); its moves stay, no match is stored. The caller checks
    ``live.policy.can_abandon``."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        if table.status not in NOT_OVER:
            raise ClosedTable(gettext("this table is already over"))
        table.status = Table.Status.ABANDONED
        _event(table, TableEvent.Kind.ABANDONED)
        _save(table)
    return table


# --- playing --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Move:
    """A seat's move as asked: by ``user``, after the table's event ``seen`` (the last the
    client had), and the action."""

    user: Any
    seen: Any
    action: Any


def play(table_id: int, move: Move) -> Table:
    """Play ``move.action`` for the mover's seat, decided with that seat's eyes (told only
    what it knows: engine.Session), then the bots' replies; store the game when it ends.
    A pick (Cloak & Dagger's ``open``) is kept in ``opened``, never in the log. Refused,
    nothing changes: a move made against an old event (StaleTable: the client catches up
    first), for another seat, or one the engine refuses (TableIllegal with the rule)."""
    if type(move.seen) is not int:
        raise TableInvalid(
            gettext("seen (an integer: the last event number you have) is required"), field="seen"
        )
    with transaction.atomic():
        table = _locked_with_seats(table_id)
        if table.status != Table.Status.PLAYING:
            raise ClosedTable(gettext("this table is not being played"))
        if move.seen != table.last_event:
            raise StaleTable(
                gettext(
                    "the table moved on since event %(seen)s (it is at %(now)s): "
                    "catch up and choose again"
                )
                % {"seen": move.seen, "now": table.last_event},
                last_event=table.last_event,
            )
        at = clocks.now()
        held = policy.seat_of(move.user, table)
        if held is not None and clocks.out_of_time(held, at):
            raise TimeRanOut(gettext("your time ran out before this move"))
        if table.due_at is not None and table.due_at <= at:
            raise DueFirst(gettext("this table is not being played"))
        action = move.action
        seat = action.get("seat") if isinstance(action, dict) else None
        if held is None or seat != held.seat:
            raise TableIllegal(
                gettext("you play %(seat)s at this table, and only that seat")
                % {"seat": held.seat if held else "—"},
                rule=LIVE_SEAT,
                index=len(table.actions),
            )
        position = position_of(table)
        session = position.session
        before = position.game.view(session.state, None)
        try:
            recorded = steps.step_as(session, action, held.seat)
        except DraftError as exc:
            raise TableIllegal(exc.message, rule=exc.rule, index=exc.index) from None
        if recorded is None:  # a pick: the seat now sees inside, and is committed to it
            table.opened = session.opened
            _event(table, TableEvent.Kind.OPENED, seat=held.seat)
            _save(table)
            return table
        if table.takeback_by:  # a move instead of an answer declines it (live.takebacks)
            decline_takeback(table, held.seat)
        table.actions = [*table.actions, recorded]
        table.moves = [*table.moves, steps.move_entry(position.game, before, recorded, bot=False)]
        table.opened = session.opened
        _event(table, TableEvent.Kind.MOVE, seat=held.seat, ply=len(table.actions))
        _bots_and_end(table, position)
        _save(table, position, mover=held.seat)
        # The session now is the table's as committed: the next read steps on from it.
        transaction.on_commit(partial(sessions.keep, table.pk, session))
    return table


def _locked_with_seats(table_id: int) -> Table:
    """The table under its row lock (its club read with it, not locked), with its seats:
    what a move reads, writes (the clocks) and answers with (the opener, read only at a
    table with bots or at the end, and the seats' people are not needed)."""
    return (
        Table.objects.select_for_update(of=("self",))
        .select_related("club")
        .prefetch_related("seats")
        .get(pk=table_id)
    )


def decline_takeback(table: Table, seat: str) -> None:
    """End the take-back asked for (``live.takebacks``), declined by ``seat``: an answer,
    the asker withdrawing it, or a move made instead. The caller holds the row lock."""
    table.takeback_by, table.takeback_agreed = "", []
    _event(table, TableEvent.Kind.TAKEBACK_DECLINED, seat=seat)


def _bots_and_end(table: Table, position: Position) -> None:
    """The bots' moves (an event each), then, if the game is over, the match. The bots
    play within the share of the person who opened the table (recorder.budgets): past
    it, OverBudget, and the write that asked is undone."""
    if position.bots:
        budgets.admit_bot_moves(table.created_by)
    actions, moves = list(table.actions), list(table.moves)
    done = len(actions)
    try:
        steps.play_bots(table.seed, position, actions, moves)  # stops at a full log
    except DraftError as exc:
        raise TableIllegal(exc.message, rule=exc.rule) from None
    for ply in range(done + 1, len(actions) + 1):
        _event(table, TableEvent.Kind.MOVE, seat=actions[ply - 1]["seat"], ply=ply)
    table.actions, table.moves, table.opened = actions, moves, position.session.opened
    if position.is_over:
        _finish(table, position)
    elif len(actions) >= MAX_ACTIONS:
        # A game the rules let go on without end (Mister X, MX-4.3) stops where a log
        # must: stored as an unfinished match, as the recorder stores one (LOG-LENGTH).
        table.ending = Table.Ending.FULL
        _finish(table, position)


def _finish(table: Table, position: Position) -> None:
    """Store the ended game as a match of the club, as an upload would be (rated on the
    ladder; analysed where the club analyses automatically)."""
    table.status = Table.Status.FINISHED
    _event(table, TableEvent.Kind.FINISHED)
    try:
        table.match = game_services.ingest_log(
            table.club,
            table_document(table, position),
            table.created_by,
            source=Upload.Source.LIVE,
            name=f"table {table.pk}",
        )
    except game_services.LogRejected as exc:
        # The engine accepted every move, so this is a defect: the table stays finished
        # (its moves kept), the refusal is in the club's upload attempts.
        log.error("live table %s: its finished log was refused: %s", table.pk, exc)
    else:
        publish(
            events.table_stored, table_id=table.pk, match_id=table.match.pk, club_id=table.club_id
        )
