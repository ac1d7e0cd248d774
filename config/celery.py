"""The Celery app. Without REDIS_URL, settings make every task run eagerly in process."""

import logging.config
import os

from celery import Celery
from celery.signals import setup_logging

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
