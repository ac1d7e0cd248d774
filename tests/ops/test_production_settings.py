"""Production settings (DEBUG off): `check --deploy` is clean, cookies are Secure and
HttpOnly, plain http is redirected; each run in a fresh interpreter with only the
environment a production host would set, since settings are read once per process."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[2]


def production_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The environment of a production host: DEBUG off, a real secret key, a host name,
    nothing of this test run's own settings (no DATABASE_URL / REDIS_URL)."""
    # Only what any process needs: this run's own variables (DATABASE_URL, REDIS_URL,
    # DJANGO_ALLOW_ASYNC_UNSAFE set by the browser fixture...) are not a production host's.
    env = {k: v for k, v in os.environ.items() if k in {"PATH", "HOME", "LANG", "LC_ALL", "TMPDIR"}}
    env.update(
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="lantern.example.org,testserver",
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    env.update(extra)
    return env


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], cwd=PROJECT, env=env, capture_output=True, text=True, timeout=300
    )


def deploy_check(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], env)


def test_check_deploy_is_clean_with_production_settings(tmp_path):
    checked = deploy_check(production_env(tmp_path))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "System check identified no issues" in checked.stdout + checked.stderr


def test_plain_http_switch_turns_off_exactly_the_https_settings(tmp_path):
    """LANTERN_HTTPS=0 (make prod on loopback) is what check --deploy then complains
    about: no redirect, cookies not Secure, no HSTS, and nothing else."""
    checked = deploy_check(production_env(tmp_path, LANTERN_HTTPS="0"))
    assert checked.returncode != 0
    output = checked.stdout + checked.stderr
    for warning in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert warning in output
    assert "issues (0 silenced)" in output and "4 issues" in output, output


def test_production_refuses_to_start_without_a_secret_key(tmp_path):
    env = production_env(tmp_path)
    del env["SECRET_KEY"]
    checked = run(["manage.py", "check"], env)
    assert checked.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in checked.stderr
    assert "set the environment variable SECRET_KEY" in checked.stderr


@pytest.mark.parametrize(
    "key",
    ["", "   ", "django-insecure-lantern-development-key-never-use-in-production"],
    ids=["empty", "blank", "the-development-key"],
)
def test_production_refuses_a_blank_or_the_development_secret_key(tmp_path, key):
    """A blank line in an env file, or `make run`'s key (public in this repository: anyone
    could sign sessions with it), is no production key."""
    checked = run(["manage.py", "check"], production_env(tmp_path, SECRET_KEY=key))
    assert checked.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in checked.stderr


def test_development_runs_on_its_own_key_without_one(tmp_path):
    env = production_env(tmp_path, DEBUG="1")
    del env["SECRET_KEY"]
    checked = run(["manage.py", "check"], env)
    assert checked.returncode == 0, checked.stderr


# Logs in through the real login view with Django's test client, in production settings,
# and reports the cookies and redirects it saw.
COOKIE_PROBE = """
import json
import django
django.setup()
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

call_command("migrate", verbosity=0, interactive=False)
get_user_model().objects.create_user("ada", password="a-long-enough-password-1")
client = Client()
login = client.post("/accounts/login/", {"username": "ada", "password": "a-long-enough-password-1"},
                    secure=True)
plain = Client().get("/accounts/login/")
health = Client().get("/healthz")
print(json.dumps({
    "login_status": login.status_code,
    "cookies": {name: {"secure": bool(m["secure"]), "httponly": bool(m["httponly"]),
                       "samesite": m["samesite"]} for name, m in login.cookies.items()},
    "hsts": login.headers.get("Strict-Transport-Security"),
    "plain_status": plain.status_code,
    "plain_location": plain.headers.get("Location"),
    "health_status": health.status_code,
}))
"""


@pytest.fixture(scope="module")
def production_login(tmp_path_factory) -> dict:
    tmp_path = tmp_path_factory.mktemp("production")
    probed = run(["-c", COOKIE_PROBE], production_env(tmp_path, LOG_LEVEL="WARNING"))
    assert probed.returncode == 0, probed.stderr
    return json.loads(probed.stdout.strip().splitlines()[-1])


def test_session_cookie_is_secure_and_httponly_in_production(production_login):
    assert production_login["login_status"] == 302  # logged in, redirected to the profile
    session = production_login["cookies"]["sessionid"]
    assert session["secure"] is True
    assert session["httponly"] is True
    assert session["samesite"] == "Lax"


def test_csrf_cookie_is_secure_in_production(production_login):
    assert production_login["cookies"]["csrftoken"]["secure"] is True


def test_https_responses_carry_hsts_for_a_year(production_login):
    assert production_login["hsts"] == "max-age=31536000; includeSubDomains; preload"


def test_plain_http_is_redirected_to_https_but_health_checks_are_not(production_login):
    assert production_login["plain_status"] == 301
    assert production_login["plain_location"] == "https://testserver/accounts/login/"
    assert production_login["health_status"] == 200
