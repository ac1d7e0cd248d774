"""What a person chose for themselves: the language the site speaks to them and the time
zone its dates are shown in."""

from __future__ import annotations

import zoneinfo
from functools import cache

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


@cache
def time_zone_names() -> tuple[str, ...]:
    """Every IANA time zone name this machine knows, sorted (``Asia/Tokyo``, ``Europe/Moscow``)."""
    return tuple(sorted(zoneinfo.available_timezones()))


class AccountSettings(models.Model):
    """One row per account that chose anything; an empty field means "the site's default"
    (the browser's language, the site's time zone)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="account_settings"
    )
    language = models.CharField(
        _("language"), max_length=8, blank=True, default="", choices=settings.LANGUAGES
    )
    time_zone = models.CharField(_("time zone"), max_length=64, blank=True, default="")

    class Meta:
        verbose_name = _("account settings")
        verbose_name_plural = _("account settings")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(language="")
                | models.Q(language__in=[code for code, _name in settings.LANGUAGES]),
                name="account_settings_language_known",
            ),
        ]

    def __str__(self) -> str:
        return f"settings of {self.user}"
