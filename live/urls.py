from django.urls import path

import config.converters  # noqa: F401 (registers the <id:...> path converter)
from live import views

urlpatterns = [
    path("clubs/<slug:slug>/tables/new/", views.new_table, name="live-new"),
    path("clubs/<slug:slug>/tables/<id:table_id>/", views.table_page, name="live-table"),
    path(
        "clubs/<slug:slug>/tables/<id:table_id>/take-seat", views.take_seat, name="live-take-seat"
    ),
    path("clubs/<slug:slug>/tables/<id:table_id>/abandon", views.abandon, name="live-abandon"),
    path(
        "clubs/<slug:slug>/tables/<id:table_id>/seat-link",
        views.make_seat_link,
        name="live-make-seat-link",
    ),
    path("tables/seat/<str:token>/", views.seat_link, name="live-seat-link"),
]
