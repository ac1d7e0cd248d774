from django.urls import path

import config.converters  # noqa: F401 (registers the <id:...> path converter)
from replay.api import MatchBeliefsView, MatchFramesView, MatchViewsView
from replay.views import replay_page

urlpatterns = [
    path("api/matches/<id:match_id>/frames", MatchFramesView.as_view(), name="api-match-frames"),
    path("api/matches/<id:match_id>/frames/views", MatchViewsView.as_view(), name="api-match-views"),
    path("api/matches/<id:match_id>/beliefs", MatchBeliefsView.as_view(), name="api-match-beliefs"),
    path("matches/<id:match_id>/replay", replay_page, name="match-replay"),
]
