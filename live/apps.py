from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LiveConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "live"
    verbose_name = _("Live tables (games played online, a device per seat)")

    def ready(self) -> None:
        # One budget of games against a bot per person: the recorder counts the tables too.
        from live import budgets
        from recorder import budgets as recorder_budgets

        recorder_budgets.count_also(budgets.open_bot_tables, budgets.bot_moves_since)
