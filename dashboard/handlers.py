"""What the dashboard records of what happens elsewhere: a task given up after repeated
redelivery (config.redelivery) becomes a DroppedTask, listed for the operator."""

from __future__ import annotations

from typing import Any

from config.redelivery import task_given_up


def record_dropped_task(
    *, task_id: str, name: str, deliveries: int, arguments: str, **_: Any
) -> None:
    from dashboard.models import DroppedTask

    DroppedTask.objects.get_or_create(
        task_id=task_id, defaults={"name": name, "deliveries": deliveries, "arguments": arguments}
    )


def connect() -> None:
    task_given_up.connect(record_dropped_task, dispatch_uid="dashboard.record_dropped_task")
