from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from dashboard import selectors
from dashboard.charts import stacked_bars
from games.policy import can_operate


def dashboard(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not can_operate(request.user):
        raise PermissionDenied("The dashboard is for the site's operators.")
    days, series = selectors.uploads_per_day()
    return render(
        request,
        "dashboard/index.html",
        {
            "uploads_chart": stacked_bars(days, series),
            "uploads_total": sum(sum(v) for v in series.values()),
            "database": selectors.database_size(),
            "queue": selectors.queue_health(),
        },
    )
