"""The live tables' share of the bots, counted in the recorder's per-person budgets
(``recorder.budgets``, docs/fair-share.md): a table with a bot seat that is waiting for
players or being played is an open game against a bot of the person who opened it, and
the moves its bots make are made for that person."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Count, Exists, Min, OuterRef

from live.models import Table, TableEvent, TableSeat

_OPEN = (Table.Status.OPEN, Table.Status.PLAYING)


def open_bot_tables(user: Any) -> int:
    """The tables with a bot seat ``user`` opened that are not over."""
    return (
        Table.objects.filter(created_by=user, status__in=_OPEN)
        .filter(Exists(TableSeat.objects.filter(table=OuterRef("pk")).exclude(bot="")))
        .count()
    )


def bot_moves_since(user: Any, since: datetime) -> tuple[int, datetime | None]:
    """The moves bots made since ``since`` at the tables ``user`` opened, and the
    earliest one's time."""
    bot_seat = TableSeat.objects.filter(table=OuterRef("table"), seat=OuterRef("seat")).exclude(
        bot=""
    )
    moves = TableEvent.objects.filter(
        table__created_by=user, kind=TableEvent.Kind.MOVE, created_at__gt=since
    ).filter(Exists(bot_seat))
    made = moves.aggregate(count=Count("pk"), first=Min("created_at"))
    return made["count"], made["first"]
