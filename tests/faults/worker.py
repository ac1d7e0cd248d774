"""``python tests/faults/worker.py worker ...``: a Celery worker of the project for the
fault tests, as ``celery -A config worker`` but saving a recompute's progress as often
as it looks at the clock (every 1% of the matches) rather than at most twice a second,
so that a test can see a recompute of a few thousand matches part-way and kill the
worker then. Nothing else differs."""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from config.celery import app  # noqa: E402
from ladder.services import recompute  # noqa: E402

# Save a recompute's progress at every check, so a test can catch it part-way (the module
# that reads the setting, not the package that re-exports it).
recompute.PROGRESS_SECONDS = 0.0

if __name__ == "__main__":
    app.worker_main(sys.argv[1:])
