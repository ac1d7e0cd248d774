from django.urls import path

import config.converters  # noqa: F401 (registers the <id:...> path converter)
from analysis.api import MatchAnalysisView

urlpatterns = [
    path("matches/<id:match_id>/analysis", MatchAnalysisView.as_view(), name="api-match-analysis"),
]
