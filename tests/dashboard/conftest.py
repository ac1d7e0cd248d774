from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _no_queue_to_ping(settings):
    """The dashboard pings Redis and the workers when REDIS_URL is set (as under
    .ci/run); these tests are about what it shows, not about those services."""
    settings.REDIS_URL = None


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user("op", password="pw-for-tests-only", is_staff=True)
