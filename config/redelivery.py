"""Bounded redeliveries: a task that kills its worker is not retried forever.

The ladder tasks are acknowledged only when done (``acks_late``) and handed back when
their worker is lost (``reject_on_worker_lost``), so a lost worker loses nothing. But a
task that itself kills the worker (out of memory on one enormous ladder, a crash in a
library) would then be delivered again, kill the next worker, and so on for ever.
:class:`BoundedRedeliveryTask` counts each delivery of a task id in the cache (Redis in
production: shared by every worker, and it survives the dead one); past
:data:`MAX_DELIVERIES` without finishing it is not run again but announced
(:data:`task_given_up`); the dashboard records it as a ``DroppedTask`` and lists it.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from celery import Task
from django.core.cache import cache
from django.dispatch import Signal

log = logging.getLogger(__name__)

#: Deliveries of one task id that may start without finishing before it is given up.
MAX_DELIVERIES = 3
#: How long a delivery count is kept: far longer than a redelivery takes.
COUNT_SECONDS = 24 * 3600

#: A task was given up: ``task_id``, ``name``, ``deliveries``, ``arguments`` (its repr).
task_given_up = Signal()


def _key(task_id: str) -> str:
    return f"lantern:deliveries:{task_id}"


class BoundedRedeliveryTask(Task):
    """A Celery task whose deliveries are counted; see the module's docstring."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        request = self.request
        key = None
        if request.id and not request.is_eager:
            key = _key(request.id)
            try:
                cache.add(key, 0, timeout=COUNT_SECONDS)
                deliveries = cache.incr(key)
            except Exception:  # noqa: BLE001 - no count without the cache: run it, uncounted
                deliveries, key = 1, None
            if deliveries > MAX_DELIVERIES:
                self._give_up(request.id, args, kwargs, deliveries - 1)
                return None
        result = super().__call__(*args, **kwargs)
        if key is not None:
            with contextlib.suppress(Exception):  # the count expires by itself
                cache.delete(key)
        return result

    def _give_up(
        self, task_id: str, args: tuple[Any, ...], kwargs: dict[str, Any], deliveries: int
    ) -> None:
        log.error(
            "task %s %s started %d times without finishing: given up",
            self.name,
            task_id,
            deliveries,
        )
        task_given_up.send(
            sender=type(self),
            task_id=task_id,
            name=self.name,
            deliveries=deliveries,
            arguments=repr((args, kwargs))[:2000],
        )
