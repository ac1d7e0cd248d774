"""Shared fixtures and the rules for integration tests.

Integration tests (marker ``integration``) need real services. They are skipped,
with the reason shown, when DATABASE_URL / REDIS_URL do not point at them —
unless LANTERN_REQUIRE_SERVICES=1 (set by .ci/run), where a missing service fails.
"""

from __future__ import annotations

import os
import random
import secrets
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

from tests.examples import load_example

# Moderate example counts by default; HYPOTHESIS_PROFILE=thorough for long runs.
hypothesis_settings.register_profile(
    "default", max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
hypothesis_settings.register_profile(
    "thorough", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def services_required() -> bool:
    return os.environ.get("LANTERN_REQUIRE_SERVICES", "").lower() in {"1", "true", "yes"}


def skip_or_fail(reason: str) -> None:
    """Skip with a visible reason; in CI (services required) fail instead."""
    if services_required():
        pytest.fail(f"LANTERN_REQUIRE_SERVICES is set but {reason}")
    pytest.skip(reason)


@pytest.fixture(autouse=True)
def _isolated_from_real_services(request: pytest.FixtureRequest):
    """Every test except the integration ones runs as without REDIS_URL: Celery tasks
    eager in the test process (so they see the test database and raise into the test),
    and a local-memory cache (so no cached entry leaks between tests or runs). Under
    .ci/run a real worker is listening, but it works on the real database, not the
    test one, so only integration tests may send it anything."""
    if request.node.get_closest_marker("integration"):
        yield
        return
    from django.core.cache import caches
    from django.test import override_settings

    from config.celery import app

    saved = (app.conf.task_always_eager, app.conf.task_eager_propagates)
    app.conf.task_always_eager = True
    app.conf.task_eager_propagates = True
    locmem = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    # Every eager task runs inside the call that queued it, so a test sees its effect at
    # once (the threads of `make run` are tested on their own, tests/test_queueing.py).
    with override_settings(CACHES=locmem, LANTERN_EAGER_BESIDE=()):
        caches["default"].clear()
        try:
            yield
        finally:
            app.conf.task_always_eager, app.conf.task_eager_propagates = saved


@pytest.fixture(autouse=True)
def _deals_of_the_test(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The server deals (a live table's, a recorder draft's with the server's chance) from
    a sequence of seeds of the test's own name, so a run repeats: with random moves some
    deals end a game in a few moves (Mister X caught) or run past the longest log a table
    may hold (LOG-LENGTH). Successive deals of one test still differ; a test that needs a
    given deal sets its own."""
    dealer = random.Random(zlib.crc32(request.node.nodeid.encode()))
    monkeypatch.setattr(secrets, "randbelow", lambda limit: dealer.randrange(limit))


@pytest.fixture(autouse=True)
def _players_at_machine_speed(settings) -> None:
    """Tests play and ask at machine speed: the per-person budgets of docs/fair-share.md
    (made for people) are lifted, except where a test sets one (tests/*/test_fair_share.py).
    The live sockets' limits are not: the pages of the browser tests, at machine speed,
    must not meet them (docs/live.md, "How fast a socket may send")."""
    settings.LANTERN_BOT_MOVES_PER_MINUTE = 10**6
    settings.LANTERN_BOT_DRAFTS_OPEN = 10**6
    settings.LANTERN_ANALYSES_AT_ONCE = 10**6


@pytest.fixture
def require_postgres() -> None:
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        skip_or_fail("DATABASE_URL does not point at PostgreSQL")


@pytest.fixture
def require_redis() -> str:
    if not settings.REDIS_URL:
        skip_or_fail("REDIS_URL is not set")
    return settings.REDIS_URL


@pytest.fixture(scope="session")
def example_log():
    """Load one of docs/examples/*.json by file name (a fresh copy each time)."""
    return load_example


@pytest.fixture
def user(django_user_model):
    return django_user_model.objects.create_user(username="ada", password="pw-for-tests-only")


@pytest.fixture
def fox_hunt() -> Iterator[Any]:
    """The toy fourth game of tests/toy_game.py, registered with the engine for one test."""
    from engine.ai.registry import register_ai, unregister_ai
    from engine.core import registry
    from tests.toy_game import FoxHunt, FoxHuntAI

    game = registry.register(FoxHunt())
    register_ai(FoxHuntAI(game))
    yield game
    unregister_ai(game.id)
    registry.unregister(game.id)


@pytest.fixture
def club(db):
    from clubs.models import Club

    return Club.objects.create(name="Riverside Deduction Society", slug="riverside")


# --- A visible account of the integration tests at the end of every run ----------
_integration_outcomes: dict[str, str] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if "integration" not in report.keywords:
        return
    if report.when == "call" or report.outcome != "passed":
        outcome = report.outcome
        if report.skipped and isinstance(report.longrepr, tuple):
            outcome = f"skipped ({report.longrepr[2].removeprefix('Skipped: ')})"
        _integration_outcomes[report.nodeid] = outcome


def pytest_terminal_summary(terminalreporter) -> None:
    if not _integration_outcomes:
        return
    terminalreporter.section("integration tests (real PostgreSQL / Redis / Celery worker)")
    database = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    redis = urlsplit(settings.REDIS_URL) if settings.REDIS_URL else None
    where = f"{redis.hostname}:{redis.port}{redis.path}" if redis else "unset"  # no password
    terminalreporter.write_line(f"database: {database}; Redis: {where}")
    for nodeid, outcome in sorted(_integration_outcomes.items()):
        terminalreporter.write_line(
            f"{outcome.upper() if outcome in {'passed', 'failed'} else outcome}: {nodeid}"
        )


@pytest.fixture
def celery_worker_queue(require_redis, require_postgres):
    """A real Celery worker (a thread of this process, so it uses the test database)
    consuming a queue of its own from the Redis broker."""
    from celery.contrib.testing.worker import start_worker

    from config.celery import app

    assert app.conf.task_always_eager is False
    queue = f"lantern-test-{os.getpid()}"
    with start_worker(
        app, pool="solo", perform_ping_check=False, queues=[queue], shutdown_timeout=20
    ):
        yield queue


def route_tasks(routes: Any) -> None:
    """Set Celery's task_routes for this process (e.g. to a test worker's queue)."""
    from config.celery import app

    # The router is built once per app (cached): rebuild it for the new routes.
    app.conf.task_routes = routes
    app.amqp.flush_routes()
    app.amqp.__dict__.pop("router", None)


@pytest.fixture
def route_to_test_worker(celery_worker_queue):
    """``route_to_test_worker("games.run_import", ...)``: send these tasks, whoever
    enqueues them, to this test's worker (not to a worker of another database)."""
    from config.celery import app

    saved = app.conf.task_routes
    yield lambda *names: route_tasks({name: {"queue": celery_worker_queue} for name in names})
    route_tasks(saved)


@pytest.fixture
def api(people):
    """``api("member")``: an APIClient authenticated as that person (None: anonymous).

    ``people`` (name -> user) is the fixture of the test's own folder."""

    from rest_framework.test import APIClient

    def client(who: str | None) -> APIClient:
        c = APIClient()
        if who is not None:
            c.force_authenticate(people[who])
        return c

    return client


@pytest.fixture
def queued_tasks(monkeypatch):
    """``queued_tasks(callbacks)``: the names of the Celery tasks the on-commit callbacks a
    test captured would send (config.queueing), those sent directly and those the
    receivers of a domain event (games.events) would send; the other effects of an event
    (games.read_cache moving a club's read version) are not tasks."""
    from django.dispatch import Signal

    from config import queueing

    send_task = queueing.send_task

    def tasks(callbacks) -> list[str]:
        names: list[str] = []

        def record(task, *args, **kwargs) -> bool:
            names.append(queueing.registered(task).name)
            return True

        with monkeypatch.context() as patched:
            patched.setattr(queueing, "send_task", record)
            for callback in callbacks:
                func = getattr(callback, "func", None)
                if func is send_task:
                    names.append(queueing.registered(callback.args[0]).name)
                elif isinstance(getattr(func, "__self__", None), Signal):
                    callback()  # the event's receivers, sending through ``record``
        return names

    return tasks


# Headless Chromium for the browser tests (marker `browser`).
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """One headless Chromium for the session (Debian's /usr/bin/chromium via Playwright)."""
    if not CHROMIUM.exists():
        pytest.skip("/usr/bin/chromium is missing (scripts/check_system.sh says what to install)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    # Playwright's sync API runs an event loop in this thread; Django's ORM then refuses
    # to run here unless told that the loop is not ours to share.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(autouse=True)
def _browser_pages_closed_after_each_test(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every browser context a test opened is closed when it ends, whether the test
    closed it or not: a table's page left open goes on polling the session's live server
    after the test, whose errors (its database is gone) are logged from the server's thread
    while a later test runs. (Python 3.11 formats a traceback with ``ast.parse``, whose
    recursion counter is shared between threads, CPython gh-106905: a later test's own
    ``ast.parse`` then failed with "AST constructor recursion depth mismatch".)"""
    yield
    if "chromium" in request.fixturenames:
        for context in list(request.getfixturevalue("chromium").contexts):
            context.close()


def _checked_page(chromium: Any, *, bypass_csp: bool) -> Iterator[Any]:
    """A fresh page whose JavaScript errors and console errors fail the test."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=bypass_csp)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    yield page
    context.close()
    assert not errors, f"the page reported errors: {errors}"


@pytest.fixture
def page(chromium: Any) -> Iterator[Any]:
    """A fresh page; JavaScript errors fail the test. Playwright's ``wait_for_function``
    evaluates its predicate with ``eval``, which the site's Content-Security-Policy
    refuses, so these pages bypass it; ``csp_page`` enforces it (tests/security)."""
    yield from _checked_page(chromium, bypass_csp=True)


@pytest.fixture
def csp_page(chromium: Any) -> Iterator[Any]:
    """A fresh page that obeys the site's Content-Security-Policy: a refused script or
    style is a console error, which fails the test."""
    yield from _checked_page(chromium, bypass_csp=False)


@pytest.fixture
def screenshot(request: pytest.FixtureRequest):
    """Save a screenshot of ``page`` as artifacts/<test folder>/NAME.png (CI keeps them)."""
    folder = ARTIFACTS / request.path.parent.name

    def save(page: Any, name: str) -> Path:
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return save
