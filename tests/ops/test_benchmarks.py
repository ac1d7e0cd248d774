"""Every benchmark runs to its end: each ``bench/*.py`` takes ``--quick`` (small sizes, a
few seconds) and exits 0, so a benchmark broken by a change elsewhere (a function moved,
a phase renamed) fails here, in ``make test``, not months later in ``make bench``.

Only that it runs is checked: the figures of a quick run mean nothing, and a missed
target does not fail it (speed targets live in the benchmarks, never in timed tests).
The benchmarks that use a database use PostgreSQL when ``DATABASE_URL`` points at one,
SQLite otherwise, as ``make bench`` does."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = sorted((ROOT / "bench").glob("*.py"))


def test_there_are_benchmarks_to_run():
    assert len(BENCHMARKS) >= 10, BENCHMARKS


@pytest.mark.parametrize("script", BENCHMARKS, ids=lambda path: path.name)
def test_the_benchmark_runs_to_its_end_in_quick_mode(script: Path):
    # A benchmark names its own throwaway database; the test run's name (.ci/run sets
    # DATABASE_TEST_NAME) would make it clobber the database this very run is using.
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DJANGO_SETTINGS_MODULE", "DATABASE_TEST_NAME"}
    }
    done = subprocess.run(
        [sys.executable, str(script), "--quick"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, (
        f"{script.name} --quick exited {done.returncode}\n"
        f"--- stdout (end)\n{done.stdout[-3000:]}\n--- stderr (end)\n{done.stderr[-3000:]}"
    )
