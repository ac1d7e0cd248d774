"""Measuring helpers shared by the bench/*.py scripts (a package, so `make bench`,
which runs bench/*.py, does not run it as a benchmark)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

QUICK_HELP = (
    "small sizes, a few seconds: shows that the benchmark still runs to its end "
    "(make test runs every bench/*.py so); its figures mean nothing there, and a "
    "missed target does not fail it"
)


def add_quick(parser: argparse.ArgumentParser) -> None:
    """``--quick``: every benchmark takes it (``tests/ops/test_benchmarks.py``)."""
    parser.add_argument("--quick", action="store_true", help=QUICK_HELP)


def postgres_backend_cpu_seconds(connection: Any) -> float | None:
    """CPU seconds (user + system) of the PostgreSQL backend serving ``connection``, read
    from /proc, so a figure can be told apart from waiting for a shared CPU. None on
    SQLite or when the server is not on this machine."""
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    return process_cpu_seconds(pid)


def process_cpu_seconds(pid: int) -> float | None:
    """CPU seconds (user + system) process ``pid`` has used so far, from /proc; None
    when there is no such process (it ended, or it is on another machine)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rpartition(")")[2].split()  # after "pid (comm)": state is fields[0]
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime
