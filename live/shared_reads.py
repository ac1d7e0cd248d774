"""Reads of a table, settled first, and shared: a process's sockets that heard the same
push read the table once and draw its news once per pair of eyes.

A push (``live.push``) carries an id of its own. The first socket of this process to
hear it reads the table (settling first what fell due: a clock run out, an idle table);
every other socket that heard the same push takes that read, which began after the
first of them heard it, so after the write the push follows had committed: nothing
newer than the push is missed. From that read each socket's person is checked
(``live.policy.can_watch``: who may watch, whose eyes) and the news is drawn for their
eyes, once per (eyes, since, language) and shared by the sockets asking for the same:
a seat's several tabs, the public view of its watchers. A text is never taken for eyes
other than those it was drawn with (``live.selectors.news_text``).

In the process that made the write (a move sent on a socket: ``live.consumers``), the
push's read is the table as that write left it, kept when it committed
(``live.push.after_commit``): that is the table the push follows, as committed, so the
sockets read nothing. A copy is kept, so what its writer does with the table afterwards
changes nothing here. Only a process that serves sockets keeps them (:func:`serve`).

A socket's first message, and what a page asks for itself, are read afresh. Reads are
kept for the last pushes only (``KEPT``): one the process has forgotten is read again,
which costs time and nothing else.
"""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict
from dataclasses import dataclass, field

from clubs.policy import AnyUser
from live import clocks, endings, push, selectors
from live.models import Table

#: How many pushes' reads a process keeps (a read is taken within milliseconds of its
#: push by the sockets that heard it; a few hundred tables moving at once fit).
KEPT = 512


@dataclass
class Read:
    """One read of a table, and what was drawn from it."""

    table: Table | None
    drawn: selectors.Drawn = field(default_factory=selectors.Drawn)


_reads: OrderedDict[tuple[int, str], Read] = OrderedDict()
_lock = threading.Lock()
_serving = False


def serve() -> None:
    """This process serves sockets: keep each write's table for the push that follows it."""
    global _serving
    _serving = True


def _keep(key: tuple[int, str], read: Read) -> Read:
    """``read`` kept under ``key``, or the one kept there first."""
    with _lock:
        kept = _reads.setdefault(key, read)
        _reads.move_to_end(key)
        while len(_reads) > KEPT:
            _reads.popitem(last=False)
    return kept


def _written(table: Table, push_id: str) -> None:
    if not _serving:
        return
    kept = copy.copy(table)  # its own fields and caches: the writer may go on with its own
    prefetched = getattr(table, "_prefetched_objects_cache", None)
    if prefetched is not None:
        kept._prefetched_objects_cache = dict(prefetched)
    _keep((table.pk, push_id), Read(kept, selectors.Drawn.after_write(table)))


push.written.append(_written)


def settled_table(table_id: int) -> Table | None:
    """The table as it stands now (``live.selectors.table_read``), what fell due settled
    first (``live.endings``: a clock run out, an idle table): every read of a table, by a
    socket or the API, comes through here.

    The row is read first, alone: when something fell due it is read again after the
    settling (which writes the seats by updates, may store the match, and may find that
    another process settled it first), so its seats are read only for the table returned."""
    table = selectors.table_row(table_id)
    if table is None:
        return None
    if table.due_at is not None and table.due_at <= clocks.now():
        endings.settle(table_id)
        return selectors.table_read(table_id)
    return selectors.with_seats(table)


def read_for_push(table_id: int, push: str | None) -> Read:
    """The read of the table shared by the sockets that heard ``push`` (None: a read of
    the caller's own)."""
    if push is None:
        return Read(settled_table(table_id))
    key = (table_id, push)
    with _lock:
        kept = _reads.get(key)
        if kept is not None:
            _reads.move_to_end(key)
            return kept
    return _keep(key, Read(settled_table(table_id)))


def news_text(
    table_id: int,
    user: AnyUser,
    since: int,
    language: str | None,
    *,
    push: str | None = None,
    always: bool = False,
    eyes_before: str | None = None,
) -> tuple[bool, str | None, int, str | None]:
    """``live.selectors.news_text`` for a socket, from the read of the push it heard."""
    shared = read_for_push(table_id, push)
    return selectors.news_text(
        shared.table,
        user,
        since,
        language,
        always=always,
        eyes_before=eyes_before,
        drawn=shared.drawn if push is not None else None,
    )
