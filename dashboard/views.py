from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from dashboard import selectors
from dashboard.charts import stacked_bars
from games.policy import can_operate


def _period(request: HttpRequest) -> int:
    """``?days=N`` when N is one of the offered periods, else the default."""
    try:
        days = int(request.GET.get("days", ""))
    except ValueError:
        return selectors.DEFAULT_PERIOD
    return days if days in selectors.PERIODS else selectors.DEFAULT_PERIOD


def dashboard(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not can_operate(request.user):
        raise PermissionDenied("The dashboard is for the site's operators.")
    days, series = selectors.uploads_per_day()
    period = _period(request)
    rates = selectors.rejection_rates(period)
    games = [rate.game for rate in rates if rate.game]
    # ?game= narrows the rule counts and recent rejections to one game the period saw.
    game = request.GET.get("game") or None
    if game not in games:
        game = None
    return render(
        request,
        "dashboard/index.html",
        {
            "uploads_chart": stacked_bars(days, series),
            "uploads_total": sum(sum(v) for v in series.values()),
            "database": selectors.database_size(),
            "queue": selectors.queue_health(),
            "periods": selectors.PERIODS,
            "period": period,
            "games": games,
            "game": game,
            "rejection_rates": rates,
            "frequent_rules": selectors.frequent_rejection_rules(period, game=game),
            "recent_rejections": selectors.recent_rejections(game=game),
            "slowest_validations": selectors.slowest_validations(period),
        },
    )
