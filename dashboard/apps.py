from django.apps import AppConfig


class DashboardConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "dashboard"
    verbose_name = "Operator dashboard"

    def ready(self) -> None:
        from dashboard import handlers

        handlers.connect()
