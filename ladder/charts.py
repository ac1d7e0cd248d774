"""Inline SVG geometry for ladder pages: plain numbers in, coordinates out."""

from __future__ import annotations

from dataclasses import dataclass


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


@dataclass
class Chart:
    width: int
    height: int
    points: str
    low: float
    high: float
    y_low: float  # y of the low label
    y_high: float
    first_label: str
    last_label: str


def history_chart(series: list[tuple[object, float]], width: int = 640,
                  height: int = 200) -> Chart | None:
    """A player's rating over their matches (x: match number, y: rating)."""
    if not series:
        return None
    values = [value for _, value in series]
    pad = 12.0
    points = polyline(values, width, height, pad)
    low, high = min(values), max(values)

    def day(at: object) -> str:
        return at.strftime("%Y-%m-%d") if hasattr(at, "strftime") else ""

    return Chart(width, height, points, low, high, height - pad, pad, day(series[0][0]),
                 day(series[-1][0]))
