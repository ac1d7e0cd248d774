"""The Django set-up of the benchmarks that time requests through the whole stack: an
in-memory SQLite database, migrated, with Celery's tasks run in place."""

from __future__ import annotations

import logging
import os


def start_in_memory_site() -> None:
    """Set Django up on a fresh in-memory SQLite database (never the configured one) and
    migrate it. Storing a match enqueues its rating (and more): those tasks run here,
    eagerly, never into a configured Redis broker, where a real worker would act on this
    throwaway database's ids. The caller puts the repository on ``sys.path`` first and
    imports Django's models only after this."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["DATABASE_URL"] = "sqlite://:memory:"
    import django

    django.setup()
    from django.core.management import call_command

    from config.celery import app as celery_app

    celery_app.conf.task_always_eager = True
    logging.getLogger("celery").setLevel(logging.WARNING)
    logging.getLogger("lantern.request").setLevel(logging.WARNING)  # a line per request
    call_command("migrate", verbosity=0)
