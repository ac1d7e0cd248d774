from django.urls import path

from tournaments import views

urlpatterns = [
    path("clubs/<slug:slug>/tournaments/", views.club_tournaments, name="club-tournaments"),
    path("clubs/<slug:slug>/tournaments/new/", views.tournament_create, name="tournament-create"),
]
