"""``python tests/faults/worker.py worker ...``: a Celery worker of the project for the
fault tests, as ``celery -A config worker`` but reporting a recompute's progress every
LANTERN_TEST_PROGRESS_EVERY matches (default 200, production: 5000), so that a test can
see a recompute of a few thousand matches half done and kill the worker then. Nothing
else differs."""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from config.celery import app  # noqa: E402
from ladder import services  # noqa: E402

services.PROGRESS_EVERY = int(os.environ.get("LANTERN_TEST_PROGRESS_EVERY", "200"))

if __name__ == "__main__":
    app.worker_main(sys.argv[1:])
