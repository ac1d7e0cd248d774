"""The Celery app. Without REDIS_URL, settings make every task run eagerly in process."""

import logging.config
import os

from celery import Celery
from celery.signals import setup_logging, task_postrun, task_prerun

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("lantern")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@setup_logging.connect
def use_django_logging(**kwargs) -> None:
    """Worker and beat log like the web processes (settings.LOGGING: JSON lines with
    the task id in production) instead of Celery's own format."""
    from django.conf import settings

    logging.config.dictConfig(settings.LOGGING)


@task_prerun.connect
@task_postrun.connect
def close_old_connections(task=None, **kwargs) -> None:
    """A task's database connections are handled like a request's (Django closes old
    ones when a request starts and ends): kept from task to task for CONN_MAX_AGE,
    closed after an error that left one unusable, health-checked before first use (a
    restarted PostgreSQL costs no task). settings.CELERY_DB_REUSE_MAX stops Celery's own
    fixup from closing them around every task instead. Not for eager tasks: they run
    inside the caller's request or transaction."""
    if task is not None and getattr(task.request, "is_eager", False):
        return
    from django.db import close_old_connections as close_old_database_connections

    close_old_database_connections()
