from django.urls import path

import config.converters  # noqa: F401 (registers the <id:...> path converter)
import ladder.converters  # noqa: F401 (registers the <handle:...> path converter)
from pages import views

urlpatterns = [
    path("", views.index, name="index"),
    path("clubs/", views.club_directory, name="club-directory"),
    path("clubs/<slug:slug>/", views.club_page, name="club"),
    path("clubs/<slug:slug>/manage/", views.club_manage, name="club-manage"),
    path("clubs/<slug:slug>/matches/<id:match_id>/void/", views.match_void, name="match-void"),
    path(
        "clubs/<slug:slug>/matches/<id:match_id>/restore/",
        views.match_restore,
        name="match-restore",
    ),
    path(
        "clubs/<slug:club_slug>/ladders/<slug:game>/players/<handle:handle>/",
        views.ladder_player,
        name="ladder-player",
    ),
    path("matches/<id:match_id>/", views.match_detail, name="match-detail"),
]
