from django.urls import path

from replay.api import MatchFramesView
from replay.views import replay_page

urlpatterns = [
    path("api/matches/<int:match_id>/frames", MatchFramesView.as_view(), name="api-match-frames"),
    path("matches/<int:match_id>/replay", replay_page, name="match-replay"),
]
