"""A real Celery worker for a benchmark (``celery -A config worker``, prefork, JSON logs
at INFO as ``make prod`` runs it) against the benchmark's own database and Redis.

Nothing here imports Django: the caller passes the database's URL."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[2]


def database_url(settings_dict: dict[str, Any]) -> str:
    """The ``DATABASE_URL`` of a Django connection's settings (a PostgreSQL one)."""
    db = settings_dict
    return (
        f"postgres://{quote(db['USER'] or '', safe='')}:{quote(db['PASSWORD'] or '', safe='')}"
        f"@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    )


def process_tree(pid: int) -> list[int]:
    """``pid`` and its children (a prefork worker's pool processes)."""
    found = [pid]
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(child) for child in (task / "children").read_text().split()]
    return found


class CeleryWorker:
    """One worker process taking ``queues`` with ``concurrency`` pool processes (more
    command-line ``options`` after them); started and ready (its log says ``ready.``)
    when made."""

    def __init__(
        self,
        *,
        database_url: str,
        queues: str,
        hostname: str,
        log: Path,
        concurrency: int = 1,
        options: tuple[str, ...] = (),
        **env: str,
    ) -> None:
        environment = dict(
            os.environ,
            DATABASE_URL=database_url,
            DEBUG="0",
            LOG_FORMAT="json",
            SECRET_KEY=os.environ.get("SECRET_KEY", "bench-" + "x" * 50),
            **env,
        )
        environment.pop("DATABASE_TEST_NAME", None)
        self.log = log
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--pool=prefork",
                f"--concurrency={concurrency}",
                "--loglevel=INFO",
                f"--queues={queues}",
                f"--hostname={hostname}@%h",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                *options,
            ],
            cwd=ROOT,
            env=environment,
            stdout=log.open("wb"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + 120
        while "ready." not in log.read_text(errors="replace"):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise SystemExit(f"the worker did not start:\n{log.read_text()[-3000:]}")
            time.sleep(0.2)

    def processes(self) -> list[int]:
        return process_tree(self.process.pid)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)
