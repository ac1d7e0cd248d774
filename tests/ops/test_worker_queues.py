"""Every queue a task is routed to (CELERY_TASK_ROUTES, the beat's tasks included) is
consumed by a worker `make prod` starts, and by a worker command the production docs
give for several machines: no task waits for ever on a queue nobody reads."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from django.conf import settings

from config.celery import app

ROOT = Path(__file__).resolve().parents[2]
PROD = ROOT / "scripts" / "prod.sh"
#: the pages that say how to run Lantern in production
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def routed_queues() -> dict[str, str]:
    """task name -> the queue it is sent to, for every task of the project and of the beat."""
    app.loader.import_default_modules()
    names = {name for name in app.tasks if not name.startswith("celery.")}
    names |= {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    return {name: app.amqp.router.route({}, name)["queue"].name for name in sorted(names)}


def _default(word: str) -> str:
    """``${CELERY_QUEUES:-celery,ingest}`` as the script runs it when nothing is set."""
    return re.sub(r"\$\{\w+:-([^}]*)\}", r"\1", word)


def worker_queues(command: list[str]) -> set[str] | None:
    """The queues a ``celery ... worker`` command line consumes; every queue the app
    declares when it names none; None when it is not a worker command."""
    if "worker" not in command:
        return None
    for flag in ("--queues", "-Q"):
        if flag in command:
            return set(_default(command[command.index(flag) + 1]).split(","))
    return {queue.name for queue in app.conf.task_queues}


def commands(text: str) -> list[list[str]]:
    """The celery command lines in a script or a page (continuation lines joined)."""
    found = []
    for line in text.replace("\\\n", " ").replace('"$BIN/celery"', "celery").splitlines():
        start = line.find("celery -A")
        if start < 0 or "worker" not in line:
            continue
        snippet = line[start:].split("`")[0]
        try:
            words = shlex.split(snippet, comments=True)
        except ValueError:
            continue
        found.append([_default(w) for w in words])
    return found


def consumed(text: str) -> set[str]:
    return set().union(*(worker_queues(c) or set() for c in commands(text)))


def test_every_task_is_routed_to_a_declared_queue():
    declared = {queue.name for queue in app.conf.task_queues}
    routes = routed_queues()
    assert routes["analysis.analyse_match"] == routes["analysis.requeue_stalled"] == "analysis"
    assert set(routes.values()) <= declared


def test_make_prod_starts_a_worker_for_every_routed_queue():
    script = PROD.read_text()
    missing = {
        task: queue for task, queue in routed_queues().items() if queue not in consumed(script)
    }
    assert not missing, f"scripts/prod.sh starts no worker for {missing}"


def test_the_analysis_queue_has_a_worker_of_its_own_in_make_prod():
    workers = [worker_queues(c) for c in commands(PROD.read_text())]
    assert {"analysis"} in workers, "analyses are minutes of CPU each: a worker of their own"


def test_the_docs_give_a_worker_command_for_every_routed_queue():
    text = "\n".join(path.read_text() for path in DOCS)
    named = consumed(text)
    missing = {task: queue for task, queue in routed_queues().items() if queue not in named}
    assert not missing, f"no documented `celery -A config worker -Q ...` command consumes {missing}"


def test_the_parser_reads_what_the_script_runs():
    line = 'setsid "$BIN/celery" -A config worker --queues "${CELERY_QUEUES:-celery,ingest}" &'
    assert commands(line) == [
        ["celery", "-A", "config", "worker", "--queues", "celery,ingest", "&"]
    ]
    assert worker_queues(commands(line)[0]) == {"celery", "ingest"}
    assert worker_queues(["celery", "-A", "config", "beat"]) is None
