from django.urls import path

import config.converters  # noqa: F401 (registers the <id:...> path converter)
from ladder import api

urlpatterns = [
    path("ladders/", api.LadderList.as_view(), name="api-ladders"),
    path("ladders/<id:ladder_id>/standings/", api.Standings.as_view(), name="api-ladder-standings"),
    path(
        "ladders/<id:ladder_id>/players/<id:player_id>/history/",
        api.History.as_view(),
        name="api-ladder-history",
    ),
    path("ladders/<id:ladder_id>/jobs/", api.Jobs.as_view(), name="api-ladder-jobs"),
]
