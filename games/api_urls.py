from django.urls import path, re_path

import config.converters  # noqa: F401 (registers the <id:...> path converter)
from games.api import views

urlpatterns = [
    path("schema/log.json", views.LogSchemaView.as_view(), name="api-log-schema"),
    path("clubs/<slug:slug>/matches/", views.ClubMatchesView.as_view(), name="api-club-matches"),
    re_path(
        r"^clubs/(?P<slug>[-\w]+)/matches/export\.(?P<kind>(?:zip|jsonl))$",
        views.ClubExportView.as_view(),
        name="api-club-export",
    ),
    path("clubs/<slug:slug>/imports/", views.ClubImportsView.as_view(), name="api-club-imports"),
    path("clubs/<slug:slug>/uploads/", views.ClubUploadsView.as_view(), name="api-club-uploads"),
    path("matches/<id:match_id>/", views.MatchDetailView.as_view(), name="api-match"),
    path("matches/<id:match_id>/log", views.MatchLogView.as_view(), name="api-match-log"),
    path("imports/<id:import_id>/", views.ImportDetailView.as_view(), name="api-import"),
    path("uploads/<id:upload_id>/", views.UploadDetailView.as_view(), name="api-upload"),
]
