"""Event pages: thin views over tournaments.selectors and services."""

from __future__ import annotations

import csv
import io
import re
import zipfile

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from clubs import policy
from engine import canonical_json
from games.services import LogRejected, read_log_file
from tournaments import selectors, services
from tournaments.models import Pairing, Tournament
from tournaments.pairing import pairing_rules
from tournaments.seating import layout_of
from tournaments.standings import TIEBREAKS


def _tournament(request: HttpRequest, pk: int) -> Tournament:
    return get_object_or_404(selectors.visible_tournaments(request.user), pk=pk)


def tournament_list(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/list.html",
                  {"tournaments": selectors.visible_tournaments(request.user)})


def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    rows = selectors.standings(tournament)
    layout = layout_of(tournament.game)
    # The two roles as pairing counts them (a seat's side), for the pairing rules; a game
    # the engine no longer has names none.
    first, second = (("first role", "second role") if layout is None or layout.min_players > 2
                     else (layout.role_class(seat) for seat in layout.seats(2)))
    return render(request, "tournaments/detail.html", {
        "tournament": tournament,
        "layout": layout,
        "pairing_rules": pairing_rules(
            swiss=tournament.format == Tournament.Format.SWISS, roles=(first, second),
            table_size=tournament.table_size, double=tournament.double,
            strict_roles=tournament.strict_role_parity),
        "rows": rows,
        "tiebreaks": [(key, TIEBREAKS[key]) for key in tournament.tiebreaks],
        "rounds": range(1, tournament.current_round + 1),
        "round_complete": selectors.round_complete(tournament, tournament.current_round),
        "can_manage": policy.can_manage_tournament(request.user, tournament.club),
        "forbidden": tournament.forbidden_pairings.select_related("first__player",
                                                                   "second__player"),
    })


def round_detail(request: HttpRequest, pk: int, round_number: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    if not 1 <= round_number <= tournament.current_round:
        return render(request, "tournaments/round.html", {
            "tournament": tournament, "round_number": round_number, "pairings": []},
            status=404)
    return render(request, "tournaments/round.html", {
        "tournament": tournament,
        "round_number": round_number,
        "pairings": selectors.pairings(tournament, round_number),
        "can_manage": policy.can_manage_tournament(request.user, tournament.club),
        "entries": selectors.active_entries(tournament).order_by("player__handle"),
        "previous": round_number - 1 if round_number > 1 else None,
        "next": round_number + 1 if round_number < tournament.current_round else None,
    })


@require_POST
def next_round(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _managed(request, pk)
    try:
        number = (services.start_tournament(tournament).current_round
                  if tournament.status == Tournament.Status.REGISTRATION
                  else services.request_next_round(tournament))
        messages.success(request, f"Round {number} is being paired.")
    except services.TournamentError as exc:
        messages.error(request, str(exc))
    return redirect("tournaments:detail", pk=tournament.pk)


@require_POST
def upload_result(request: HttpRequest, pk: int, pairing_id: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    pairing = get_object_or_404(Pairing, tournament=tournament, pk=pairing_id)
    users = {s.entry.player.user_id for s in pairing.seats.select_related("entry__player")}
    if not policy.can_record_pairing_result(request.user, tournament.club, users - {None}):
        raise PermissionDenied("only an organiser or a player of this pairing may upload it")
    upload = request.FILES.get("log")
    try:
        if upload is None:
            raise services.TournamentError("choose the log file of the game")
        document, _name = read_log_file(tournament.club, upload, request.user)
        services.record_result(pairing, document, request.user)
        messages.success(request, f"Result of board {pairing.board} recorded.")
    except services.TournamentError as exc:
        messages.error(request, str(exc))
    except LogRejected as exc:
        messages.error(request, f"The log was refused: {exc.message}"
                       + (f" ({exc.rule})" if exc.rule else ""))
    return redirect("tournaments:round", pk=tournament.pk, round_number=pairing.round)


def _managed(request: HttpRequest, pk: int) -> Tournament:
    tournament = _tournament(request, pk)
    if not policy.can_manage_tournament(request.user, tournament.club):
        raise PermissionDenied("only the club's organisers run its events")
    return tournament


@require_POST
def record_forfeit(request: HttpRequest, pk: int, pairing_id: int) -> HttpResponse:
    tournament = _managed(request, pk)
    pairing = get_object_or_404(Pairing, tournament=tournament, pk=pairing_id)
    absent = list(tournament.entries.filter(pk__in=request.POST.getlist("absent")))
    try:
        services.record_forfeit(pairing, absent, request.POST.get("reason", ""))
        messages.success(request, f"Forfeit on board {pairing.board} recorded.")
    except services.TournamentError as exc:
        messages.error(request, str(exc))
    return redirect("tournaments:round", pk=tournament.pk, round_number=pairing.round)


@require_POST
def swap_entries(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _managed(request, pk)
    first = get_object_or_404(tournament.entries, pk=request.POST.get("first") or 0)
    second = get_object_or_404(tournament.entries, pk=request.POST.get("second") or 0)
    try:
        services.swap_entries(tournament, first, second, request.POST.get("reason", ""))
        messages.success(request, f"{first.player.handle} and {second.player.handle} swapped.")
    except services.TournamentError as exc:
        messages.error(request, str(exc))
    return redirect("tournaments:round", pk=tournament.pk, round_number=tournament.current_round)


def standings_csv(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    rows = selectors.standings(tournament)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["rank", "player", "points", "played", "wins", "byes",
                     *[TIEBREAKS[t] for t in tournament.tiebreaks]])
    for row in rows:
        writer.writerow([f"{row.rank}=" if row.shared else row.rank, row.entrant.name,
                         f"{row.points:g}", row.played, row.wins, row.byes,
                         *["" if t in row.not_applied else f"{row.tiebreaks[t]:g}"
                           for t in tournament.tiebreaks]])
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="event-{tournament.pk}-standings.csv"'
    return response


def games_zip(request: HttpRequest, pk: int) -> HttpResponse:
    """Every played game of the event as its lantern-log/1 file, named by round and board."""
    tournament = _tournament(request, pk)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for pairing in selectors.played_matches(tournament):
            players = "-".join(re.sub(r"[^A-Za-z0-9_.]+", "_", s.entry.player.handle)
                               for s in pairing.seats.all())
            leg = f"-game{pairing.leg}" if tournament.double else ""
            name = f"round{pairing.round:02d}-board{pairing.board:02d}{leg}-{players}.json"
            archive.writestr(name, canonical_json(pairing.match.log.document))
    response = HttpResponse(buffer.getvalue(), content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="event-{tournament.pk}-games.zip"'
    return response
