"""Lantern's Django project: settings from the environment, urls, the Celery app."""

# Load the Celery app with Django so that @shared_task uses it.
from config.celery import app as celery_app

__all__ = ["celery_app"]
