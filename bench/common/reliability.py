"""A reliability diagram as a small SVG a person can read without the script: per tenth of
forecast chance, how often the forecast came true, with the diagonal a calibrated
forecast would lie on, each tenth's count written in a row above the plot and the 95 % interval
of its frequency (Wilson), axes and their names, and a legend."""

from __future__ import annotations

import math
from html import escape

BINS = 10
WIDTH, HEIGHT = 440, 486
LEFT, RIGHT, TOP, BOTTOM = 56, 24, 78, 112
INNER_W, INNER_H = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
BLUE, GREY = "#1f5f99", "#777"


def wilson(hits: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % interval of a frequency of ``hits`` in ``n`` (Wilson's score interval)."""
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _x(p: float) -> float:
    return LEFT + INNER_W * p


def _y(p: float) -> float:
    return TOP + INNER_H * (1 - p)


def reliability_svg(title: str, pairs: list[tuple[float, float]], subtitle: str = "") -> str:
    """``pairs``: (forecast chance 0-1, outcome 0 or 1). ``subtitle``: a line under the
    title (the Brier score, how many games)."""
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="11" fill="#222">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
        f'<text x="{WIDTH / 2}" y="20" text-anchor="middle" font-size="14" '
        f'font-weight="bold">{escape(title)}</text>',
        f'<text x="{WIDTH / 2}" y="38" text-anchor="middle">{escape(subtitle)}</text>',
    ]
    for tick in range(0, 11):
        p = tick / 10
        parts.append(
            f'<line x1="{_x(p)}" y1="{TOP}" x2="{_x(p)}" y2="{TOP + INNER_H}" stroke="#eee"/>'
            f'<line x1="{LEFT}" y1="{_y(p)}" x2="{LEFT + INNER_W}" y2="{_y(p)}" stroke="#eee"/>'
        )
        if tick % 2 == 0:
            parts.append(
                f'<text x="{_x(p)}" y="{TOP + INNER_H + 15}" text-anchor="middle">'
                f"{tick * 10}</text>"
                f'<text x="{LEFT - 6}" y="{_y(p) + 4}" text-anchor="end">{tick * 10}</text>'
            )
    parts += [
        f'<rect x="{LEFT}" y="{TOP}" width="{INNER_W}" height="{INNER_H}" fill="none" '
        f'stroke="{GREY}"/>',
        f'<line x1="{_x(0)}" y1="{_y(0)}" x2="{_x(1)}" y2="{_y(1)}" stroke="{GREY}" '
        f'stroke-dasharray="5 4"/>',
        f'<text x="{LEFT + INNER_W / 2}" y="{TOP + INNER_H + 32}" text-anchor="middle">'
        "forecast win chance of the seat (%)</text>",
        f'<text x="16" y="{TOP + INNER_H / 2}" text-anchor="middle" '
        f'transform="rotate(-90 16 {TOP + INNER_H / 2})">how often that seat won (%)</text>',
    ]
    bins: list[list[tuple[float, float]]] = [[] for _ in range(BINS)]
    for forecast, outcome in pairs:
        bins[min(BINS - 1, int(forecast * BINS))].append((forecast, outcome))
    most = max((len(b) for b in bins), default=0) or 1
    points = []
    parts.append(
        f'<text x="{LEFT - 6}" y="{TOP - 8}" text-anchor="end" font-size="10" fill="{GREY}">'
        "forecasts</text>"
    )
    for index, members in enumerate(bins):
        parts.append(
            f'<text x="{_x((index + 0.5) / BINS):.1f}" y="{TOP - 8}" text-anchor="middle" '
            f'font-size="10" fill="{GREY}">{len(members)}</text>'
        )
        if not members:
            continue
        n = len(members)
        mean_f = sum(f for f, _ in members) / n
        won = sum(o for _, o in members)
        low, high = wilson(won, n)
        cx, cy = _x(mean_f), _y(won / n)
        points.append(f"{cx:.1f},{cy:.1f}")
        radius = 2.5 + 5 * math.sqrt(n / most)
        parts.append(
            f'<line x1="{cx:.1f}" y1="{_y(low):.1f}" x2="{cx:.1f}" y2="{_y(high):.1f}" '
            f'stroke="{BLUE}" stroke-opacity="0.45" stroke-width="3"/>'
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{radius:.1f}" fill="{BLUE}"/>'
        )
    if len(points) > 1:
        parts.append(f'<polyline points="{" ".join(points)}" fill="none" stroke="{BLUE}"/>')
    legend_y = TOP + INNER_H + 52
    parts += [
        f'<line x1="{LEFT}" y1="{legend_y}" x2="{LEFT + 24}" y2="{legend_y}" stroke="{GREY}" '
        f'stroke-dasharray="5 4"/>',
        f'<text x="{LEFT + 30}" y="{legend_y + 4}">calibrated: a forecast of 30 % comes true '
        "30 % of the time</text>",
        f'<circle cx="{LEFT + 12}" cy="{legend_y + 20}" r="5" fill="{BLUE}"/>',
        f'<text x="{LEFT + 30}" y="{legend_y + 24}">the forecasts in one tenth (how many: the '
        "row on top):</text>",
        f'<text x="{LEFT + 30}" y="{legend_y + 38}">their mean, how often they came true; the '
        "bar: its 95 % interval</text>",
        f'<text x="{LEFT + 30}" y="{legend_y + 52}" fill="{GREY}">(a game\'s forecasts are '
        "not independent: the bars are too narrow)</text>",
    ]
    parts.append("</svg>")
    return "\n".join(parts)
