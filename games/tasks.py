"""Celery tasks of the games app. Tasks stay thin: they call services."""

from __future__ import annotations

import os
import socket

from celery import shared_task


@shared_task(name="games.ping")
def ping(payload: str = "ping") -> dict[str, object]:
    """Echo the payload with where it ran: proves a task crossed the broker to a worker."""
    return {"payload": payload, "host": socket.gethostname(), "pid": os.getpid()}
