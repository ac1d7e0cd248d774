"""Structured logs (one JSON object per line, with the request or task id) and the
Celery queues tasks are routed to."""

from __future__ import annotations

import io
import json
import logging

import pytest

from config.celery import app
from config.logging import ContextFilter, JsonFormatter


@pytest.fixture
def json_lines():
    """Captures what the root logger writes through the production handler setup
    (ContextFilter + JsonFormatter); returns a function giving the parsed lines."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(ContextFilter())
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    saved_level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    yield lambda: [json.loads(line) for line in stream.getvalue().splitlines()]
    root.removeHandler(handler)
    root.setLevel(saved_level)


@pytest.mark.django_db
def test_every_request_gets_an_id_and_one_json_log_line(client, json_lines):
    response = client.get("/healthz")
    request_id = response.headers["X-Request-ID"]
    assert len(request_id) == 32
    (line,) = [entry for entry in json_lines() if entry["logger"] == "lantern.request"]
    assert line["request_id"] == request_id
    assert line["message"] == "GET /healthz 200"
    assert (line["method"], line["path"], line["status"]) == ("GET", "/healthz", 200)
    assert line["level"] == "INFO" and line["duration_ms"] >= 0
    assert line["time"].endswith("+00:00")


@pytest.mark.django_db
def test_a_proxy_request_id_is_kept_and_a_hostile_one_replaced(client, json_lines):
    kept = client.get("/healthz", HTTP_X_REQUEST_ID="lb-7f3a.19")
    assert kept.headers["X-Request-ID"] == "lb-7f3a.19"
    hostile = client.get("/healthz", HTTP_X_REQUEST_ID='x"}\n{"level": "ERROR"')
    assert hostile.headers["X-Request-ID"] != 'x"}\n{"level": "ERROR"'
    ids = [entry["request_id"] for entry in json_lines() if entry["logger"] == "lantern.request"]
    assert ids == ["lb-7f3a.19", hostile.headers["X-Request-ID"]]


def test_a_line_logged_inside_a_task_carries_the_task_id(json_lines):
    @app.task(name="tests.ops.log_inside_a_task", shared=False)
    def log_inside_a_task() -> None:
        logging.getLogger("lantern.test").info("inside")

    result = log_inside_a_task.apply()
    (line,) = [entry for entry in json_lines() if entry["logger"] == "lantern.test"]
    assert line["task_id"] == result.id
    assert line["task_name"] == "tests.ops.log_inside_a_task"
    assert "request_id" not in line


def test_an_exception_is_one_line_with_its_traceback(json_lines):
    try:
        raise ValueError("a bad value")
    except ValueError:
        logging.getLogger("lantern.test").exception("it failed")
    (line,) = json_lines()
    assert line["level"] == "ERROR"
    assert "ValueError: a bad value" in line["exc"]


@pytest.mark.parametrize(
    ("task", "queue"),
    [
        ("games.run_import", "ingest"),
        ("games.requeue_queued_imports", "ingest"),
        ("games.revalidate", "ingest"),
        ("ladder.rate_match", "ratings"),
        ("ladder.rate_matches", "ratings"),
        ("ladder.recompute_ladder", "ratings"),
        ("ladder.recompute_all_ladders", "ratings"),
        ("ladder.requeue_unrated_matches", "ratings"),
        ("games.ping", "celery"),
        ("tournaments.pair_round", "celery"),
    ],
)
def test_tasks_are_routed_to_their_queue(task, queue):
    app.loader.import_default_modules()  # what a worker does at start: find every task
    assert task in app.tasks  # a renamed task would silently fall back to `celery`
    assert app.amqp.router.route({}, task)["queue"].name == queue


def test_a_worker_without_dash_q_consumes_every_queue():
    """`celery -A config worker` (make prod, .ci/run) consumes the queues declared in
    settings; every routed queue must be among them or its tasks would wait forever."""
    routed = {route["queue"] for route in app.conf.task_routes.values()}
    declared = set(app.amqp.queues)
    assert routed | {"celery"} <= declared


def test_each_queue_has_its_own_routing_key():
    """On Redis, queues bound with one shared key would each get a copy of every task."""
    keys = [queue.routing_key for queue in app.amqp.queues.values()]
    assert sorted(keys) == sorted(app.amqp.queues)
    route = app.amqp.router.route({}, "ladder.rate_match")
    assert route["queue"].routing_key == "ratings"
