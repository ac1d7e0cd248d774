"""Inline SVG geometry for ladder pages: plain numbers in, coordinates out.

Hand-written rather than a charting library: the pages need two small drawings (a
sparkline and a rating history) as plain SVG in the HTML, with no script from
elsewhere. The Python SVG chart libraries (pygal, the best known) load their tooltip
script from a CDN and bring styles of their own; the geometry here is a hundred lines.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.utils import dateformat, formats, timezone
from django.utils.translation import gettext, pgettext


def _scale(values: list[float], low: float, high: float) -> tuple[float, float]:
    lo, hi = min(values), max(values)
    if hi - lo < 1e-9:
        lo, hi = lo - 1.0, hi + 1.0
    return lo, (high - low) / (hi - lo)


def polyline(values: list[float], width: float, height: float, pad: float = 2.0) -> str:
    """SVG ``points`` for values drawn left to right, higher values higher up."""
    if not values:
        return ""
    if len(values) == 1:
        values = values * 2
    lo, unit = _scale(values, pad, height - pad)
    step = (width - 2 * pad) / (len(values) - 1)
    return " ".join(
        f"{pad + i * step:.1f},{height - pad - (v - lo) * unit:.1f}" for i, v in enumerate(values)
    )


@dataclass(frozen=True)
class HistoryPoint:
    """One rated match of a player: when, the rating before and after, the role played."""

    played_at: datetime
    before: float
    after: float
    role: str
    match_id: int
    won: bool
    #: the role as the game names it at the table, in the reader's language ("科学者");
    #: ``role`` is the rating's label, which colours the dot
    role_name: str = ""


@dataclass
class Tick:
    at: float  # x or y in the drawing
    label: str


@dataclass
class Dot:
    x: float
    y: float
    point: HistoryPoint
    role_index: int

    @property
    def change(self) -> str:
        """``+12.4`` or ``−3.0`` (a real minus sign)."""
        return f"{self.point.after - self.point.before:+.1f}".replace("-", "\u2212")

    @property
    def text(self) -> str:
        """What hovering the point says."""
        values = {
            "date": formats.date_format(
                timezone.localtime(self.point.played_at), "SHORT_DATE_FORMAT"
            ),
            "rating": f"{self.point.after:.0f}",
            "change": self.change,
            "role": self.point.role_name or self.point.role,
            "match": self.point.match_id,
        }
        if self.point.role:
            text = (
                gettext("%(date)s: %(rating)s (%(change)s), won as %(role)s, match #%(match)s")
                if self.point.won
                else gettext(
                    "%(date)s: %(rating)s (%(change)s), lost as %(role)s, match #%(match)s"
                )
            )
        else:
            text = (
                gettext("%(date)s: %(rating)s (%(change)s), won, match #%(match)s")
                if self.point.won
                else gettext("%(date)s: %(rating)s (%(change)s), lost, match #%(match)s")
            )
        return text % values


@dataclass
class Chart:
    width: int
    height: int
    #: the plot area
    left: float
    top: float
    right: float
    bottom: float
    #: the rating as a step line: flat while the player did not play, a jump at a match
    path: str
    dots: list[Dot]
    x_ticks: list[Tick]
    y_ticks: list[Tick]
    roles: list[str] = field(default_factory=list)
    first_label: str = ""
    last_label: str = ""


def _nice_step(span: float, count: int) -> float:
    """A step of 1, 2 or 5 times a power of ten giving about ``count`` ticks over ``span``."""
    raw = max(span, 1e-9) / count
    power = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


def _day_month(at: datetime) -> str:
    # Month names in the reader's language (Django's date formats), in its order.
    return dateformat.format(at, pgettext("a date on a chart's axis: Django date format", "j M"))


def _date_ticks(start: datetime, end: datetime) -> tuple[list[datetime], Callable[[datetime], str]]:
    """Tick dates between ``start`` and ``end`` and their label format: days, weeks
    (Mondays), months or years, whichever gives a handful."""
    span = end - start
    if span <= timedelta(days=10):
        first = start.replace(hour=0, minute=0, second=0, microsecond=0) + timedelta(days=1)
        ticks = [first + timedelta(days=i) for i in range(span.days + 1)]
        return [t for t in ticks if t <= end], _day_month
    if span <= timedelta(days=90):
        first = start.replace(hour=0, minute=0, second=0, microsecond=0)
        first += timedelta(days=(7 - first.weekday()) % 7 or 7)
        ticks = []
        while first <= end:
            ticks.append(first)
            first += timedelta(days=7)
        return ticks, _day_month
    if span <= timedelta(days=3 * 365):
        step = 1 if span <= timedelta(days=250) else 3
        ticks = []
        month, year = start.month, start.year
        while True:
            month += 1
            if month > 12:
                month, year = 1, year + 1
            if (month - 1) % step:
                continue
            tick = start.replace(
                year=year, month=month, day=1, hour=0, minute=0, second=0, microsecond=0
            )
            if tick > end:
                return ticks, lambda at: dateformat.format(
                    at, pgettext("a month on a chart's axis: Django date format", "M Y")
                )
            ticks.append(tick)
    return [
        start.replace(year=y, month=1, day=1, hour=0, minute=0, second=0, microsecond=0)
        for y in range(start.year + 1, end.year + 1)
    ], lambda at: f"{at:%Y}"


def history_chart(
    points: list[HistoryPoint], until: datetime | None = None, width: int = 640, height: int = 220
) -> Chart | None:
    """A player's rating over time: x is the date (dated ticks), y the rating (round
    ticks); the line holds flat between matches and jumps at each, and runs on flat to
    ``until`` (the ladder's latest rated match) when the player has not played since.
    A dot per match, coloured by the role played, says date, rating and change on hover."""
    if not points:
        return None
    left, top, right, bottom = 48.0, 10.0, width - 12.0, height - 26.0
    start = points[0].played_at
    end = max(points[-1].played_at, until or points[-1].played_at)
    if end - start < timedelta(hours=1):
        start, end = start - timedelta(hours=12), end + timedelta(hours=12)
    seconds = (end - start).total_seconds()

    def x(at: datetime) -> float:
        return left + (right - left) * (at - start).total_seconds() / seconds

    values = [points[0].before] + [p.after for p in points]
    step = _nice_step(max(values) - min(values), 4)
    low = math.floor(min(values) / step) * step
    high = math.ceil(max(values) / step) * step
    if high - low < step:
        high = low + step

    def y(value: float) -> float:
        return bottom - (bottom - top) * (value - low) / (high - low)

    path = [f"M{x(points[0].played_at):.1f},{y(points[0].before):.1f}"]
    for i, point in enumerate(points):
        if i:
            path.append(f"H{x(point.played_at):.1f}")
        path.append(f"V{y(point.after):.1f}")
    path.append(f"H{x(end):.1f}")
    roles = sorted({p.role for p in points if p.role})
    dots = [
        Dot(x(p.played_at), y(p.after), p, roles.index(p.role) if p.role else 0) for p in points
    ]
    dates, label = _date_ticks(start, end)
    x_ticks = [Tick(x(d), label(d)) for d in dates]
    y_ticks = [
        Tick(y(low + i * step), f"{low + i * step:.0f}")
        for i in range(round((high - low) / step) + 1)
    ]
    return Chart(
        width,
        height,
        left,
        top,
        right,
        bottom,
        " ".join(path),
        dots,
        x_ticks,
        y_ticks,
        roles,
        f"{points[0].played_at:%Y-%m-%d}",
        f"{points[-1].played_at:%Y-%m-%d}",
    )
