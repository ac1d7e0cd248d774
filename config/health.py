"""/healthz: is the database reachable, and Redis when it is configured."""

from __future__ import annotations

import time

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET


def check_database() -> dict[str, object]:
    started = time.perf_counter()
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any failure means unhealthy; report it, don't raise
        return {"ok": False, "vendor": connection.vendor, "error": str(exc)}
    return {
        "ok": True,
        "vendor": connection.vendor,
        "ms": round((time.perf_counter() - started) * 1000, 2),
    }


def check_redis(url: str) -> dict[str, object]:
    import redis

    started = time.perf_counter()
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2)
        client.ping()
    except Exception as exc:
        return {"ok": False, "error": str(exc)}
    return {"ok": True, "ms": round((time.perf_counter() - started) * 1000, 2)}


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    checks: dict[str, dict[str, object]] = {"database": check_database()}
    if settings.REDIS_URL:
        checks["redis"] = check_redis(settings.REDIS_URL)
    ok = all(check["ok"] for check in checks.values())
    return JsonResponse({"ok": ok, "checks": checks}, status=200 if ok else 503)
