"""How often one user may upload: the API and the web form share one budget."""

from __future__ import annotations

import logging
from typing import Any

import redis.exceptions
from django.conf import settings
from rest_framework.throttling import UserRateThrottle

log = logging.getLogger(__name__)


class UploadThrottle(UserRateThrottle):
    """Uploads and imports per user (or per address when anonymous):
    settings.LANTERN_UPLOAD_RATE, e.g. "60/min". Works on DRF and plain Django requests.

    The counts live in the cache (Redis when configured). When the cache cannot be
    reached the upload is let through, with a warning in the log: a rate limit is not
    worth refusing a club's match over."""

    scope = "uploads"

    def get_rate(self) -> str | None:
        return getattr(settings, "LANTERN_UPLOAD_RATE", "60/min")

    def allow_request(self, request: Any, view: Any) -> bool:
        try:
            return super().allow_request(request, view)
        except (redis.exceptions.RedisError, OSError) as exc:
            log.warning("upload rate not checked: the cache is unreachable (%s)", exc)
            return True
