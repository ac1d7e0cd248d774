from django.contrib import admin

from config.admin_base import RecordAdmin
from dashboard.models import DroppedTask


@admin.register(DroppedTask)
class DroppedTaskAdmin(RecordAdmin):
    """Tasks given up (config.redelivery): read here, deleted once understood."""

    list_display = ["name", "task_id", "deliveries", "dropped_at"]
    list_filter = ["name"]
    search_fields = ["task_id", "name"]
