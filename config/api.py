"""The API router: every app registers its viewsets here, so /api/ lists them all."""

from rest_framework.routers import DefaultRouter

from tournaments.api import PairingViewSet, TournamentViewSet

router = DefaultRouter()
router.register("tournaments", TournamentViewSet, basename="tournament")
router.register("pairings", PairingViewSet, basename="pairing")
