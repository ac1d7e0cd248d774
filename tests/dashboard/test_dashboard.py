"""The operator dashboard: staff only, and what it shows."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from dashboard.charts import PALETTE, legend, stacked_bars
from dashboard.selectors import database_size, uploads_per_day
from games.models import Match

pytestmark = pytest.mark.django_db


def _match(club, game: str, n: int) -> Match:
    return Match.objects.create(
        club=club, game=game, status="unfinished", content_hash=f"{game}-{n}"
    )


def test_dashboard_is_for_staff_only(client, user, django_user_model):
    url = reverse("dashboard")
    assert client.get(url).status_code == 302  # anonymous: to the login page
    client.force_login(user)
    assert client.get(url).status_code == 403  # a member, not an operator
    staff = django_user_model.objects.create_user("op", password="x", is_staff=True)
    client.force_login(staff)
    assert client.get(url).status_code == 200


def test_uploads_per_day_counts_each_game(club):
    for n in range(3):
        _match(club, "cryptid-urban-legends", n)
    _match(club, "mister-x", 0)
    days, series = uploads_per_day(days=7)
    assert len(days) == 7
    assert series["cryptid-urban-legends"][-1] == 3
    assert series["mister-x"][-1] == 1
    assert sum(series["mister-x"]) == 1


def test_chart_draws_one_titled_bar_per_day():
    from datetime import date, timedelta

    days = [date(2026, 11, 1) + timedelta(days=i) for i in range(3)]
    svg = stacked_bars(days, {"a<b": [1, 0, 2], "c": [0, 0, 1]})
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert svg.count("<title>") == 3
    assert "a&lt;b" in svg and "a<b" not in svg  # names are escaped
    assert svg.count("<rect") == 3  # the three non-empty segments


def test_the_charts_key_is_html_that_wraps_with_its_names_escaped():
    key = legend(["a<b", "クリプティッド：都市伝説", "ミスターX"])
    assert key.startswith('<ul class="chart-legend">') and key.count("<li>") == 3
    assert "a&lt;b" in key and "a<b" not in key
    # Colours in the order of the bars' series.
    assert re.findall(r'fill="(#[0-9A-F]{6})"', key) == PALETTE[:3]
    assert "クリプティッド：都市伝説</li>" in key


def test_database_size_is_measured():
    size = database_size()
    assert size["bytes"] > 0


def test_dashboard_page_shows_the_queue_mode(client, django_user_model, club, settings):
    settings.REDIS_URL = None
    _match(club, "cloak-and-dagger", 0)
    staff = django_user_model.objects.create_user("op", password="x", is_staff=True)
    client.force_login(staff)
    page = client.get(reverse("dashboard")).content.decode()
    assert "tasks run in the web process" in page
    assert "1 in all" in page


def test_chart_labels_the_last_day_and_every_seventh_before_it():
    import re
    from datetime import date, timedelta

    days = [date(2026, 10, 25) + timedelta(days=i) for i in range(30)]
    svg = stacked_bars(days, {"a": [1] * 30})
    labels = re.findall(r'class="axis">(\d\d-\d\d)</text>', svg)
    assert labels == ["10-26", "11-02", "11-09", "11-16", "11-23"]  # never two side by side


def test_the_dashboard_does_not_query_per_row(client, django_user_model, club):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from clubs.models import Club
    from games.models import Upload
    from ladder.models import Ladder, RecomputeJob

    staff = django_user_model.objects.create_user("op", password="x", is_staff=True)
    client.force_login(staff)

    made = iter(range(1000))

    def add_rows(n: int) -> None:
        """Per row: a club with an accepted (timed) and a rejected upload, and a ladder
        with a running, a failed and a finished recompute."""
        for _ in range(n):
            k = next(made)
            other = Club.objects.create(name=f"Club {k}", slug=f"club-{k}")
            match = _match(other, "mister-x", k)
            Upload.objects.create(
                club=other,
                uploaded_by=staff,
                source="api",
                game="mister-x",
                status="accepted",
                match=match,
                validation_ms=5.0 + k,
            )
            Upload.objects.create(
                club=other,
                uploaded_by=staff,
                source="api",
                game="mister-x",
                status="rejected",
                error="illegal",
                error_rule="MX-2.1",
            )
            ladder = Ladder.objects.create(club=other, game="mister-x")
            for status in ("done", "running", "failed"):  # the failure is the newest: listed
                RecomputeJob.objects.create(ladder=ladder, reason="manual", status=status)

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(reverse("dashboard")).status_code == 200
            assert client.get(reverse("dashboard-jobs")).status_code == 200
        return len(captured)

    add_rows(1)
    few = queries()
    add_rows(2)
    assert queries() == few
