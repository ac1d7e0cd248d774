from __future__ import annotations

import pytest

from config.celery import app


@pytest.fixture
def eager_celery():
    """Run queued tasks in process even when REDIS_URL is set."""
    before = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager = app.conf.task_eager_propagates = True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = before
