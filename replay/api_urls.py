from django.urls import path

import config.converters  # noqa: F401 (registers the <id:...> path converter)
from replay.api import MatchBeliefsView, MatchFramesView, MatchViewsView

urlpatterns = [
    path("matches/<id:match_id>/frames", MatchFramesView.as_view(), name="api-match-frames"),
    path("matches/<id:match_id>/frames/views", MatchViewsView.as_view(), name="api-match-views"),
    path("matches/<id:match_id>/beliefs", MatchBeliefsView.as_view(), name="api-match-beliefs"),
]
