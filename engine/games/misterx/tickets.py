"""Mister X: tickets as a log names them, read against the board, and whether a rack holds
those it must pay."""

from __future__ import annotations

from typing import Any

from engine.core.errors import IllegalAction
from engine.core.fields import get_list
from engine.core.messages import Text, msg
from engine.games.misterx.board import Board
from engine.games.misterx.state import ICON_OF, MisterXState, Rack

#: str itself (a subclass is checked the slow way)
STR_TYPE = str


# --- reading fields ------------------------------------------------------------------
def read_ticket(board: Board, value: Any, rule: str, what: Text) -> str:
    if value.__class__ is not STR_TYPE or value not in board.tickets:
        if isinstance(value, str) and value in board.tickets:  # a str subclass: fine
            return value
        raise IllegalAction(
            rule,
            msg("mx.refuse.ticket_board_tickets_written_transport", what=what, value=repr(value)),
        )
    return value


def read_tickets(board: Board, obj: dict[str, Any], name: str, rule: str, what: Text) -> list[str]:
    return [read_ticket(board, t, rule, what) for t in get_list(obj, name, rule, what)]


def need_tickets(rack: Rack, want: Rack, rule: str, who: Text) -> None:
    for t, n in want.items():
        if rack.get(t, 0) < n:
            missing = sorted(t for t, n in want.items() if rack.get(t, 0) < n)
            raise IllegalAction(
                rule, msg("mx.refuse.does_hold_as_many_as", who=who, missing=", ".join(missing))
            )


def read_payment(state: MisterXState, action: dict[str, Any], icon: str, rule: str) -> list[str]:
    """The three tickets an action pays for a special move of ``icon`` (MX-6)."""
    pay = read_tickets(state.board, action, "pay", rule, msg(f"mx.what.pay.{icon}"))
    if len(pay) != 3:
        raise IllegalAction(
            rule,
            msg("mx.refuse.costs_exactly_tickets", type=msg(f"mx.kind.{icon}"), n_pay=len(pay)),
        )
    for t in pay:
        if ICON_OF[t] != icon:
            raise IllegalAction(
                rule,
                msg("mx.refuse.paid_with_tickets", type=msg(f"mx.kind.{icon}"), icon=icon, t=t),
            )
    return pay
