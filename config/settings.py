"""Lantern settings, read from the environment (12-factor).

DATABASE_URL   default: SQLite file db.sqlite3 in the project
REDIS_URL      default: none -> Celery runs tasks eagerly in process, cache is local memory
SECRET_KEY     required when DEBUG is off; a development key is used only with DEBUG on
DEBUG          default on (development); production sets DEBUG=0
ALLOWED_HOSTS  comma-separated; default localhost names with DEBUG on, none otherwise
LOG_FORMAT     json (one object per line) or text; default text with DEBUG on, json otherwise
LOG_LEVEL      default INFO
With DEBUG off (production), HTTPS hardening; see "Production hardening" below:
LANTERN_HTTPS  default on: the site is served over HTTPS (directly or behind a TLS proxy)
SECURE_SSL_REDIRECT, SECURE_COOKIES, SECURE_HSTS_SECONDS, SECURE_HSTS_INCLUDE_SUBDOMAINS,
SECURE_HSTS_PRELOAD  each defaults from LANTERN_HTTPS
"""

import logging
import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured
from kombu import Queue

from config.logging import logging_config

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)

#: `make run`'s key: in this repository for all to read, so never one a served site signs with
DEVELOPMENT_SECRET_KEY = "django-insecure-lantern-development-key-never-use-in-production"
SECRET_KEY = os.environ.get("SECRET_KEY", "").strip()
if not DEBUG and SECRET_KEY in ("", DEVELOPMENT_SECRET_KEY):
    raise ImproperlyConfigured(
        "SECRET_KEY must be set when DEBUG is off"
        + (" (to a key of its own, not the development one)" if SECRET_KEY else "")
        + ": set the environment variable SECRET_KEY to a long random string, e.g. the output of "
        "python -c 'import secrets; print(secrets.token_urlsafe(50))' (make prod generates "
        "one into var/secret_key)"
    )
SECRET_KEY = SECRET_KEY or DEVELOPMENT_SECRET_KEY

ALLOWED_HOSTS = env_list(
    "ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"] if DEBUG else []
)
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])


INSTALLED_APPS = [
    # First: its runserver serves the ASGI application (websockets too), so `make run`
    # plays online with one command.
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI served by the site itself
    "axes",
    "csp",
    "channels",
    "accounts",
    "dashboard",
    "clubs",
    "games",
    "ladder",
    "replay",
    "tournaments",
    "recorder",
    "live",
    "reference",
    "analysis",
    "pages",
]

MIDDLEWARE = [
    "config.logging.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "config.middleware.RefuseNulCharactersMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # After the session and the user: the language is the URL's ?lang=, then the account's,
    # then the cookie, then Accept-Language (accounts/middleware.py); then the time zone.
    "accounts.middleware.LanguageMiddleware",
    "accounts.middleware.TimeZoneMiddleware",
    # Before any view (and CSRF's check) reads a body it would take for empty.
    "config.request_body.RefuseChunkedBodiesMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    # Last, as django-axes asks: it turns a locked-out sign-in into its 429 answer.
    "axes.middleware.AxesMiddleware",
]

# --- sign-in throttling (django-axes) ---------------------------------------------------
# Failed sign-ins are counted per user name and address together, so someone guessing
# a member's password from elsewhere does not lock the member out of their own
# address. After the limit the pair is refused for the cool-off, with 429.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    # Django's ModelBackend, refusing the demo accounts' public password with DEBUG off.
    "pages.demo.DemoPasswordBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("LANTERN_LOGIN_FAILURES", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("LANTERN_LOGIN_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_HTTP_RESPONSE_CODE = 429
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_VERBOSE = False
# Only failures are recorded: the site's sign-ins are not logged row by row.
AXES_DISABLE_ACCESS_LOG = True

# --- Content-Security-Policy (django-csp) -------------------------------------------------
# The site's pages load only their own scripts (ES modules), styles and images; page data
# reaches scripts as json_script blocks (type application/json, never executed). The API's
# documentation page passes it too: Swagger UI is served by the site
# (drf-spectacular-sidecar), its start-up script is a file (config.urls).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "config.zones.context",
            ],
            "libraries": {"times": "config.times"},
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"
# Websockets (live/): Django Channels on Daphne.
ASGI_APPLICATION = "config.asgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # `make run`: several requests write at once (six identical uploads). A deferred
    # transaction that reads, then writes, cannot wait for the lock another writer holds
    # ("database is locked" at once, a 500); IMMEDIATE takes the write lock when the
    # transaction begins, so writers queue for up to `timeout` seconds instead. WAL lets
    # readers go on meanwhile.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )

# Lets concurrent test runs on one PostgreSQL server use separate test databases.
if os.environ.get("DATABASE_TEST_NAME"):
    DATABASES["default"]["TEST"] = {"NAME": os.environ["DATABASE_TEST_NAME"]}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# English is the source language; Japanese and Russian catalogs live in locale/ (compiled
# .mo files committed, so the site speaks them without gettext installed).
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("ja", "日本語"),
    ("ru", "Русский"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Dates in each language's own form (pages use SHORT_DATE_FORMAT / SHORT_DATETIME_FORMAT).
FORMAT_MODULE_PATH = ["config.formats"]
LANGUAGE_COOKIE_NAME = "django_language"
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "profile"
LOGOUT_REDIRECT_URL = "index"

# --- E-mail (password reset) -------------------------------------------------
# Console by default: the reset link is printed in the server's log. Set EMAIL_HOST
# (and EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS) for SMTP.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
)
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Lantern <lantern@localhost>")

# --- Redis: cache and Celery -------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "").strip() or None

if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "config.cache.RedisCache",
            "LOCATION": REDIS_URL,
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# The channel layer of the live tables (live/): a push between processes goes through
# Redis; without REDIS_URL one process serves everything, so its memory is enough.
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                # A socket's consumer waits on the layer with a blocking pop of 5 s; redis-py 8
                # gives up reading after 5 s by default, which tore every idle socket down.
                "hosts": [{"address": REDIS_URL, "socket_timeout": 30}],
                "prefix": "lantern-live",
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
# Where the table page opens its websocket: empty, the page's own host; `make prod` sets
# it to Daphne's port (LIVE_PORT) when no proxy routes /ws/ there (docs/operations.md).
# Several origins, comma-separated (`make prod` with LIVE_PROCESSES above 1): each table's
# sockets go to one of them, chosen by the table's id (live.views.socket_origin).
LIVE_SOCKET_ORIGIN = os.environ.get("LIVE_SOCKET_ORIGIN", "").strip()
# Absence and idle tables (docs/live.md, "Clocks and absence"): a seat gone from a
# real-time or untimed table this many seconds may be claimed by the other side; a table
# nobody moves at for this many seconds ends without a result (LIVE-1.6).
LIVE_ABSENCE_GRACE = int(os.environ.get("LIVE_ABSENCE_GRACE", "120"))
LIVE_IDLE_AFTER = int(os.environ.get("LIVE_IDLE_AFTER", str(24 * 3600)))

CELERY_BROKER_URL = REDIS_URL or "memory://"
if REDIS_URL and REDIS_URL.startswith("redis://"):
    # Kombu's Redis transport, keeping the client it sends with (config/broker.py).
    CELERY_BROKER_TRANSPORT = "config.broker:Transport"
CELERY_RESULT_BACKEND = REDIS_URL or "cache+memory://"
# Without Redis there is no worker: tasks run in the caller's process and raise there.
CELERY_TASK_ALWAYS_EAGER = REDIS_URL is None
CELERY_TASK_EAGER_PROPAGATES = REDIS_URL is None
# ... except these, which take minutes: without a worker they run in a thread beside the
# request that queued them (config.queueing), so the page answers and shows their progress.
LANTERN_EAGER_BESIDE: tuple[str, ...] = ("analysis.analyse_match",)
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Celery's Django fixup closes every database connection before and after every task
# unless this is set: a new PostgreSQL connection (a new server process, authentication,
# cold catalog caches) per rating task. With it set that high the fixup never closes
# one; config.celery instead treats a task like a request (close_old_connections
# before and after it), so CONN_MAX_AGE and the health checks apply as on the web.
CELERY_DB_REUSE_MAX = 1_000_000_000
# Queues: `ingest` (bulk imports, revalidation: replaying logs), `ratings` (rating and
# recomputing ladders), `analysis` (match analysis: minutes of CPU per match, so it may
# get machines of its own), `celery` (the rest). A worker started without -Q consumes all
# four; on several hosts, `celery -A config worker -Q ingest` / `-Q ratings` /
# `-Q analysis` split them.
# Ratings need no queue of their own for correctness: ladder.services locks the ladder
# row, so workers on any number of hosts never rate one ladder at once.
CELERY_TASK_DEFAULT_QUEUE = "celery"
# Each queue with a routing key of its own: bound with Celery's default key, a task
# sent to one queue would be delivered to all three.
CELERY_TASK_QUEUES = [
    Queue(name, routing_key=name) for name in ("celery", "ingest", "ratings", "analysis")
]
CELERY_TASK_ROUTES = {
    "games.run_import": {"queue": "ingest"},
    "games.requeue_queued_imports": {"queue": "ingest"},
    "games.revalidate": {"queue": "ingest"},
    "ladder.*": {"queue": "ratings"},  # rate, recompute, requeue unrated matches
    "replay.*": {"queue": "ingest"},  # frames of long matches built once they are stored
    "analysis.*": {"queue": "analysis"},
}
# Tasks acknowledged late (ladder.tasks) stay in Redis until they finish; when a whole
# worker dies, another worker takes them back once they have been out this long. It
# must exceed the longest task (a full recompute), or a running task is handed out twice.
# Socket timeouts bound a send when Redis hangs (a refused connection fails at once).
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "3600")),
    "socket_timeout": 10,
    "socket_connect_timeout": 5,
}
# `celery -A config beat`: periodic tasks.
CELERY_BEAT_SCHEDULE = {
    # Every ladder recomputed from its matches (ratings.md, EL-1.3), at a quiet hour.
    "ladder-nightly-recompute": {
        "task": "ladder.recompute_all_ladders",
        "schedule": crontab(hour=3, minute=17),
    },
    # Matches and imports whose task was lost (Redis down when they were stored).
    "ladder-requeue-unrated": {"task": "ladder.requeue_unrated_matches", "schedule": 300.0},
    "games-requeue-queued-imports": {"task": "games.requeue_queued_imports", "schedule": 300.0},
    # Recomputes whose worker died: marked failed and queued again, a bounded number of times.
    "ladder-retry-stalled": {"task": "ladder.retry_stalled_recomputes", "schedule": 300.0},
    # Live tables whose clock fell or that went idle with no countdown queued (a later
    # moment than a countdown is given for, or Redis down when it was sent).
    "live-settle-due-tables": {"task": "live.settle_due_tables", "schedule": 60.0},
    # Analyses whose worker died, or whose task was lost.
    "analysis-requeue-stalled": {"task": "analysis.requeue_stalled", "schedule": 300.0},
    # Automatic analyses waiting for their club's next day: started once it has begun (in
    # the club's time zone), oldest first, within the day's budget.
    "analysis-start-waiting": {"task": "analysis.start_waiting", "schedule": 300.0},
}

# --- API ---------------------------------------------------------------------
REST_FRAMEWORK = {
    # Token first: a bad token then gets 401 with WWW-Authenticate, not a bare 403.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.TokenAuthentication",  # DRF's, with a cheaper look-up
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # DRF's three, with JSON that refuses absurd nesting as a 400 (not a RecursionError).
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "config.api.parsers.BrowsableAPIRenderer",
    ],
    "DEFAULT_PARSER_CLASSES": [
        "config.api.parsers.BoundedJSONParser",
        "config.api.parsers.StrictFormParser",
        "config.api.parsers.StrictMultiPartParser",
    ],
    # Every API error in one shape, {"error", "index", "rule", "message"}, whichever app.
    "EXCEPTION_HANDLER": "config.api.errors.lantern_exception_handler",
    # Documents the errors every operation can answer (401 bad token, 404 unknown id, ...).
    "DEFAULT_SCHEMA_CLASS": "config.api.schema.LanternAutoSchema",
    "DEFAULT_PAGINATION_CLASS": "config.api.pagination.LanternPageNumberPagination",
    "PAGE_SIZE": 50,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Lantern API",
    "DESCRIPTION": "Clubs, players, match logs (lantern-log/1), replays, ladders.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI from the site (drf-spectacular-sidecar), not from a CDN: the page stays
    # within the site's Content-Security-Policy, and works offline.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    # ReDoc (/api/redoc/) from the site too; its page's policy: config.urls REDOC_CSP.
    "REDOC_DIST": "SIDECAR",
    # No badge from the public validator (a request to another site, refused by the CSP).
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
    # The <slug:...> converter's real constraint, so clients (and schemathesis) know it.
    # <id:...> (config/converters.py) is an integer of at most 18 digits.
    "PATH_CONVERTER_OVERRIDES": {
        "slug": {"type": "string", "pattern": "^[-a-zA-Z0-9_]+$"},
        "id": {"type": "integer", "format": "int64", "minimum": 0, "maximum": 10**18 - 1},
    },
    # Several resources have a "status"; give each set of choices its own name.
    "ENUM_NAME_OVERRIDES": {
        "MatchStatusEnum": "games.models.Match.Status",
        "UploadStatusEnum": "games.models.Upload.Status",
        "ImportStatusEnum": "games.models.Import.Status",
        "DraftStatusEnum": "recorder.models.Draft.Status",
        "DraftChanceEnum": "recorder.models.Draft.Chance",
        "TableStatusEnum": "live.models.Table.Status",
    },
    # A request's component apart from its answer's, so what only a request must be is
    # said (a text that may not be blank: minLength 1).
    "COMPONENT_SPLIT_REQUEST": True,
    # After drf-spectacular's own: no text the API reads may hold a NUL (config.api.schema).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "config.api.schema.no_nul_in_text",
    ],
}

# --- Uploads (games.services) ------------------------------------------------
# One log: larger bodies are refused with 413 before they are read.
LANTERN_MAX_LOG_BYTES = int(os.environ.get("LANTERN_MAX_LOG_BYTES", 2 * 1024 * 1024))
# Django refuses larger form and JSON bodies before anything parses them (413 under /api/,
# config.errors): its default (2.5 MB), or a whole log inside a JSON body, if larger.
DATA_UPLOAD_MAX_MEMORY_SIZE = max(2_621_440, LANTERN_MAX_LOG_BYTES + 64 * 1024)
# Uploads and imports per user (DRF throttle rate syntax).
LANTERN_UPLOAD_RATE = os.environ.get("LANTERN_UPLOAD_RATE", "60/min")

# --- Fair share (docs/fair-share.md) --------------------------------------------
# What one person or club may take of the machine; past a budget a request is answered
# 429 with Retry-After and a sentence saying the limit and when to try again.
# Per person: analyses queued or running at once; games against a bot open at once;
# moves bots make for them per minute.
LANTERN_ANALYSES_AT_ONCE = int(os.environ.get("LANTERN_ANALYSES_AT_ONCE", "3"))
LANTERN_BOT_DRAFTS_OPEN = int(os.environ.get("LANTERN_BOT_DRAFTS_OPEN", "3"))
LANTERN_BOT_MOVES_PER_MINUTE = int(os.environ.get("LANTERN_BOT_MOVES_PER_MINUTE", "120"))
# Messages a live table's socket may send (live.socket_limits, docs/live.md): each socket
# SOCKET_BURST at once then SOCKET_PER_SECOND a second; each person MESSAGES_PER_MINUTE
# over all their sockets, counted in the cache (Redis with REDIS_URL).
LANTERN_LIVE_SOCKET_BURST = int(os.environ.get("LANTERN_LIVE_SOCKET_BURST", "30"))
LANTERN_LIVE_SOCKET_PER_SECOND = int(os.environ.get("LANTERN_LIVE_SOCKET_PER_SECOND", "10"))
LANTERN_LIVE_MESSAGES_PER_MINUTE = int(os.environ.get("LANTERN_LIVE_MESSAGES_PER_MINUTE", "600"))
# Per club: CPU seconds a (UTC) day of automatic analysis; matches past it are not
# analysed automatically (the club page says how many), members may still ask.
LANTERN_CLUB_ANALYSIS_SECONDS_PER_DAY = int(
    os.environ.get("LANTERN_CLUB_ANALYSIS_SECONDS_PER_DAY", "1800")
)
# Per analysis: playouts per estimate (engine.ANALYSIS_BUDGET), cut down to
# no fewer than LANTERN_ANALYSIS_MIN_BUDGET for a log whose plies x (seats + 1) x budget
# would pass LANTERN_ANALYSIS_MAX_WORK work units; a longer log is not analysed.
if os.environ.get("LANTERN_ANALYSIS_BUDGET"):
    LANTERN_ANALYSIS_BUDGET = int(os.environ["LANTERN_ANALYSIS_BUDGET"])
LANTERN_ANALYSIS_MAX_WORK = int(os.environ.get("LANTERN_ANALYSIS_MAX_WORK", "60000"))
LANTERN_ANALYSIS_MIN_BUDGET = int(os.environ.get("LANTERN_ANALYSIS_MIN_BUDGET", "4"))
# CPU seconds per work unit, until a game's own analyses have been measured (analysis 5,
# bench/analysis_trust.py on one core: Cloak & Dagger 0.004, Mister X 0.0065, Cryptid
# 0.0077: each seat's own chance is played on several batches of worlds).
LANTERN_ANALYSIS_SECONDS_PER_UNIT = float(
    os.environ.get("LANTERN_ANALYSIS_SECONDS_PER_UNIT", "0.008")
)
# Per analysis: its chunks sent to the `analysis` queue or running at once; each chunk
# stored sends the next (analysis.services), so another person's analysis waits behind at
# most this many chunks of each analysis ahead of it, not all of them. 2: as many as the
# analysis workers of a two-core host (bench/analysis_workers.py), so one game alone still
# keeps two workers busy; `make prod` runs one (ANALYSIS_CONCURRENCY).
LANTERN_ANALYSIS_CHUNKS_AT_ONCE = max(
    1, int(os.environ.get("LANTERN_ANALYSIS_CHUNKS_AT_ONCE", "2"))
)

# --- Production hardening (only when DEBUG is off) ---------------------------
# `manage.py check --deploy` is clean with the defaults (tests/test_deploy.py). The site
# is assumed to be served over HTTPS, by itself or behind a TLS-terminating proxy that
# sets X-Forwarded-Proto. LANTERN_HTTPS=0 is for plain http on loopback (`make prod`):
# no redirect to https, cookies without Secure (a browser would not send them back
# over http), no HSTS. Each switch can also be set on its own.
if not DEBUG:
    LANTERN_HTTPS = env_bool("LANTERN_HTTPS", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", LANTERN_HTTPS)
    # Load balancers probe over plain http.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", LANTERN_HTTPS)
    CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", LANTERN_HTTPS)
    LANGUAGE_COOKIE_SECURE = env_bool("SECURE_COOKIES", LANTERN_HTTPS)
    SESSION_COOKIE_HTTPONLY = True
    # Sent only on https responses; a year, as check --deploy asks. Start lower
    # (SECURE_HSTS_SECONDS=3600) when moving an existing site to https.
    SECURE_HSTS_SECONDS = int(
        os.environ.get("SECURE_HSTS_SECONDS") or (31536000 if LANTERN_HTTPS else 0)
    )
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", LANTERN_HTTPS)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", LANTERN_HTTPS)
    SECURE_CONTENT_TYPE_NOSNIFF = True

LOG_FORMAT = os.environ.get("LOG_FORMAT", "text" if DEBUG else "json").strip().lower()
LOGGING = logging_config(LOG_FORMAT, os.environ.get("LOG_LEVEL", "INFO"))
if LOG_FORMAT == "json":
    # Python warnings (e.g. Celery's when run as root) become log lines too.
    logging.captureWarnings(True)
