"""Lantern served by processes of its own, as `make prod` serves it (scripts/prod.sh):
Daphne for the ASGI application (the tables' websockets), gunicorn for pages and API.
For the benchmark and the tests that need what only separate server processes show: a
move made in one process reaching sockets held by another, through the channel layer.

Nothing here imports Django: the caller passes the environment the servers run with."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A TCP port of 127.0.0.1 free at the time of asking."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def server_env(
    database_url: str, redis_url: str | None, secret_key: str, **extra: str
) -> dict[str, str]:
    """The environment of a server process: production settings (DEBUG off) on the given
    database and Redis (none: the in-memory channel layer, one process serves all),
    warnings only in its log (no line per request)."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"REDIS_URL", "DJANGO_SETTINGS_MODULE", "DATABASE_TEST_NAME"}
    }
    env.update(
        DATABASE_URL=database_url,
        SECRET_KEY=secret_key,
        DEBUG="0",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        LANTERN_HTTPS="0",
        LOG_LEVEL="WARNING",
        LOG_FORMAT="text",
        **extra,
    )
    if redis_url:
        env["REDIS_URL"] = redis_url
    return env


class Server:
    """A server process on ``port`` of 127.0.0.1 (its output in a log file of its own)."""

    def __init__(self, name: str, command: list[str], env: dict[str, str], port: int) -> None:
        self.name, self.port = name, port
        self.url = f"http://127.0.0.1:{port}"
        self.log = Path(tempfile.mkstemp(prefix=f"lantern-{name}-", suffix=".log")[1])
        with self.log.open("wb") as out:
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT
            )

    @property
    def pid(self) -> int:
        return self.process.pid

    def wait_ready(self, timeout: float = 60.0) -> None:
        """Until ``/healthz`` answers 200 (RuntimeError with the log's end if it dies or
        takes longer than ``timeout`` seconds)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited {self.process.returncode}:\n{self.tail()}")
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"{self.name} did not answer in {timeout:.0f} s:\n{self.tail()}")

    def tail(self, chars: int = 3000) -> str:
        return self.log.read_text(errors="replace")[-chars:]

    def stop(self) -> None:
        """SIGTERM, then SIGKILL after 10 s; the log file is removed."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.unlink(missing_ok=True)


def daphne(env: dict[str, str], port: int | None = None, name: str = "daphne") -> Server:
    """The ASGI application served by Daphne, as `make prod` serves the sockets."""
    port = port or free_port()
    command = [sys.executable, "-m", "daphne", "--bind", "127.0.0.1", "--port", str(port)]
    return Server(name, [*command, "config.asgi:application"], env, port)


def gunicorn(env: dict[str, str], port: int | None = None) -> Server:
    """Pages and API served by gunicorn with `make prod`'s settings (config/gunicorn.py)."""
    port = port or free_port()
    env = {**env, "GUNICORN_BIND": f"127.0.0.1:{port}"}
    return Server(
        "gunicorn", [sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.py"], env, port
    )


def rss_bytes(pid: int) -> int:
    """The resident memory of process ``pid`` (VmRSS, from /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def tree_cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system) of process ``pid`` and its children (gunicorn's
    workers), from /proc: what the server has cost so far."""
    from bench.common import process_cpu_seconds

    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    total, todo = 0.0, [pid]
    while todo:
        current = todo.pop()
        total += process_cpu_seconds(current) or 0.0
        todo += children.get(current, [])
    return total
