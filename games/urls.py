from django.urls import path

import config.converters  # noqa: F401 (registers the <id:...> path converter)
from games import views

urlpatterns = [
    path("clubs/<slug:slug>/matches/", views.match_list, name="club-matches"),
    path("clubs/<slug:slug>/upload/", views.upload_form, name="club-upload"),
    path("clubs/<slug:slug>/uploads/", views.club_uploads, name="club-uploads"),
    path("clubs/<slug:slug>/imports/", views.import_form, name="club-imports"),
    path("uploads/<id:upload_id>/", views.upload_detail, name="upload-detail"),
    path("uploads/<id:upload_id>/guests/", views.confirm_guests, name="upload-guests"),
    path("imports/<id:import_id>/", views.import_detail, name="import-detail"),
]
