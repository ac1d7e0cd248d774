from django.apps import AppConfig


class LadderConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ladder"
    verbose_name = "Ladders"

    def ready(self) -> None:
        from ladder import handlers

        handlers.connect()
