from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from analysis.selectors import clubs_analysis_today
from clubs.policy import can_operate
from config.errors import AppError, error_response
from dashboard import selectors
from dashboard.charts import legend, stacked_bars
from games.display import game_name
from ladder.services import RecomputeError, retry_recompute


def _period(request: HttpRequest) -> int:
    """``?days=N`` when N is one of the offered periods, else the default."""
    try:
        days = int(request.GET.get("days", ""))
    except ValueError:
        return selectors.DEFAULT_PERIOD
    return days if days in selectors.PERIODS else selectors.DEFAULT_PERIOD


def _jobs() -> dict[str, list[dict[str, Any]]]:
    """The ladder jobs as shown on the page and in jobs.json: failed and stalled ones
    with their retry address."""
    jobs = {
        group: [selectors.job_summary(job) for job in rows]
        for group, rows in selectors.ladder_jobs().items()
    }
    for job in [*jobs["failed"], *(job for job in jobs["active"] if job["stalled"])]:
        job["retry_url"] = reverse("dashboard-job-retry", args=[job["id"]])
    return jobs


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
    # Each game by its name in the reader's language, not its id.
    named = {game_name(g): counts for g, counts in series.items()}
    return render(
        request,
        "dashboard/index.html",
        {
            "uploads_chart": stacked_bars(days, named),
            "uploads_legend": legend(list(named)),
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
            "jobs": _jobs(),
            "dropped_tasks": selectors.dropped_tasks(),
            "failed_imports": selectors.failed_imports(),
            "analysis_days": clubs_analysis_today(),
            "analysis_limit": settings.LANTERN_CLUB_ANALYSIS_SECONDS_PER_DAY,
        },
    )


@require_GET
def jobs_json(request: HttpRequest) -> JsonResponse:
    """The ladder jobs, polled by static/js/dashboard/jobs.js while the page is open.
    Refused with 403 (not a redirect to the login page: a script reads it)."""
    if not can_operate(request.user):
        return error_response(AppError("operators only", code="forbidden"))
    response = JsonResponse({"jobs": _jobs()})
    response["Cache-Control"] = "no-store"
    return response


@require_POST
def retry_job(request: HttpRequest, job_id: int) -> HttpResponse:
    if not can_operate(request.user):
        raise PermissionDenied("Only the site's operators retry jobs.")
    try:
        retry = retry_recompute(request.user, job_id)
    except RecomputeError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request, gettext("Recompute queued again as job %(job)s.") % {"job": retry.pk}
        )
    return redirect(reverse("dashboard") + "#jobs")
