from django.urls import path

import config.converters  # noqa: F401 (registers the <id:...> path converter)
from recorder import views

urlpatterns = [
    path("clubs/<slug:slug>/record/", views.record_setup, name="record"),
    path("clubs/<slug:slug>/record/seats", views.record_seat_labels, name="record-seat-labels"),
    path("clubs/<slug:slug>/record/<id:draft_id>/", views.record_draft, name="record-draft"),
]
