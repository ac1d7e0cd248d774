from django.contrib import admin

from accounts.models import AccountSettings


@admin.register(AccountSettings)
class AccountSettingsAdmin(admin.ModelAdmin):
    list_display = ["user", "language", "time_zone"]
    list_filter = ["language"]
    search_fields = ["user__username", "time_zone"]
    list_select_related = ["user"]
    raw_id_fields = ["user"]
