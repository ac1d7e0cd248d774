from django.contrib import admin, messages

from config.admin_base import RecordAdmin
from ladder.models import Ladder, Rating, RatingChange, RecomputeJob
from ladder.services import queue_recompute


@admin.register(Ladder)
class LadderAdmin(admin.ModelAdmin):
    list_display = [
        "club",
        "game",
        "kind",
        "rated_matches",
        "last_rated_at",
        "version",
        "created_at",
    ]
    list_filter = ["game", "kind", "club"]
    search_fields = ["club__name", "club__slug"]
    date_hierarchy = "created_at"
    list_select_related = ["club"]
    # The kind follows from the matches (Match.with_bots): never edited by hand.
    readonly_fields = [
        "kind",
        "role_tallies",
        "last_rated_at",
        "last_rated_match",
        "rated_matches",
        "version",
    ]
    actions = ["recompute"]

    @admin.action(description="Recompute the selected ladders (Celery)")
    def recompute(self, request, queryset):
        for ladder in queryset:
            queue_recompute(ladder, RecomputeJob.Reason.MANUAL)
        self.message_user(request, f"{queryset.count()} recompute(s) queued.", messages.SUCCESS)

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if change and "options" in form.changed_data:
            # New K, provisional games or role advantage: every rating changes.
            queue_recompute(obj, RecomputeJob.Reason.CHANGED)
            self.message_user(request, "Options changed: the ladder is being recomputed.")


@admin.register(Rating)
class RatingAdmin(RecordAdmin):
    """Written only by ladder.services (a change here would disagree with the history)."""

    list_display = [
        "player",
        "ladder",
        "rating",
        "games",
        "wins",
        "losses",
        "provisional",
        "last_played_at",
    ]
    list_filter = ["ladder__game", "provisional", "ladder__club"]
    search_fields = ["player__handle", "ladder__club__name"]
    list_select_related = ["player", "ladder__club"]


@admin.register(RatingChange)
class RatingChangeAdmin(RecordAdmin):
    """The rating history (EL-7.1), written only by ladder.services."""

    list_display = [
        "ladder",
        "sequence",
        "match",
        "player",
        "role",
        "before",
        "after",
        "expected",
        "score",
        "k",
        "weight",
        "advantage",
        "played_at",
    ]
    list_filter = ["ladder__game", "won", "ladder__club"]
    search_fields = ["player__handle", "=match__id"]
    date_hierarchy = "played_at"
    list_select_related = ["ladder__club", "match", "player"]


@admin.register(RecomputeJob)
class RecomputeJobAdmin(RecordAdmin):
    """Progress and errors of recomputes; retry a failed one on /dashboard/."""

    list_display = [
        "id",
        "ladder",
        "reason",
        "status",
        "phase",
        "progress",
        "total",
        "percent",
        "created_at",
        "started_at",
        "finished_at",
    ]
    list_filter = ["status", "reason", "ladder__game"]
    search_fields = ["=id", "ladder__club__name", "error"]
    date_hierarchy = "created_at"
    list_select_related = ["ladder__club"]
