from django.urls import include, path

import config.converters  # noqa: F401 (registers the <id:...> path converter)
from tournaments import views

# One event's pages, under /tournaments/ and named tournaments:<name>.
event_patterns = [
    path("", views.tournament_list, name="list"),
    path("<id:pk>/", views.tournament_detail, name="detail"),
    path("<id:pk>/rounds/<id:round_number>/", views.round_detail, name="round"),
    path("<id:pk>/rounds/<id:round_number>/print/", views.round_print, name="round-print"),
    path("<id:pk>/entries/", views.entry_add, name="entry-add"),
    path("<id:pk>/entries/<id:entry_id>/withdraw/", views.entry_withdraw, name="entry-withdraw"),
    path("<id:pk>/next-round", views.next_round, name="next-round"),
    path("<id:pk>/pairings/<id:pairing_id>/result", views.upload_result, name="upload-result"),
    path("<id:pk>/pairings/<id:pairing_id>/record", views.record_pairing, name="record"),
    path("<id:pk>/pairings/<id:pairing_id>/forfeit", views.record_forfeit, name="forfeit"),
    path("<id:pk>/swap", views.swap_entries, name="swap"),
    path("<id:pk>/play-online", views.play_online, name="play-online"),
    path("<id:pk>/standings.csv", views.standings_csv, name="standings-csv"),
    path("<id:pk>/games.zip", views.games_zip, name="games-zip"),
]

urlpatterns = [
    path("clubs/<slug:slug>/tournaments/", views.club_tournaments, name="club-tournaments"),
    path("clubs/<slug:slug>/tournaments/new/", views.tournament_create, name="tournament-create"),
    path("tournaments/", include((event_patterns, "tournaments"))),
]
