"""The hint a table's sockets get when it changes: "there is news", nothing more. Each
socket then reads what it missed from the database, drawn for its own seat
(``live.consumers``), so a push lost or doubled loses or doubles nothing."""

from __future__ import annotations

import asyncio
import logging
import threading

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

log = logging.getLogger(__name__)


def group(table_id: int) -> str:
    """The channel-layer group of a table's sockets."""
    return f"table-{table_id}"


def tell(table_id: int) -> None:
    """Tell every socket of the table (in every process, through the channel layer).

    The write it follows has committed: a push that fails (the channel layer down) is
    logged, not raised, and the sockets catch up from the database when they next read.
    A thread that runs an event loop of its own cannot wait on the layer there, so the
    push goes out from a thread of its own."""
    layer = get_channel_layer()
    if layer is None:
        return

    def send() -> None:
        try:
            async_to_sync(layer.group_send)(group(table_id), {"type": "table.news"})
        except Exception:  # noqa: BLE001 - a hint lost; the database holds the truth
            log.warning("table %s: the push to its sockets failed", table_id, exc_info=True)

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        send()
        return
    sender = threading.Thread(target=send, name=f"push-table-{table_id}")
    sender.start()
    sender.join()


def after_commit(table_id: int) -> None:
    """:func:`tell` once the current transaction commits (a socket reading before then
    would find nothing new)."""
    transaction.on_commit(lambda: tell(table_id))
