"""The rating history chart: a step line over dated ticks, flat where the player did not
play, a dot per match with its values, coloured by role."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from ladder.charts import HistoryPoint, history_chart

DAY = datetime(2026, 3, 2, 19, 0, tzinfo=UTC)


def point(
    days: int, before: float, after: float, role: str = "cryptid", match_id: int = 1
) -> HistoryPoint:
    return HistoryPoint(DAY + timedelta(days=days), before, after, role, match_id, after > before)


def test_the_line_holds_flat_between_matches_and_runs_on_to_the_ladders_last_match():
    points = [point(0, 1500, 1516), point(30, 1516, 1502, "scientist", 2)]
    chart = history_chart(points, until=DAY + timedelta(days=60))
    # M start,y(1500) V y(1516) H x(day 30) V y(1502) H x(day 60): jumps at matches only.
    commands = re.findall(r"[MHV][\d.,]+", chart.path)
    assert [c[0] for c in commands] == ["M", "V", "H", "V", "H"]
    assert float(commands[-1][1:]) == chart.right  # flat to the ladder's last match
    middle = float(commands[2][1:])
    assert abs(middle - (chart.left + (chart.right - chart.left) / 2)) < 0.5  # day 30 of 60


def test_axes_are_dated_and_rounded():
    points = [
        point(0, 1500, 1532),
        point(9, 1532, 1487, match_id=2),
        point(40, 1487, 1470, match_id=3),
    ]
    chart = history_chart(points)
    labels = [t.label for t in chart.x_ticks]
    assert labels and all(re.fullmatch(r"\d{1,2} [A-Z][a-z]{2}", label) for label in labels), labels
    assert [t.label for t in chart.y_ticks] == ["1460", "1480", "1500", "1520", "1540"]
    assert all(chart.left <= t.at <= chart.right for t in chart.x_ticks)
    long = history_chart([point(0, 1500, 1510), point(400, 1510, 1490, match_id=2)])
    assert [t.label for t in long.x_ticks][:2] == ["Apr 2026", "Jul 2026"]


def test_each_dot_says_its_values_and_role():
    chart = history_chart([point(0, 1500, 1516), point(1, 1516, 1502.5, "scientist", 7)])
    assert chart.roles == ["cryptid", "scientist"]
    assert [d.role_index for d in chart.dots] == [0, 1]
    assert chart.dots[1].text == "2026-03-03: 1502 (\u221213.5), lost as scientist, match #7"
    assert chart.dots[0].y < chart.dots[1].y  # 1516 above 1502


def test_one_match_and_no_match():
    assert history_chart([]) is None
    single = history_chart([point(0, 1500, 1516)])
    assert len(single.dots) == 1 and single.left < single.dots[0].x < single.right
