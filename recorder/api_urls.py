from django.urls import path

import config.converters  # noqa: F401 (registers the <id:...> path converter)
from recorder import api

urlpatterns = [
    path("drafts/", api.DraftListView.as_view(), name="api-drafts"),
    path("drafts/games/", api.GameCatalogueView.as_view(), name="api-draft-games"),
    path("drafts/<id:draft_id>/", api.DraftDetailView.as_view(), name="api-draft"),
    path(
        "drafts/<id:draft_id>/legal-actions/",
        api.LegalActionsView.as_view(),
        name="api-draft-legal-actions",
    ),
    path(
        "drafts/<id:draft_id>/chance-options/",
        api.ChanceOptionsView.as_view(),
        name="api-draft-chance-options",
    ),
    path("drafts/<id:draft_id>/apply/", api.ApplyView.as_view(), name="api-draft-apply"),
    path("drafts/<id:draft_id>/undo/", api.UndoView.as_view(), name="api-draft-undo"),
    path("drafts/<id:draft_id>/finish/", api.FinishView.as_view(), name="api-draft-finish"),
    path("drafts/<id:draft_id>/abandon/", api.AbandonView.as_view(), name="api-draft-abandon"),
]
