"""How often one user may upload: the API and the web form share one budget."""

from __future__ import annotations

from django.conf import settings
from rest_framework.throttling import UserRateThrottle


class UploadThrottle(UserRateThrottle):
    """Uploads and imports per user (or per address when anonymous):
    settings.LANTERN_UPLOAD_RATE, e.g. "60/min". Works on DRF and plain Django requests."""

    scope = "uploads"

    def get_rate(self) -> str | None:
        return getattr(settings, "LANTERN_UPLOAD_RATE", "60/min")
