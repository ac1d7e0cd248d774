"""The hint a table's sockets get when it changes: "there is news", nothing more. Each
socket then reads what it missed from the database, drawn for its own seat
(``live.consumers``), so a push lost or doubled loses or doubles nothing.

Each push carries an id of its own: the sockets of one process that heard the same push
share one read of the table (``live.shared_reads``), begun after the first of them heard
it, so after the write the push follows had committed; in the process that made the
write, the table as that write left it (:func:`after_commit`'s ``written`` hooks).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import uuid
from collections.abc import Callable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.db import transaction

log = logging.getLogger(__name__)

#: How long a push may wait on the channel layer before it is given up (logged).
WAIT_S = 10.0


def group(table_id: int) -> str:
    """The channel-layer group of a table's sockets."""
    return f"table-{table_id}"


def message(push: str | None = None, last: int | None = None) -> dict[str, Any]:
    """A push: the consumers' handler (``table_news``), the push's own id and the table's
    last event number as the write left it (a socket that sent it already reads nothing)."""
    return {"type": "table.news", "push": push or uuid.uuid4().hex, "n": last}


class _Loop:
    """One event loop of the process's own, in a thread of its own, that every push from
    outside an event loop goes out on (gunicorn's request threads, Celery's workers). The
    Redis layer keeps its connections per event loop: one loop kept for the process's
    life keeps them open, where a loop per push (``async_to_sync`` outside an ASGI
    server) opened a connection per push, several milliseconds each."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lock = threading.Lock()

    def get(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None or self._loop.is_closed():
                loop = asyncio.new_event_loop()
                threading.Thread(target=loop.run_forever, name="live-push", daemon=True).start()
                self._loop = loop
            return self._loop


_loop = _Loop()


def tell(table_id: int, push: str | None = None, last: int | None = None) -> None:
    """Tell every socket of the table (in every process, through the channel layer).

    The write it follows has committed: a push that fails (the channel layer down) is
    logged, not raised, and the sockets catch up from the database when they next read.
    The in-memory layer (one process, ``make run``) lives on the ASGI server's own loop:
    there the push goes out through ``async_to_sync``, which finds that loop."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        if isinstance(layer, InMemoryChannelLayer):
            _tell_in_memory(layer, table_id, message(push, last))
        else:
            asyncio.run_coroutine_threadsafe(
                layer.group_send(group(table_id), message(push, last)), _loop.get()
            ).result(WAIT_S)
    except Exception:  # noqa: BLE001 - a hint lost; the database holds the truth
        log.warning("table %s: the push to its sockets failed", table_id, exc_info=True)


def _tell_in_memory(layer: InMemoryChannelLayer, table_id: int, told: dict[str, Any]) -> None:
    def send() -> None:
        async_to_sync(layer.group_send)(group(table_id), told)

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        send()
        return
    # A thread that runs an event loop of its own cannot wait on the layer there.
    failed: list[BaseException] = []

    def send_caught() -> None:
        try:
            send()
        except Exception as exc:  # noqa: BLE001 - raised again in the caller's thread
            failed.append(exc)

    sender = threading.Thread(target=send_caught, name=f"push-table-{table_id}")
    sender.start()
    sender.join()
    if failed:
        raise failed[0]


#: Called with (the table as a write left it, its push's id) once the write commits,
#: before the push goes out: ``live.shared_reads`` keeps it for this process's sockets.
written: list[Callable[[Any, str], None]] = []


def after_commit(table: Any) -> None:
    """:func:`tell` once the current transaction commits (a socket reading before then
    would find nothing new); ``table`` (a ``live.models.Table`` as the write saved it) is
    handed to the :data:`written` hooks first, under the push's id."""
    push = uuid.uuid4().hex

    def told() -> None:
        for hook in written:
            hook(table, push)
        tell(table.pk, push, table.last_event)

    transaction.on_commit(told)
