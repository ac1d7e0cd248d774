from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LadderConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ladder"
    verbose_name = _("Ladders")

    def ready(self) -> None:
        from ladder import handlers

        handlers.connect()
