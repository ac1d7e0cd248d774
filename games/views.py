from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.selectors import recent_matches, visible_clubs


def index(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "games/index.html",
        {
            "clubs": visible_clubs(request.user),
            "matches": recent_matches(request.user),
        },
    )
