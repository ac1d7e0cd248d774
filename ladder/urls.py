from django.urls import path

import config.converters  # noqa: F401 (registers the <id:...> path converter)
import ladder.converters  # noqa: F401 (registers the <handle:...> path converter)
from ladder import views

urlpatterns = [
    path("clubs/<slug:club_slug>/ladders/", views.club_ladders, name="club-ladders"),
    path("clubs/<slug:club_slug>/ladders/<slug:game>/", views.standings, name="ladder-standings"),
    path(
        "clubs/<slug:club_slug>/ladders/<slug:game>/h2h/<handle:a>/",
        views.head_to_head,
        name="ladder-h2h-form",
    ),
    path(
        "clubs/<slug:club_slug>/ladders/<slug:game>/h2h/<handle:a>/<handle:b>/",
        views.head_to_head,
        name="ladder-h2h",
    ),
]
