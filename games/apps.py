from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Matches and uploads"

    def ready(self) -> None:
        from games import read_cache

        read_cache.connect()
