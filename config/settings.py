"""Lantern settings, read from the environment (12-factor).

DATABASE_URL   default: SQLite file db.sqlite3 in the project
REDIS_URL      default: none -> Celery runs tasks eagerly in process, cache is local memory
SECRET_KEY     required when DEBUG is off; a development key is used only with DEBUG on
DEBUG          default on (development); production sets DEBUG=0
ALLOWED_HOSTS  comma-separated; default localhost names with DEBUG on, none otherwise
LANTERN_SHARED_DIR  the shared/ folder (rules, example logs); default <project>/../shared
"""

import os
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured

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

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "django-insecure-lantern-development-key-never-use-in-production"

ALLOWED_HOSTS = env_list(
    "ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"] if DEBUG else []
)
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])


def default_shared_dir() -> Path:
    """<project>/../shared; failing that, the nearest shared/ beside an ancestor folder
    (a git worktree at /work/wt/NAME finds /work/shared)."""
    for folder in BASE_DIR.parents:
        if (folder / "shared").is_dir():
            return folder / "shared"
    return BASE_DIR.parent / "shared"


LANTERN_SHARED_DIR = Path(os.environ.get("LANTERN_SHARED_DIR") or default_shared_dir()).resolve()

INSTALLED_APPS = [
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
    "accounts",
    "dashboard",
    "clubs",
    "games",
    "ladder",
    "replay",
    "tournaments",
    "recorder",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

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
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}

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

LANGUAGE_CODE = "en-us"
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
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or "cache+memory://"
# Without Redis there is no worker: tasks run in the caller's process and raise there.
CELERY_TASK_ALWAYS_EAGER = REDIS_URL is None
CELERY_TASK_EAGER_PROPAGATES = REDIS_URL is None
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
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
}

# --- API ---------------------------------------------------------------------
REST_FRAMEWORK = {
    # Token first: a bad token then gets 401 with WWW-Authenticate, not a bare 403.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Lantern API",
    "DESCRIPTION": "Clubs, players, match logs (lantern-log/1), replays, ladders.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Several resources have a "status"; give each set of choices its own name.
    "ENUM_NAME_OVERRIDES": {
        "MatchStatusEnum": "games.models.Match.Status",
        "UploadStatusEnum": "games.models.Upload.Status",
        "ImportStatusEnum": "games.models.Import.Status",
        "DraftStatusEnum": "recorder.models.Draft.Status",
        "DraftChanceEnum": "recorder.models.Draft.Chance",
    },
}

# --- Uploads (games.services) ------------------------------------------------
# One log: larger bodies are refused with 413 before they are read.
LANTERN_MAX_LOG_BYTES = int(os.environ.get("LANTERN_MAX_LOG_BYTES", 2 * 1024 * 1024))
# Uploads and imports per user (DRF throttle rate syntax).
LANTERN_UPLOAD_RATE = os.environ.get("LANTERN_UPLOAD_RATE", "60/min")

# --- Production hardening (only when DEBUG is off) ---------------------------
if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_CONTENT_TYPE_NOSNIFF = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
