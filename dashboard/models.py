"""What the operator's dashboard keeps of its own: tasks given up (config.redelivery)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class DroppedTask(models.Model):
    """A task that was delivered again and again without ever finishing (each time the
    worker running it died: killed, out of memory), given up after
    ``config.redelivery.MAX_DELIVERIES`` so it does not take workers down forever. Listed
    on the dashboard until an operator deletes it (admin) once it is understood."""

    name = models.CharField(max_length=200)
    task_id = models.CharField(max_length=255, unique=True)
    arguments = models.TextField(blank=True, help_text="The task's arguments, as text.")
    deliveries = models.PositiveSmallIntegerField()
    dropped_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("dropped task")
        verbose_name_plural = _("dropped tasks")
        ordering = ["-dropped_at", "-id"]

    def __str__(self) -> str:
        return f"{self.name} {self.task_id} (dropped after {self.deliveries} deliveries)"
