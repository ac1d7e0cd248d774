from django.urls import path

from clubs import views

urlpatterns = [
    path("clubs/new/", views.club_new, name="club-new"),
    path("clubs/<slug:slug>/manage/", views.club_manage, name="club-manage"),
    path("clubs/<slug:slug>/join/", views.club_join, name="club-join"),
    path("clubs/<slug:slug>/invites/", views.invite_create, name="invite-create"),
    path("clubs/<slug:slug>/invites/<int:invite_id>/revoke/", views.invite_revoke,
         name="invite-revoke"),
    path("clubs/<slug:slug>/requests/<int:request_id>/", views.join_decide, name="join-decide"),
    path("clubs/<slug:slug>/members/<int:membership_id>/role/", views.member_role,
         name="member-role"),
    path("clubs/<slug:slug>/players/<int:player_id>/rename/", views.player_rename,
         name="player-rename"),
    path("clubs/<slug:slug>/players/<int:player_id>/merge/", views.player_merge,
         name="player-merge"),
    path("clubs/<slug:slug>/matches/<int:match_id>/void/", views.match_void, name="match-void"),
    path("invite/<str:token>/", views.invite_accept, name="invite-accept"),
]
