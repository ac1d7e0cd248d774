"""Time zones as a reader names them: the IANA zones this machine knows (``zoneinfo``),
each called by its country and city in the reader's language from the Unicode CLDR
(Babel: 日本 — 東京, Россия — Москва), its offset from UTC and its IANA name, so a
picker can be searched by any of them; the zones a reader most likely wants first.

Python's standard library has the zones but no names for them in any language; ICU has
the names but needs a compiled extension (PyICU); Babel carries CLDR's names as plain
data, in the languages the site speaks.

The browser says which zone it is in: static/js/time-zone.js keeps it in a cookie, read
by accounts.middleware when the person chose none; on the first visit, before the cookie
is known, it shows the page's ``<time>`` elements in that zone itself (``zone_decided``).
"""

from __future__ import annotations

import functools
import zoneinfo
from datetime import datetime
from urllib.parse import unquote

from asgiref.local import Local
from babel import Locale
from babel.core import get_global
from babel.dates import get_timezone_location
from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

#: the cookie static/js/time-zone.js keeps the browser's zone in
BROWSER_COOKIE = "lantern_tz"

# Whether the zone the page is drawn in was decided (the person's, their browser's, a
# club's) rather than UTC for want of one: on a first visit the page's script shows its
# times in the browser's zone instead. A Local, as Django keeps the active zone.
_decided = Local()


def show_times_in(zone: zoneinfo.ZoneInfo) -> None:
    """Dates on the page being drawn are shown in ``zone``, a zone someone chose."""
    timezone.activate(zone)
    _decided.value = True


def forget_zone() -> None:
    """No zone chosen: dates in UTC (settings.TIME_ZONE), until the browser says its own."""
    timezone.deactivate()
    _decided.value = False


def zone_decided() -> bool:
    """Whether the page's dates are in a zone someone chose (see show_times_in)."""
    return getattr(_decided, "value", False)


def context(request: object) -> dict[str, bool]:
    """Template context: ``zone_decided``, read by base.html when the page is drawn (after
    the view, so a club's own zone counts)."""
    return {"zone_decided": zone_decided()}


@functools.cache
def known() -> frozenset[str]:
    """Every IANA time zone name this machine knows (``Asia/Tokyo``, ``Europe/Moscow``)."""
    return frozenset(zoneinfo.available_timezones())


def zone_or_none(name: str | None) -> zoneinfo.ZoneInfo | None:
    """The zone of that name, or None for a name that is none (a cookie, an old setting;
    a cookie's name may come %-encoded)."""
    name = unquote(name or "")
    if not name or name not in known():
        return None
    return _zone(name)


@functools.cache
def _zone(name: str) -> zoneinfo.ZoneInfo:
    # zoneinfo keeps only the last few zones it read: a picker asks all of them each time
    return zoneinfo.ZoneInfo(name)


def _minutes(name: str) -> int:
    offset = datetime.now(_zone(name)).utcoffset()
    return int(offset.total_seconds() // 60) if offset else 0


def _offset(name: str) -> str:
    minutes = _minutes(name)
    sign = "+" if minutes >= 0 else "−"
    return f"UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


@functools.cache
def _places(language: str) -> dict[str, str]:
    """Each zone that is a place (a country's, a city's), by ``country — city`` in
    ``language``; the IANA names that are only aliases of these are left out."""
    locale = Locale.parse(language)
    territories = get_global("zone_territories")
    places: dict[str, str] = {}
    for name in known():
        territory = territories.get(name)
        if not territory or territory == "ZZ":
            continue
        country = locale.territories.get(territory, territory)
        city = get_timezone_location(name, locale=locale, return_city=True)
        places[name] = f"{country} — {city}" if city and city != country else country
    return places


def label(name: str, language: str) -> str:
    """``UTC+09:00 · 日本 — 東京 (Asia/Tokyo)``: what a picker shows for the zone."""
    place = _places(language).get(name)
    return f"{_offset(name)} · {place} ({name})" if place else f"{_offset(name)} · {name}"


def likely(language: str, *known_zones: str) -> list[str]:
    """The zones a reader of ``language`` most likely wants, most likely first: those
    already known (the browser's, the one in use), then the zones of the language's
    home country (CLDR's likely subtags: ja → Japan, ru → Russia) from west to east,
    then UTC."""
    home = get_global("likely_subtags").get(language, "").rsplit("_", 1)[-1]
    home_zones = sorted(
        get_global("territory_zones").get(home, []),  # west to east
        key=lambda name: (_minutes(name), _places(language).get(name, name)),
    )
    found: list[str] = []
    for name in [*known_zones, *home_zones, "UTC"]:
        if name and name in known() and name not in found:
            found.append(name)
    return found


def choices(language: str, *known_zones: str) -> list[tuple[str, str]]:
    """A picker's options: the likely zones first, then every place by its name in
    ``language`` (the offset leads each label, so the list reads east to west when
    searched by it)."""
    first = likely(language, *known_zones)
    places = _places(language)
    rest = sorted((name for name in places if name not in first), key=lambda name: places[name])
    return [(name, label(name, language)) for name in [*first, *rest]]


def current_label(language: str) -> str:
    """The zone dates on this page are shown in, for a sentence: ``UTC+09:00 · 日本 — 東京``
    (the picker's label without the IANA name), or ``UTC``."""
    return sentence_label(timezone.get_current_timezone_name(), language)


def sentence_label(name: str, language: str) -> str:
    """The zone ``name`` for a sentence: ``UTC+09:00 · 日本 — 東京``, or ``UTC``."""
    place = _places(language).get(name)
    return (
        f"{_offset(name)} · {place}"
        if place
        else "UTC"
        if name in ("UTC", "Etc/UTC")
        else label(name, language)
    )


class ZonePicker(forms.Select):
    """A time zone <select> that static/js/zone-picker.js makes searchable."""

    def __init__(self, attrs: dict[str, str] | None = None) -> None:
        super().__init__({"data-zone-picker": "", **(attrs or {})})

    def get_context(self, name: str, value: object, attrs: dict | None) -> dict:
        context = super().get_context(name, value, attrs)
        context["widget"]["attrs"]["data-search-placeholder"] = str(
            _("Find: a country, a city, UTC+9…")
        )
        return context
