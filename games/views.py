from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.selectors import clubs_with_player_counts, recent_matches


def index(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "games/index.html",
        {
            "clubs": clubs_with_player_counts(request.user),
            "matches": recent_matches(request.user),
        },
    )
