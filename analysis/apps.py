from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AnalysisConfig(AppConfig):
    name = "analysis"
    verbose_name = _("Match analysis")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from analysis import handlers

        handlers.connect()
