from django.urls import path

import config.converters  # noqa: F401 (registers the <id:...> path converter)
from live import api

urlpatterns = [
    path("tables/", api.TableListView.as_view(), name="api-tables"),
    path("tables/<id:table_id>/", api.TableDetailView.as_view(), name="api-table"),
    path("tables/take-by-link/", api.TakeByLinkView.as_view(), name="api-table-take-by-link"),
    path(
        "tables/<id:table_id>/seat-links/", api.SeatLinkView.as_view(), name="api-table-seat-links"
    ),
    path("tables/<id:table_id>/take-seat/", api.TakeSeatView.as_view(), name="api-table-take-seat"),
    path("tables/<id:table_id>/abandon/", api.AbandonView.as_view(), name="api-table-abandon"),
    path("tables/<id:table_id>/news/", api.NewsView.as_view(), name="api-table-news"),
    path(
        "tables/<id:table_id>/legal-actions/",
        api.LegalActionsView.as_view(),
        name="api-table-legal-actions",
    ),
    path("tables/<id:table_id>/act/", api.ActView.as_view(), name="api-table-act"),
    path("tables/<id:table_id>/claim/", api.ClaimView.as_view(), name="api-table-claim"),
    path("tables/<id:table_id>/takeback/", api.TakebackView.as_view(), name="api-table-takeback"),
    path(
        "tables/<id:table_id>/takeback/answer/",
        api.TakebackAnswerView.as_view(),
        name="api-table-takeback-answer",
    ),
]
