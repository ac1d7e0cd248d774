from django.urls import path

from recorder import api

urlpatterns = [
    path("api/drafts/", api.DraftListView.as_view(), name="api-drafts"),
    path("api/drafts/games/", api.GameCatalogueView.as_view(), name="api-draft-games"),
    path("api/drafts/<int:draft_id>/", api.DraftDetailView.as_view(), name="api-draft"),
    path("api/drafts/<int:draft_id>/legal-actions/", api.LegalActionsView.as_view(),
         name="api-draft-legal-actions"),
    path("api/drafts/<int:draft_id>/chance-options/", api.ChanceOptionsView.as_view(),
         name="api-draft-chance-options"),
    path("api/drafts/<int:draft_id>/apply/", api.ApplyView.as_view(), name="api-draft-apply"),
    path("api/drafts/<int:draft_id>/undo/", api.UndoView.as_view(), name="api-draft-undo"),
    path("api/drafts/<int:draft_id>/finish/", api.FinishView.as_view(), name="api-draft-finish"),
    path("api/drafts/<int:draft_id>/abandon/", api.AbandonView.as_view(), name="api-draft-abandon"),
]
