"""Inline SVG charts, drawn on the server: no JavaScript, no chart library."""

from __future__ import annotations

from datetime import date
from html import escape

from django.utils.translation import gettext

#: one colour per series, colour-blind friendly (Okabe–Ito)
PALETTE = ["#E69F00", "#0072B2", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442"]


def stacked_bars(
    days: list[date], series: dict[str, list[int]], *, width: int = 720, height: int = 180
) -> str:
    """A stacked bar chart: one bar per day, one colour per series (its key: ``legend``).

    Each bar has a ``<title>`` so hovering it tells the day and the counts.
    """
    pad_left, pad_bottom, pad_top = 32, 20, 8
    plot_w, plot_h = width - pad_left - 4, height - pad_bottom - pad_top
    totals = [sum(values[i] for values in series.values()) for i in range(len(days))]
    peak = max(totals, default=0) or 1
    bar_w = plot_w / max(len(days), 1)
    # Outside the f-string: makemessages does not read inside one.
    title = escape(gettext("Matches uploaded per day and game"))
    parts = [
        f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{title}" xmlns="http://www.w3.org/2000/svg">',
        f'<text x="{pad_left - 4}" y="{pad_top + 8}" text-anchor="end" class="axis">{peak}</text>',
        f'<text x="{pad_left - 4}" y="{pad_top + plot_h}" text-anchor="end" class="axis">0</text>',
        f'<line x1="{pad_left}" y1="{pad_top + plot_h}" x2="{width - 4}" '
        f'y2="{pad_top + plot_h}" class="axis-line"/>',
    ]
    names = list(series)
    for i, day in enumerate(days):
        x = pad_left + i * bar_w
        y = pad_top + plot_h
        label = escape(f"{day.isoformat()}: " + ", ".join(f"{n} {series[n][i]}" for n in names))
        parts.append(f"<g><title>{label}</title>")
        for k, name in enumerate(names):
            h = plot_h * series[name][i] / peak
            if h <= 0:
                continue
            y -= h
            parts.append(
                f'<rect x="{x + 1:.1f}" y="{y:.1f}" width="{max(bar_w - 2, 1):.1f}" '
                f'height="{h:.1f}" fill="{PALETTE[k % len(PALETTE)]}"/>'
            )
        parts.append("</g>")
        if (len(days) - 1 - i) % 7 == 0:  # weekly, counted back from the last day: no overlap
            parts.append(
                f'<text x="{x + bar_w / 2:.1f}" y="{height - 4}" text-anchor="middle" '
                f'class="axis">{day.strftime("%m-%d")}</text>'
            )
    parts.append("</svg>")
    return "".join(parts)


def legend(names: list[str]) -> str:
    """The key of a chart's colours, as HTML beside it rather than text inside the SVG: it
    wraps on a narrow screen and keeps the page's font size, whatever the names' script
    (an SVG legend placed by character counts ran Japanese names into each other)."""
    items = "".join(
        f'<li><svg width="10" height="10" aria-hidden="true"><rect width="10" height="10" '
        f'fill="{PALETTE[k % len(PALETTE)]}"/></svg> {escape(name)}</li>'
        for k, name in enumerate(names)
    )
    return f'<ul class="chart-legend">{items}</ul>'
