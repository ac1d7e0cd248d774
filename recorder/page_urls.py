from django.urls import path

from recorder import pages

urlpatterns = [
    path("clubs/<slug:slug>/record/", pages.record_setup, name="record"),
    path("clubs/<slug:slug>/record/<int:draft_id>/", pages.record_draft, name="record-draft"),
]
