"""Processes the fault tests start, kill and restart: Celery workers, a web server, a
Redis server and a PostgreSQL cluster of their own (never the shared ones).

Every wait is bounded; every process is stopped (killed if it must be) when its
``with`` block ends, whatever the test did.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

from django.db import connection

PROJECT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until(condition: Callable[[], Any], timeout: float, what: str, every: float = 0.1) -> Any:
    """Poll ``condition`` until it returns something true; fail the test after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(every)


def current_database_url() -> str:
    """The URL of the database this test runs on (pytest-django's test database), for
    processes that must see the rows the test commits."""
    settings = connection.settings_dict
    user = quote(settings["USER"] or "", safe="")
    password = quote(settings["PASSWORD"] or "", safe="")
    credentials = f"{user}:{password}@" if password else f"{user}@"
    return (
        f"postgres://{credentials}{settings['HOST'] or '127.0.0.1'}:"
        f"{settings['PORT'] or 5432}/{settings['NAME']}"
    )


def child_env(**overrides: str | None) -> dict[str, str]:
    """This environment with ``overrides`` (None removes a variable)."""
    env = dict(os.environ)
    env.update({"DJANGO_SETTINGS_MODULE": "config.settings", "PYTHONUNBUFFERED": "1"})
    for name, value in overrides.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


class Child:
    """A process started in its own session (so it can be killed with everything it
    started), its output in a log file."""

    def __init__(self, args: list[str], env: Mapping[str, str], log: Path) -> None:
        self.args = args
        self.log = log
        self._log_file = log.open("ab")
        self.process = subprocess.Popen(
            args,
            cwd=PROJECT,
            env=dict(env),
            stdout=self._log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    @property
    def pid(self) -> int:
        return self.process.pid

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def alive(self) -> bool:
        return self.process.poll() is None

    def children(self) -> list[int]:
        """Pids of this process's children (a prefork worker's pool processes)."""
        found: list[int] = []
        for task in Path(f"/proc/{self.pid}/task").iterdir():
            found += [int(pid) for pid in (task / "children").read_text().split()]
        return found

    def kill(self) -> None:
        """SIGKILL, the whole process group: nothing gets to clean up."""
        if self.alive():
            os.killpg(self.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self, timeout: float = 15) -> None:
        """SIGTERM, then SIGKILL after ``timeout``."""
        if self.alive():
            os.killpg(self.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.kill()
        self._log_file.close()

    def wait_for_output(self, text: str, timeout: float) -> None:
        def seen() -> bool:
            if not self.alive():
                raise AssertionError(f"{self.args[:3]} exited:\n{self.output()[-3000:]}")
            return text in self.output()

        wait_until(seen, timeout, f"{text!r} in {self.log}")


@contextmanager
def celery_worker(
    queue: str | None,
    env: Mapping[str, str],
    log: Path,
    *,
    pool: str = "solo",
    concurrency: int = 1,
) -> Iterator[Child]:
    """A Celery worker process (tests/faults/worker.py) consuming ``queue`` only, or
    every queue of the settings (as production's workers do) when ``queue`` is None."""
    args = [
        PYTHON,
        str(PROJECT / "tests" / "faults" / "worker.py"),
        "worker",
        f"--pool={pool}",
        f"--concurrency={concurrency}",
        f"--hostname=lantern-faults-{time.monotonic_ns()}@%h",
        "--loglevel=INFO",
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
    ]
    if queue is not None:
        args += ["-Q", queue]
    worker = Child(args, env, log)
    try:
        worker.wait_for_output("ready.", timeout=60)
        yield worker
    finally:
        worker.stop()


@contextmanager
def web_server(env: Mapping[str, str], log: Path) -> Iterator[str]:
    """gunicorn serving the project with one sync worker (one thread, so one database
    connection kept from request to request); yields its base URL."""
    port = free_port()
    args = [
        PYTHON,
        "-m",
        "gunicorn",
        "config.wsgi:application",
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        "1",
        "--threads",
        "1",
        "--timeout",
        "60",
        "--graceful-timeout",
        "5",
    ]
    server = Child(args, env, log)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until(lambda: _answers(base, server), 60, f"gunicorn on {base}", every=0.2)
        yield base
    finally:
        server.stop()


def _answers(base: str, server: Child) -> bool:
    if not server.alive():
        raise AssertionError(f"gunicorn exited:\n{server.output()[-3000:]}")
    try:
        urllib.request.urlopen(f"{base}/healthz", timeout=5).close()
    except urllib.error.HTTPError:
        return True  # it answered (503: a service it checks is down)
    except OSError:
        return False
    return True


def http(
    method: str,
    url: str,
    *,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
    timeout: float = 30,
) -> tuple[int, bytes]:
    """One request; returns (status, body) for any status, raises only if nothing answered."""
    request = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


class RedisServer:
    """A redis-server of the test's own on a free port (Debian's binary), which the
    test may stop and start again without touching the shared Redis."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.folder = folder
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.child: Child | None = None

    def start(self) -> None:
        binary = shutil.which("redis-server")
        assert binary, "redis-server is not installed"
        self.child = Child(
            [
                binary,
                "--bind",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.folder),
            ],
            os.environ,
            self.folder / "redis.log",
        )
        wait_until(self.answers, 20, f"redis-server on port {self.port}")

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        """Stopped hard (SIGKILL): nothing in memory survives, as after a crash."""
        if self.child is not None:
            self.child.kill()
            self.child.stop()
            self.child = None


def postgres_bin() -> Path | None:
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"),
        key=lambda p: [int(x) for x in p.parent.parent.name.split(".") if x.isdigit()],
    )
    return versions[-1].parent if versions else None


class PostgresCluster:
    """A PostgreSQL cluster of the test's own (initdb in a temporary folder, a free
    port, trust on loopback), which the test may restart without touching the shared
    server. As root the binaries run as the ``postgres`` user."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin = bin_dir
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="lantern-faults-pg-"))
        self.data = self.folder / "data"
        self.as_postgres = os.geteuid() == 0
        if self.as_postgres:
            shutil.chown(self.folder, "postgres", "postgres")

    def url(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def run(self, tool: str, *args: str, timeout: float = 60) -> str:
        command = [str(self.bin / tool), *args]
        if self.as_postgres:
            command = ["runuser", "-u", "postgres", "--", *command]
        result = subprocess.run(
            command, cwd=self.folder, capture_output=True, text=True, timeout=timeout
        )
        assert result.returncode == 0, f"{tool} failed:\n{result.stdout}\n{result.stderr}"
        return result.stdout

    def init(self) -> None:
        self.run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "-A",
            "trust",
            "--no-sync",
            "-E",
            "UTF8",
            "--locale=C",
            timeout=120,
        )

    def pg_ctl(self, action: str, *extra: str) -> None:
        options = (
            f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 "
            "-c fsync=off -c max_connections=20"
        )
        self.run(
            "pg_ctl",
            action,
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.folder / "postgres.log"),
            "-w",
            "-t",
            "60",
            *extra,
            timeout=90,
        )

    def sql(self, statement: str, database: str = "postgres") -> str:
        return self.run(
            "psql",
            "-h",
            "127.0.0.1",
            "-p",
            str(self.port),
            "-U",
            "postgres",
            "-d",
            database,
            "-v",
            "ON_ERROR_STOP=1",
            "-qtAc",
            statement,
        )

    def remove(self) -> None:
        try:
            if (self.data / "postmaster.pid").exists():
                self.run("pg_ctl", "stop", "-D", str(self.data), "-m", "immediate", "-w")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
