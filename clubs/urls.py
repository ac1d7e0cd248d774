from django.urls import path

import config.converters  # noqa: F401 (registers the <id:...> path converter)
from clubs import views

urlpatterns = [
    path("clubs/new/", views.club_new, name="club-new"),
    path("clubs/new/address/", views.club_address, name="club-address"),
    path("clubs/<slug:slug>/join/", views.club_join, name="club-join"),
    path("clubs/<slug:slug>/invites/", views.invite_create, name="invite-create"),
    path("clubs/<slug:slug>/auto-analysis/", views.auto_analysis, name="club-auto-analysis"),
    path("clubs/<slug:slug>/time-zone/", views.time_zone, name="club-time-zone"),
    path("clubs/<slug:slug>/guests/", views.guests_setting, name="club-guests"),
    path("clubs/<slug:slug>/live-tables/", views.live_tables_setting, name="club-live-tables"),
    path(
        "clubs/<slug:slug>/invites/<id:invite_id>/revoke/",
        views.invite_revoke,
        name="invite-revoke",
    ),
    path("clubs/<slug:slug>/requests/<id:request_id>/", views.join_decide, name="join-decide"),
    path(
        "clubs/<slug:slug>/members/<id:membership_id>/role/", views.member_role, name="member-role"
    ),
    path(
        "clubs/<slug:slug>/players/<id:player_id>/rename/",
        views.player_rename,
        name="player-rename",
    ),
    path(
        "clubs/<slug:slug>/players/<id:player_id>/merge/", views.player_merge, name="player-merge"
    ),
    path(
        "clubs/<slug:slug>/players/<id:player_id>/account/", views.player_link, name="player-link"
    ),
    path("clubs/<slug:slug>/members/", views.club_members, name="club-members"),
    path("clubs/<slug:slug>/handles/claim/", views.handle_claim, name="handle-claim"),
    path(
        "clubs/<slug:slug>/handles/claims/<id:claim_id>/", views.claim_decide, name="claim-decide"
    ),
    path("clubs/<slug:slug>/leave/", views.club_leave, name="club-leave"),
    path("invite/<str:token>/", views.invite_accept, name="invite-accept"),
]
