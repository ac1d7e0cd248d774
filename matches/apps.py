from django.apps import AppConfig


class MatchesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "matches"
    # The app was called ``games`` until issue #19 named it for what it holds. Its label
    # stays ``games`` so the tables (games_match, ...), the migration history, the content
    # types and every other app's migrations (``to="games.match"``) stay as they are: a
    # renamed label would need a migration in every app that points at a match.
    label = "games"
    verbose_name = "Matches and uploads"

    def ready(self) -> None:
        from matches import read_cache

        read_cache.connect()
