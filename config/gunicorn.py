"""gunicorn settings for `make prod` (scripts/prod.sh): `gunicorn -c config/gunicorn.py`.

Environment: GUNICORN_BIND (default 127.0.0.1:$PORT, PORT default 8000),
WEB_CONCURRENCY (worker processes, default one per CPU, at least 2), GUNICORN_THREADS
(threads per worker, default 6), GUNICORN_TIMEOUT (seconds, default 30), GUNICORN_ACCESS_LOG=1
for gunicorn's own access log (Django already logs every request, with its id, as
logger lantern.request). Logs are JSON lines like Django's and Celery's.
"""

import gc
import multiprocessing
import os

wsgi_app = "config.wsgi:application"
bind = os.environ.get("GUNICORN_BIND") or f"127.0.0.1:{os.environ.get('PORT', '8000')}"
# One process per CPU, six threads each. Requests here are short and mostly Python: more
# processes than CPUs only fight over them (bench/load, 2 CPUs, mixed reads and uploads:
# 5 x 4 served 192 reads/s and 30 uploads/s, 3 x 4 232 and 38, 2 x 6 245-284 and 31-37).
workers = int(os.environ.get("WEB_CONCURRENCY") or max(2, multiprocessing.cpu_count()))
# Threads: a worker keeps serving while one request waits on PostgreSQL or Redis, and
# keep-alive connections (which sync workers refuse) are served.
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS") or 6)
# A request running longer than this is killed with its worker (and logged): uploads are
# bounded by LANTERN_MAX_LOG_BYTES, so nothing legitimate comes near it.
timeout = int(os.environ.get("GUNICORN_TIMEOUT") or 30)
graceful_timeout = 20
keepalive = 5
# Recycle workers now and then, so a slow leak can never grow without bound. Not often:
# a recycled worker closes its keep-alive connections (clients see them reset) and the
# new one pays its start-up; 5,000 recycled each worker every minute or two under
# bench/load's traffic.
max_requests = 50_000
max_requests_jitter = 5_000
# Request line and headers: well above any real client, far below abuse.
limit_request_line = 8190
limit_request_fields = 100
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
proc_name = "lantern-web"

access_log_on = os.environ.get("GUNICORN_ACCESS_LOG", "") in {"1", "true", "yes"}
accesslog = "-" if access_log_on else None
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s %(D)sus %({x-request-id}o)s'
errorlog = "-"
logconfig_dict = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": "config.logging.JsonFormatter"}},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "json",
            "stream": "ext://sys.stderr",
        },
    },
    "loggers": {
        "gunicorn.error": {"level": "INFO", "handlers": ["console"], "propagate": False},
        # With a logconfig_dict gunicorn always calls its access logger: the level decides.
        "gunicorn.access": {
            "level": "INFO" if access_log_on else "WARNING",
            "handlers": ["console"],
            "propagate": False,
        },
    },
}


def post_worker_init(worker) -> None:
    """Freeze what the worker loaded at start-up (modules, URLconf, engine data): it
    lives as long as the process, so a full garbage collection need not scan it in the
    middle of a request (bench/recorder_steps.py: worst step about 120-180 ms without,
    52 ms with ``--freeze-gc``)."""
    gc.freeze()
