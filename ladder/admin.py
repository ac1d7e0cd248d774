from django.contrib import admin, messages

from ladder.models import Ladder, Rating, RatingChange, RecomputeJob
from ladder.services import queue_recompute


@admin.register(Ladder)
class LadderAdmin(admin.ModelAdmin):
    list_display = ["club", "game", "rated_matches", "last_rated_at", "version"]
    list_filter = ["game", "club"]
    readonly_fields = ["role_tallies", "last_rated_at", "last_rated_match", "rated_matches",
                       "version"]
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
class RatingAdmin(admin.ModelAdmin):
    list_display = ["player", "ladder", "rating", "games", "wins", "losses", "provisional"]
    list_filter = ["ladder__game", "ladder__club", "provisional"]
    search_fields = ["player__handle"]
    raw_id_fields = ["player"]


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    list_display = ["ladder", "sequence", "match", "player", "role", "before", "after",
                    "expected", "score", "k", "weight", "advantage"]
    list_filter = ["ladder__game", "ladder__club"]
    search_fields = ["player__handle"]
    raw_id_fields = ["match", "player"]

    def has_change_permission(self, request, obj=None) -> bool:
        return False  # written only by ladder.services


@admin.register(RecomputeJob)
class RecomputeJobAdmin(admin.ModelAdmin):
    list_display = ["ladder", "reason", "status", "phase", "progress", "total", "percent",
                    "created_at", "finished_at"]
    list_filter = ["status", "reason"]
    readonly_fields = ["ladder", "reason", "status", "phase", "progress", "total", "error",
                       "created_at", "started_at", "finished_at"]

    def has_add_permission(self, request) -> bool:
        return False
