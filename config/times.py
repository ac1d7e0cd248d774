"""``{% load times %}``: a date or time as a ``<time>`` element.

``{{ match.played_at|when:"SHORT_DATETIME_FORMAT" }}`` is the ``date`` filter's text in the
page's zone and language, marked up with the instant (``datetime``, UTC) and the format it
was written in (``data-format``), so that on a first visit, before the server knows the
reader's zone, static/js/time-zone.js can write it again in the browser's zone.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

from django import template
from django.template.defaultfilters import date as date_filter
from django.utils.formats import get_format
from django.utils.html import format_html

register = template.Library()


@register.filter(expects_localtime=True)
def when(value: datetime | date | None, format_name: str = "SHORT_DATETIME_FORMAT") -> str:
    """``<time datetime="2026-11-28T00:49:00+00:00" data-format="Y年n月j日 G:i">2026年11月28日
    9:49</time>``; empty for no date."""
    if not value:
        return ""
    text = date_filter(value, format_name)
    if not isinstance(value, datetime):  # a calendar day is the same in every zone
        return format_html('<time datetime="{}">{}</time>', value.isoformat(), text)
    return format_html(
        '<time datetime="{}" data-format="{}">{}</time>',
        value.astimezone(UTC).isoformat(),
        get_format(format_name),
        text,
    )
