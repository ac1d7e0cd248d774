"""The live tables' Celery tasks: thin, each a service of ``live.endings``."""

from __future__ import annotations

from celery import shared_task

from live import clocks, endings
from live.models import Table


@shared_task(name="live.settle_table", ignore_result=True)
def settle_table(table_id: int) -> None:
    """The countdown of a table's clock (``live.clocks.schedule``): settle what is due;
    a countdown made stale by a later move finds nothing due and changes nothing."""
    endings.settle(table_id)


@shared_task(name="live.settle_due_tables", ignore_result=True)
def settle_due_tables() -> int:
    """Beat, every minute: the tables something fell due at with no countdown to settle
    them (a moment later than countdowns are given for, or Redis down when one was sent)."""
    due = list(
        Table.objects.filter(
            status__in=[Table.Status.OPEN, Table.Status.PLAYING], due_at__lte=clocks.now()
        ).values_list("pk", flat=True)[:500]
    )
    for table_id in due:
        endings.settle(table_id)
    return len(due)
