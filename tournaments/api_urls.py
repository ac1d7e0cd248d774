from config.api.router import LanternRouter
from tournaments.api import PairingViewSet, TournamentViewSet

router = LanternRouter()
router.register("tournaments", TournamentViewSet, basename="tournament")
router.register("pairings", PairingViewSet, basename="pairing")

urlpatterns = router.urls
