from django.urls import path

import config.converters  # noqa: F401 (registers the <id:...> path converter)
from recorder import pages

urlpatterns = [
    path("clubs/<slug:slug>/record/", pages.record_setup, name="record"),
    path("clubs/<slug:slug>/record/seats", pages.record_seat_labels, name="record-seat-labels"),
    path("clubs/<slug:slug>/record/<id:draft_id>/", pages.record_draft, name="record-draft"),
]
