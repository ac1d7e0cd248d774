"""What the operator dashboard reads. Each function is one question an operator asks."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import Count
from django.db.models.functions import TruncDate
from django.utils import timezone

from config.health import check_redis
from games.models import Match


def uploads_per_day(days: int = 30) -> tuple[list[date], dict[str, list[int]]]:
    """Matches stored per day and game over the last ``days`` days (oldest first)."""
    today = timezone.localdate()
    first = today - timedelta(days=days - 1)
    rows = (
        Match.objects.filter(uploaded_at__date__gte=first)
        .annotate(day=TruncDate("uploaded_at"))
        .values("day", "game")
        .annotate(n=Count("id"))
    )
    day_list = [first + timedelta(days=i) for i in range(days)]
    index = {d: i for i, d in enumerate(day_list)}
    series: dict[str, list[int]] = {}
    for row in rows:
        counts = series.setdefault(row["game"], [0] * days)
        if row["day"] in index:
            counts[index[row["day"]]] += row["n"]
    return day_list, dict(sorted(series.items()))


def database_size() -> dict[str, Any]:
    """Bytes used by the database, by the vendor's own measure."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT pg_database_size(current_database())")
            size = cursor.fetchone()[0]
        elif connection.vendor == "sqlite":
            cursor.execute("PRAGMA page_count")
            pages = cursor.fetchone()[0]
            cursor.execute("PRAGMA page_size")
            size = pages * cursor.fetchone()[0]
        else:
            size = None
    return {"vendor": connection.vendor, "bytes": size}


def queue_health() -> dict[str, Any]:
    """Redis and the Celery workers: reachable, and who answers a ping."""
    if not settings.REDIS_URL:
        return {
            "mode": "eager",
            "redis": None,
            "workers": [],
            "note": "No REDIS_URL: tasks run in the web process; there is no worker to watch.",
        }
    from config.celery import app

    redis_check = check_redis(settings.REDIS_URL)
    workers: list[str] = []
    error = None
    if redis_check["ok"]:
        try:
            replies = app.control.inspect(timeout=1.0).ping() or {}
            workers = sorted(replies)
        except Exception as exc:  # a broker hiccup is something to show, not to crash on
            error = str(exc)
    return {"mode": "redis", "redis": redis_check, "workers": workers, "error": error}
