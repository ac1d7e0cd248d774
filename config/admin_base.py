"""What several apps' admin pages share."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest


class RecordAdmin(admin.ModelAdmin):
    """A record the site writes and nobody edits (stored logs, upload attempts, the
    audit trail, rating history): listed, searched and viewed, never added or changed
    here. Deleting stays with the default permission (a club's deletion cascades)."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class RecordInline(admin.TabularInline):
    """An inline of records shown with their parent, never edited there."""

    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
