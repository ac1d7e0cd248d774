"""Domain events, sent once the writer's transaction commits.

A writer publishes what happened (``clubs.events``, ``games.events``) and knows nothing
of who reacts: the ladder rates or recomputes (``ladder.handlers``), the read cache
forgets (``games.read_cache``). An event is sent once the writer's transaction commits
(at once outside one), so a receiver never sees rows that may yet be rolled back, and a
failed write sends nothing. Receivers are connected in their app's ``AppConfig.ready``.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.db import transaction
from django.dispatch import Signal


def publish(event: Signal, **facts: Any) -> None:
    """Send ``event`` with ``facts`` (keyword arguments) once the current transaction commits."""
    transaction.on_commit(partial(event.send, sender=None, **facts))
