"""The API router: every app registers its viewsets here, so /api/ lists them all."""

from rest_framework.routers import DefaultRouter

import config.converters  # noqa: F401 (registers the <id:...> path converter)
from tournaments.api import PairingViewSet, TournamentViewSet


class LanternRouter(DefaultRouter):
    """No ".json" suffix routes: the rest of the API has none, the schema documents none,
    and the viewsets' extra actions do not take the ``format`` argument they would be
    passed (GET /api/tournaments/1/entries.json was a TypeError, a 500)."""

    include_format_suffixes = False

    def get_lookup_regex(self, viewset: type, lookup_prefix: str = "") -> str:
        """``<id:pk>`` unless the viewset names another converter: DRF's default
        ``[^/.]+`` let /api/pairings/<30 digits>/forfeit/ reach the database, a 500."""
        lookup_field = getattr(viewset, "lookup_field", "pk")
        lookup_url_kwarg = getattr(viewset, "lookup_url_kwarg", None) or lookup_field
        converter = getattr(viewset, "lookup_value_converter", "id")
        return f"<{converter}:{lookup_prefix}{lookup_url_kwarg}>"


# Paths with converters (use_regex_path=False), so the lookup is an <id:...> like elsewhere.
router = LanternRouter(use_regex_path=False)
router.register("tournaments", TournamentViewSet, basename="tournament")
router.register("pairings", PairingViewSet, basename="pairing")
