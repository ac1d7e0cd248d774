from django.urls import path

from tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("<int:pk>/", views.tournament_detail, name="detail"),
    path("<int:pk>/rounds/<int:round_number>/", views.round_detail, name="round"),
    path("<int:pk>/next-round", views.next_round, name="next-round"),
    path("<int:pk>/pairings/<int:pairing_id>/result", views.upload_result, name="upload-result"),
    path("<int:pk>/pairings/<int:pairing_id>/forfeit", views.record_forfeit, name="forfeit"),
    path("<int:pk>/swap", views.swap_entries, name="swap"),
    path("<int:pk>/standings.csv", views.standings_csv, name="standings-csv"),
    path("<int:pk>/games.zip", views.games_zip, name="games-zip"),
]
