"""The hint a table's sockets get when it changes: "there is news", nothing more. Each
socket then reads what it missed from the database, drawn for its own seat
(``live.consumers``), so a push lost or doubled loses or doubles nothing."""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction


def group(table_id: int) -> str:
    """The channel-layer group of a table's sockets."""
    return f"table-{table_id}"


def tell(table_id: int) -> None:
    """Tell every socket of the table (in every process, through the channel layer)."""
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group(table_id), {"type": "table.news"})


def after_commit(table_id: int) -> None:
    """:func:`tell` once the current transaction commits (a socket reading before then
    would find nothing new)."""
    transaction.on_commit(lambda: tell(table_id))
