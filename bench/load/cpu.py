"""CPU time of the machine's processes by group, for the load test's report.

    python bench/load/cpu.py snapshot FILE     # write a snapshot
    python bench/load/cpu.py diff BEFORE AFTER # CPU seconds per group in between, as JSON

Groups: gunicorn (web), celery (worker and beat), postgres, redis, wrk (the load
client), other; and the whole machine's busy and idle seconds from /proc/stat. A
process that ended in between (none should: gunicorn recycles only every ~50k
requests) is missing from the groups but not from the machine's total.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.common import process_cpu_seconds  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")
GROUPS = ("gunicorn", "celery", "postgres", "redis", "wrk")


def group_of(command: str) -> str:
    for group in GROUPS:
        if group in command:
            return group
    return "other"


def snapshot() -> dict:
    processes = {}
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            command = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            name = (proc / "comm").read_text().strip()
        except OSError:
            continue
        seconds = process_cpu_seconds(int(proc.name))
        if seconds is not None:
            processes[proc.name] = [group_of(command or name), seconds]
    cpu = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    values = [int(v) for v in cpu]
    idle = values[3] + values[4]  # idle + iowait
    return {"processes": processes, "busy": sum(values) - idle - sum(values[8:]), "idle": idle}


def diff(before: dict, after: dict) -> dict:
    groups = dict.fromkeys((*GROUPS, "other"), 0.0)
    for pid, (group, seconds) in after["processes"].items():
        previous = before["processes"].get(pid)
        groups[group] += seconds - (previous[1] if previous and previous[0] == group else 0)
    return {
        "by_group_s": {group: round(seconds, 2) for group, seconds in groups.items()},
        "machine_busy_s": round((after["busy"] - before["busy"]) / TICKS, 2),
        "machine_idle_s": round((after["idle"] - before["idle"]) / TICKS, 2),
    }


def main() -> None:
    if sys.argv[1] == "snapshot":
        Path(sys.argv[2]).write_text(json.dumps(snapshot()))
    elif sys.argv[1] == "diff":
        before, after = (json.loads(Path(p).read_text()) for p in sys.argv[2:4])
        print(json.dumps(diff(before, after)))
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
