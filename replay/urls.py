from django.urls import path

import config.converters  # noqa: F401 (registers the <id:...> path converter)
from replay.views import replay_page

urlpatterns = [
    path("matches/<id:match_id>/replay", replay_page, name="match-replay"),
]
