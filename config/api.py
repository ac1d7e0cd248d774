"""The API router: every app registers its viewsets here, so /api/ lists them all."""

from rest_framework.routers import DefaultRouter

from tournaments.api import PairingViewSet, TournamentViewSet


class LanternRouter(DefaultRouter):
    """No ".json" suffix routes: the rest of the API has none, the schema documents none,
    and the viewsets' extra actions do not take the ``format`` argument they would be
    passed (GET /api/tournaments/1/entries.json was a TypeError, a 500)."""

    include_format_suffixes = False


router = LanternRouter()
router.register("tournaments", TournamentViewSet, basename="tournament")
router.register("pairings", PairingViewSet, basename="pairing")
