"""Take-backs the opponents agree to: a seat asks to take back its last move, every other
seat agrees (or one declines), and the move goes back through the engine's own undo
(``engine.Session.undo``, as the recorder's undo does).

What may be taken back, and why:

- Only the table's last move, and only by the seat that made it: a move another seat has
  answered since is part of that seat's game too.
- Never at a table with a bot (``live.policy.can_ask_takeback``): a bot's reply, once
  made, is seen, as the recorder's undo refuses in a game against a bot (REC-UNDO); and
  a bot cannot be asked.
- Never a move in which chance drew something hidden (``Game.chance_fields``: Cryptid's
  cards drawn, Mister X's tickets, Cloak & Dagger's card placed): the server deals with
  its own seed, so the same move made again would draw the same thing, which the seat
  has now seen.

Nothing of the move taken back is sent again: each socket gets a ``taken-back`` event
(the seat, the ply) and the position drawn for its own eyes, like any news
(``live.selectors.news``); a catching-up client is never sent the move itself.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from live import policy
from live.models import Table, TableEvent
from live.services import (
    ClosedTable,
    TableIllegal,
    _event,
    _save,
    decline_takeback,
    position_of,
)
from recorder.services import Position

#: Rule id of the take-back refusals.
LIVE_TAKEBACK = "LIVE-TAKEBACK"


def _locked_playing(table_id: int) -> Table:
    table = Table.objects.select_for_update().get(pk=table_id)
    if table.status != Table.Status.PLAYING:
        raise ClosedTable(gettext("this table is not being played"))
    return table


def _held_seat(user: Any, table: Table) -> str:
    held = policy.seat_of(user, table)
    if held is None:
        raise TableIllegal(gettext("you hold no seat at this table"), rule=LIVE_TAKEBACK)
    return held.seat


def ask(table_id: int, user: Any) -> Table:
    """``user``'s seat asks to take back its last move. The caller checks
    ``live.policy.can_ask_takeback``; refused (TableIllegal, LIVE-TAKEBACK): a take-back
    asked already, no move of this seat's last, or a move in which chance drew
    something hidden."""
    with transaction.atomic():
        table = _locked_playing(table_id)
        seat = _held_seat(user, table)
        if table.takeback_by:
            raise TableIllegal(
                gettext("a take-back is asked for already: wait for the answer"),
                rule=LIVE_TAKEBACK,
            )
        if not table.actions or table.actions[-1].get("seat") != seat:
            raise TableIllegal(
                gettext("only your own last move can be taken back, before anyone moves after it"),
                rule=LIVE_TAKEBACK,
            )
        position = position_of(table)
        last = position.session.undo()
        if position.game.chance_fields(position.session.state, last):
            raise TableIllegal(
                gettext(
                    "this move drew something hidden by chance, which you have seen: "
                    "it cannot be taken back"
                ),
                rule=LIVE_TAKEBACK,
            )
        table.takeback_by, table.takeback_agreed = seat, []
        _event(table, TableEvent.Kind.TAKEBACK_ASKED, seat=seat)
        _save(table)
    return table


def answer(table_id: int, user: Any, *, agree: bool) -> Table:
    """``user``'s seat answers the take-back asked for: it agrees (the last of the other
    seats to agree takes the move back) or declines (the request ends). The seat that
    asked may withdraw it (``agree=False``). The caller checks
    ``live.policy.can_ask_takeback``."""
    with transaction.atomic():
        table = _locked_playing(table_id)
        seat = _held_seat(user, table)
        if not table.takeback_by:
            raise TableIllegal(gettext("no take-back is asked for"), rule=LIVE_TAKEBACK)
        if not agree:
            decline_takeback(table, seat)
            _save(table)
            return table
        if seat == table.takeback_by:
            raise TableIllegal(
                gettext("you asked for this take-back: the other seats answer it"),
                rule=LIVE_TAKEBACK,
            )
        agreed = sorted({*table.takeback_agreed, seat})
        others = {s.seat for s in table.seats.all()} - {table.takeback_by}
        if set(agreed) >= others:
            # The clocks turn for who is to act again (the asker), charging no one.
            _save(table, _take_back(table))
            return table
        table.takeback_agreed = agreed
        # The request, one more seat agreeing: an event, so every socket hears it.
        _event(table, TableEvent.Kind.TAKEBACK_ASKED, seat=table.takeback_by)
        _save(table)
    return table


def _take_back(table: Table) -> Position:
    """Take the last move back (under the row lock); where the game stands after it."""
    position = position_of(table)
    position.session.undo()
    keep = len(position.session.actions)
    seat = table.takeback_by
    table.actions = table.actions[:keep]
    table.moves = table.moves[:keep]
    table.opened = position.session.opened
    table.takeback_by, table.takeback_agreed = "", []
    _event(table, TableEvent.Kind.TAKEN_BACK, seat=seat, ply=keep + 1)
    return position
