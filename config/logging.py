"""Structured logs: one JSON object per line, the same shape from Django, gunicorn and Celery.

Every line has ``time`` (UTC, ISO 8601), ``level``, ``logger`` and ``message``; a line
logged while a request is served carries its ``request_id`` (``RequestIdMiddleware``),
one logged inside a Celery task its ``task_id`` and ``task_name``, and one with an
exception its ``exc``. Used by settings.LOGGING (``LOG_FORMAT=json``), by
config/gunicorn.py and, through ``celery.signals.setup_logging``, by Celery's worker
and beat.
"""

from __future__ import annotations

import contextvars
import json
import logging
import re
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # settings import this module: keep it free of Django imports
    from django.http import HttpRequest, HttpResponse

#: the id of the request being served in this thread (empty outside a request)
request_id: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="")

#: an incoming X-Request-ID is kept (a proxy's id ties its log to ours) only when it
#: looks like an id: anything else could smuggle text into the logs
_SAFE_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")

#: gunicorn's access-log atoms worth a field of their own (see gunicorn's glogging)
_ACCESS_ATOMS = {
    "m": "method",
    "U": "path",
    "q": "query",
    "s": "status",
    "b": "bytes",
    "h": "remote",
    "a": "user_agent",
}


def _current_task() -> Any:
    """The Celery task executing in this process, if any (cheap: no import when Celery
    is not loaded)."""
    import sys

    state = sys.modules.get("celery._state")
    return state.get_current_task() if state is not None else None


class ContextFilter(logging.Filter):
    """Adds ``request_id``, ``task_id`` and ``task_name`` to every record (empty when
    there is none), so text and JSON formats can both show them."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = request_id.get()
        if not hasattr(record, "task_id"):
            task = _current_task()
            request = getattr(task, "request", None)
            record.task_id = getattr(request, "id", None) or ""
            record.task_name = (getattr(task, "name", None) or "") if record.task_id else ""
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "pid": record.process,
        }
        for field in ("request_id", "task_id", "task_name"):
            value = getattr(record, field, "")
            if value:
                entry[field] = value
        if record.name == "gunicorn.access" and isinstance(record.args, dict):
            atoms = record.args
            for atom, field in _ACCESS_ATOMS.items():
                entry[field] = atoms.get(atom)
            entry["duration_ms"] = round(int(atoms.get("D") or 0) / 1000, 2)
            entry["request_id"] = atoms.get("{x-request-id}o") or entry.get("request_id")
        for field in getattr(record, "fields", None) or {}:
            entry[field] = record.fields[field]
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["exc"] = record.exc_text
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, default=str, ensure_ascii=False)


class TextFormatter(logging.Formatter):
    """The development format: readable, with the request or task id when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        where = getattr(record, "request_id", "") or getattr(record, "task_id", "")
        return f"{line} [{where}]" if where else line


def logging_config(log_format: str, level: str) -> dict[str, Any]:
    """settings.LOGGING for ``log_format`` "json" or "text"."""
    formatter = (
        {"()": "config.logging.JsonFormatter"}
        if log_format == "json"
        else {
            "()": "config.logging.TextFormatter",
            "format": "%(asctime)s %(levelname)s %(name)s: %(message)s",
        }
    )
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"context": {"()": "config.logging.ContextFilter"}},
        "formatters": {"main": formatter},
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "formatter": "main",
                "filters": ["context"],
            }
        },
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            # Django's own request logger repeats what lantern.request says; keep its errors.
            "django.server": {"level": "WARNING"},
            # Celery's own loggers would otherwise add a second handler of theirs.
            "celery": {"level": level},
            # django-axes says "Deleted 0 failed login attempts" at every sign-in.
            "axes": {"level": "WARNING"},
        },
    }


request_log = logging.getLogger("lantern.request")


class RequestIdMiddleware:
    """Gives every request an id (the proxy's X-Request-ID when it looks like one, else
    a new one), returns it as X-Request-ID, and logs one line per request with method,
    path, status and duration."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        incoming = request.headers.get("X-Request-ID", "")
        rid = incoming if _SAFE_REQUEST_ID.match(incoming) else uuid.uuid4().hex
        request.request_id = rid
        token = request_id.set(rid)
        started = time.perf_counter()
        try:
            response = self.get_response(request)
            response["X-Request-ID"] = rid
            request_log.info(
                "%s %s %s",
                request.method,
                request.path,
                response.status_code,
                extra={
                    "fields": {
                        "method": request.method,
                        "path": request.path,
                        "status": response.status_code,
                        "duration_ms": round((time.perf_counter() - started) * 1000, 2),
                    }
                },
            )
            return response
        finally:
            request_id.reset(token)
