"""`make run` on SQLite: six identical uploads at once answer 201 once and 200 for the
rest (duplicates), never a 500 "database is locked".

A real `manage.py runserver` (threaded, as `make run` starts it) on a SQLite file of its
own, migrated from scratch; six threads post the same log at the same moment. A
deferred transaction that had read could not take the write lock another upload held
(a 500), so config.settings begins writes IMMEDIATE and waits for the lock.
"""

from __future__ import annotations

import json
import subprocess
import threading
from pathlib import Path

from tests.faults.processes import PROJECT, PYTHON, Child, child_env, free_port, http, wait_until
from tests.games.logs import bot_log

UPLOADS = 6


def _manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [PYTHON, "manage.py", *args],
        cwd=PROJECT,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_six_identical_uploads_at_once_on_sqlite_answer_201_and_200_only(tmp_path: Path):
    env = child_env(
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        REDIS_URL=None,
        DEBUG="1",
        LANTERN_UPLOAD_RATE="1000/min",
    )
    _manage(env, "migrate", "--no-input", "-v", "0")
    token = (
        _manage(
            env,
            "shell",
            "-c",
            (
                "from django.contrib.auth.models import User\n"
                "from rest_framework.authtoken.models import Token\n"
                "from clubs.models import Club, Membership\n"
                "u = User.objects.create_user('olga')\n"
                "c = Club.objects.create(name='Riverside', slug='riverside')\n"
                "Membership.objects.create(user=u, club=c, role='organiser')\n"
                "print(Token.objects.create(user=u).key)\n"
            ),
        )
        .strip()
        .splitlines()[-1]
    )
    port = free_port()
    server = Child(
        [PYTHON, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
        env,
        tmp_path / "runserver.log",
    )
    base = f"http://127.0.0.1:{port}"
    try:

        def answers_health() -> bool:
            if not server.alive():
                raise AssertionError(server.output()[-3000:])
            try:
                return http("GET", f"{base}/healthz", timeout=5)[0] in (200, 503)
            except OSError:
                return False

        wait_until(answers_health, 60, "runserver", every=0.2)
        body = json.dumps(bot_log("cryptid-urban-legends", 11, ["alice", "bob"])).encode()
        headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
        start = threading.Barrier(UPLOADS)
        answers: list[int] = []

        def upload() -> None:
            start.wait()
            status, _ = http(
                "POST",
                f"{base}/api/clubs/riverside/matches/",
                body=body,
                headers=headers,
                timeout=60,
            )
            answers.append(status)

        threads = [threading.Thread(target=upload) for _ in range(UPLOADS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=90)
        assert sorted(answers) == [200] * (UPLOADS - 1) + [201], (answers, server.output()[-3000:])
    finally:
        server.stop()
