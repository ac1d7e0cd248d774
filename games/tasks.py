"""Celery tasks of the games app. Tasks stay thin: they call services."""

from __future__ import annotations

import os
import socket

from celery import shared_task

from games.services import requeue_queued_imports, revalidate_matches, run_import


@shared_task(name="games.ping")
def ping(payload: str = "ping") -> dict[str, object]:
    """Echo the payload with where it ran: proves a task crossed the broker to a worker."""
    return {"payload": payload, "host": socket.gethostname(), "pid": os.getpid()}


@shared_task(name="games.run_import")
def run_import_task(import_id: int) -> dict[str, object]:
    """Ingest every log of a bulk import (games.services.run_import)."""
    run = run_import(import_id)
    return {
        "import": run.pk,
        "status": run.status,
        "processed": run.processed,
        "accepted": run.accepted,
        "duplicates": run.duplicates,
        "rejected": run.rejected,
    }


@shared_task(name="games.requeue_queued_imports")
def requeue_queued_imports_task() -> int:
    """Every few minutes (beat): queue again the imports whose task was lost."""
    return requeue_queued_imports()


@shared_task(name="games.revalidate")
def revalidate_task(game: str | None = None) -> dict[str, object]:
    """Replay every stored log with the current engine; report what changed (nothing is written)."""
    return revalidate_matches(game).as_dict()
