"""The engine sessions of the tables a process served last, kept between moves so that a
move or a news read steps only the actions added since, instead of replaying the log.

Nothing depends on it for being right: a session is taken only when the table as read
from the database (its game, options, seats, seed, setup and actions) continues it (its
actions are the first of the table's), and is then stepped through the rest; anything
else (another process made a take-back, a restart, a table not seen yet) is a miss,
and the caller replays the log as before. A session taken is the caller's alone
(removed from here), so no two threads step one session; a caller gives it back
(:func:`keep`) once the session matches what the database holds: a reader after
drawing, a move once its write committed. Bounded: the least recently kept go first.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from engine import IllegalAction, Session
from live.models import Table

#: How many tables' sessions a process keeps (a Mister X session is a few tens of KiB).
KEPT = 512

_kept: OrderedDict[int, Session] = OrderedDict()
_lock = threading.Lock()


def take(table: Table, seats: list[str]) -> Session | None:
    """The kept session of ``table`` (played by ``seats``) stepped to the actions it holds
    as read (its ``opened`` picks set as read), or None (a miss: the caller replays)."""
    with _lock:
        session = _kept.pop(table.pk, None)
    if session is None or (session.game.id, session.options, session.seats) != (
        table.game,
        table.options,
        seats,
    ):
        return None
    if session.seed != table.seed or session.setup != table.setup:
        return None
    done, actions = len(session.actions), table.actions
    if done > len(actions) or session.actions != actions[:done]:
        return None
    try:
        for _ in session.advance(actions[done:]):
            pass
    except IllegalAction:
        return None
    session.opened = dict(table.opened)
    return session


def keep(table_id: int, session: Session) -> None:
    """Keep ``session`` as table ``table_id``'s (the caller no longer uses it)."""
    with _lock:
        _kept[table_id] = session
        _kept.move_to_end(table_id)
        while len(_kept) > KEPT:
            _kept.popitem(last=False)


def forget() -> None:
    """Keep nothing (tests that look at a process without its sessions)."""
    with _lock:
        _kept.clear()
