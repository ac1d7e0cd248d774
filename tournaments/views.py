"""Event pages: thin views over tournaments.selectors and services."""

from __future__ import annotations

import csv
import io
import re
import zipfile
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext, ngettext, pgettext
from django.views.decorators.http import require_POST

from clubs import policy
from clubs import services as club_services
from clubs.models import Club, Player
from clubs.selectors import MEMBER_PICK, club_for, show_times_of
from clubs.services import ClubError
from engine import canonical_json, get_game
from games.display import rating_role
from games.services import LogRejected, read_log_file
from live.services import TableError
from recorder.errors import DraftError
from recorder.forms import TABLE, DraftSetupForm
from tournaments import online, selectors, services
from tournaments.explanations import say
from tournaments.forms import EntryForm, RoundClockForm, TournamentForm
from tournaments.models import Pairing, Tournament
from tournaments.pairing import english, pairing_rules
from tournaments.seating import layout_of
from tournaments.services import TournamentError
from tournaments.standings import TIEBREAKS


def _tournament(request: HttpRequest, pk: int) -> Tournament:
    tournament = get_object_or_404(
        selectors.visible_tournaments(request.user).select_related("club"), pk=pk
    )
    show_times_of(tournament.club)  # an event's times in its club's zone
    return tournament


def tournament_list(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "tournaments/list.html",
        {"tournaments": selectors.visible_tournaments(request.user)},
    )


def _club(request: HttpRequest, slug: str) -> Club:
    club = club_for(request.user, slug)
    if club is None:
        raise Http404("no such club")
    return club


def club_tournaments(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club(request, slug)
    return render(
        request,
        "tournaments/list.html",
        {
            "club": club,
            "tournaments": selectors.visible_tournaments(request.user).filter(club=club),
            "can_manage": policy.can_manage_tournament(request.user, club),
        },
    )


def tournament_create(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club(request, slug)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not policy.can_manage_tournament(request.user, club):
        raise PermissionDenied("only the club's organisers create its events")
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            with transaction.atomic():
                tournament = services.create_tournament(
                    club=club,
                    name=data["name"],
                    game=data["game"],
                    format=data["format"],
                    rounds=data["rounds"],
                    table_size=data["table_size"],
                    double=data["double"],
                    strict_role_parity=data["strict_role_parity"],
                    bye_points=data["bye_points"],
                    created_by=request.user,
                )
                online.set_round_clock(tournament, form.round_clock())
        except services.TournamentError as exc:
            form.add_error(None, _sentence(exc))
        else:
            messages.success(
                request,
                gettext("%(event)s is open for entries: enter the players.")
                % {"event": tournament.name},
            )
            return redirect("tournaments:detail", pk=tournament.pk)
    return render(request, "tournaments/create.html", {"club": club, "form": form})


@require_POST
def entry_add(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    club = tournament.club
    form = EntryForm(request.POST, players=selectors.player_choices(tournament))
    if not form.is_valid():
        messages.error(request, " ".join(form.non_field_errors()) or gettext("Choose a player."))
        return redirect("tournaments:detail", pk=tournament.pk)
    picked = form.cleaned_data["player"]
    player = member_id = None
    if picked.startswith(MEMBER_PICK):  # a member with no handle yet, by name
        member_id = int(picked.removeprefix(MEMBER_PICK))
    elif picked:
        player = get_object_or_404(Player, club=club, pk=picked)
    if not policy.can_enter_player(
        request.user, club, member_id or (player.user_id if player else None)
    ):
        raise PermissionDenied("only an organiser enters others; members enter themselves")
    try:
        with transaction.atomic():
            if member_id is not None:
                player = club_services.handle_for_member(request.user, club, member_id)
            entry = (
                services.add_entry(tournament, player)
                if player is not None
                else services.enter_handle(tournament, form.cleaned_data["handle"])
            )
        messages.success(
            request, gettext("%(player)s is entered.") % {"player": entry.player.handle}
        )
    except (services.TournamentError, ClubError) as exc:
        messages.error(request, _sentence(exc))
    return redirect("tournaments:detail", pk=tournament.pk)


@require_POST
def entry_withdraw(request: HttpRequest, pk: int, entry_id: int) -> HttpResponse:
    from clubs.views import confirm_first

    tournament = _tournament(request, pk)
    entry = get_object_or_404(tournament.entries.select_related("player"), pk=entry_id)
    if not policy.can_enter_player(request.user, tournament.club, entry.player.user_id):
        raise PermissionDenied("only an organiser withdraws others; members withdraw themselves")
    asked = confirm_first(
        request,
        title=gettext("Withdraw from the event"),
        button=pgettext("withdraw from a tournament", "Withdraw"),
        question=gettext("Withdraw %(player)s from %(event)s?")
        % {"player": entry.player.handle, "event": tournament.name},
        detail=gettext("Results so far stay; no later round pairs them.")
        if tournament.status != Tournament.Status.REGISTRATION
        else gettext("They can be entered again until the event starts."),
        back=reverse("tournaments:detail", args=[tournament.pk]),
    )
    if asked:
        return asked
    services.withdraw_entry(entry)
    messages.success(request, gettext("%(player)s is withdrawn.") % {"player": entry.player.handle})
    return redirect("tournaments:detail", pk=tournament.pk)


def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    rows = selectors.standings(tournament)
    for row in rows:  # each tie-break's arithmetic, its words in the reader's language
        row.explained_text = {key: say(said, tournament.game) for key, said in row.said.items()}
    layout = layout_of(tournament.game)
    # The two roles as pairing counts them (a seat's side), for the pairing rules; a game
    # the engine no longer has names none.
    first, second = (
        (gettext("first role"), gettext("second role"))
        if layout is None or layout.min_players > 2
        else (rating_role(tournament.game, layout.role_class(seat)) for seat in layout.seats(2))
    )
    can_manage = policy.can_manage_tournament(request.user, tournament.club)
    own = selectors.own_players(request.user, tournament)
    return render(
        request,
        "tournaments/detail.html",
        {
            "tournament": tournament,
            "crosstable": selectors.crosstable(tournament, rows),
            "entries": tournament.entries.select_related("player__user").order_by(
                "withdrawn", "-seed_rating", "id"
            ),
            "entry_form": EntryForm(players=selectors.player_choices(tournament))
            if can_manage
            else None,
            "own_players": own,
            "may_enter_self": request.user.is_authenticated
            and policy.can_enter_player(request.user, tournament.club, request.user.pk),
            "own_entry_ids": {e.pk for e in tournament.entries.filter(player__in=own)},
            "layout": layout,
            "pairing_rules": [
                (say(kind, tournament.game), say(rule, tournament.game))
                for kind, rule in pairing_rules(
                    swiss=tournament.format == Tournament.Format.SWISS,
                    roles=(first, second),
                    table_size=tournament.table_size,
                    double=tournament.double,
                    strict_roles=tournament.strict_role_parity,
                )
            ],
            "rows": rows,
            "tiebreaks": [
                (key, say(TIEBREAKS[key], tournament.game)) for key in tournament.tiebreaks
            ],
            "rounds": range(1, tournament.current_round + 1),
            "round_complete": selectors.round_complete(tournament, tournament.current_round),
            "can_manage": can_manage,
            "your_tables": online.your_tables(tournament, request.user),
            "round_clock": online.round_clock_label(tournament),
            "forbidden": tournament.forbidden_pairings.select_related(
                "first__player", "second__player"
            ),
        },
    )


def round_print(request: HttpRequest, pk: int, round_number: int) -> HttpResponse:
    """The round's pairings on one sheet, to pin up at the venue."""
    tournament = _tournament(request, pk)
    if not 1 <= round_number <= tournament.current_round:
        raise Http404("this round has not been paired")
    return render(
        request,
        "tournaments/round_print.html",
        {
            "tournament": tournament,
            "round_number": round_number,
            "pairings": selectors.pairings(tournament, round_number),
        },
    )


def round_detail(request: HttpRequest, pk: int, round_number: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    if not 1 <= round_number <= tournament.current_round:
        return render(
            request,
            "tournaments/round.html",
            {"tournament": tournament, "round_number": round_number, "pairings": []},
            status=404,
        )
    pairings = list(selectors.pairings(tournament, round_number).select_related("table"))
    for pairing in pairings:
        pairing.online = online.playing_online(pairing)
        pairing.seated_here = pairing.online is not None and any(
            seat.user_id == request.user.pk for seat in pairing.online.seats.all()
        )
        # Upload or record its game (clubs.policy): an organiser, or one of its players.
        pairing.may_settle = request.user.is_authenticated and policy.can_record_pairing_result(
            request.user,
            tournament.club,
            {s.entry.player.user_id for s in pairing.seats.all()} - {None},
        )
    return render(
        request,
        "tournaments/round.html",
        {
            "tournament": tournament,
            "round_number": round_number,
            "pairings": pairings,
            "can_manage": policy.can_manage_tournament(request.user, tournament.club),
            "entries": selectors.active_entries(tournament).order_by("player__handle"),
            "can_start_online": round_number == tournament.current_round
            and tournament.status == Tournament.Status.RUNNING
            and any(p.status == Pairing.Status.PENDING and p.online is None for p in pairings),
            "clock_form": RoundClockForm(tournament=tournament),
            "previous": round_number - 1 if round_number > 1 else None,
            "next": round_number + 1 if round_number < tournament.current_round else None,
        },
    )


@require_POST
def next_round(request: HttpRequest, pk: int) -> HttpResponse:
    from clubs.views import confirm_first

    tournament = _managed(request, pk)
    if tournament.status == Tournament.Status.REGISTRATION:
        # Starting closes the entries for good: asked first, as every step not undone is.
        entered = selectors.active_entries(tournament).count()
        asked = confirm_first(
            request,
            title=gettext("Start the event"),
            button=gettext("Start and pair round 1"),
            question=ngettext(
                "Start %(event)s with %(count)s entrant and pair round 1?",
                "Start %(event)s with %(count)s entrants and pair round 1?",
                entered,
            )
            % {"event": tournament.name, "count": entered},
            detail=gettext("Entries close: no one can be entered after the start."),
            back=reverse("tournaments:detail", args=[tournament.pk]),
        )
        if asked:
            return asked
    try:
        number = (
            services.start_tournament(tournament).current_round
            if tournament.status == Tournament.Status.REGISTRATION
            else services.request_next_round(tournament)
        )
        messages.success(request, gettext("Round %(round)s is being paired.") % {"round": number})
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
            raise services.TournamentError(gettext("choose the log file of the game"))
        document, _name = read_log_file(tournament.club, upload, request.user)
        services.record_result(pairing, document, request.user)
        messages.success(
            request, gettext("Result of board %(board)s recorded.") % {"board": pairing.board}
        )
    except services.TournamentError as exc:
        messages.error(request, str(exc))
    except LogRejected as exc:
        messages.error(
            request,
            gettext("The log was refused: %(reason)s") % {"reason": exc.message}
            + (f" ({exc.rule})" if exc.rule else ""),
        )
    return redirect("tournaments:round", pk=tournament.pk, round_number=pairing.round)


def record_pairing(request: HttpRequest, pk: int, pairing_id: int) -> HttpResponse:
    """Record a pairing's game at the table: the recorder's setup with the event's game
    and options and the pairing's players in their seats fixed (only what was dealt is
    asked), then the recorder itself; a game being recorded already is resumed."""
    tournament = _tournament(request, pk)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    pairing = selectors.pairing_with_draft(tournament, pairing_id)
    seats = list(pairing.seats.select_related("entry__player").order_by("order"))
    club = tournament.club
    if not policy.can_record_pairing_result(
        request.user, club, {s.entry.player.user_id for s in seats} - {None}
    ):
        raise PermissionDenied("only an organiser or a player of this pairing may record it")
    round_url = reverse("tournaments:round", args=[tournament.pk, pairing.round])
    back = redirect(round_url)

    def recorder(draft_id: int) -> HttpResponse:
        return redirect(
            f"{reverse('record-draft', args=[club.slug, draft_id])}?"
            f"{urlencode({'back': round_url})}"
        )

    if pairing.recording is not None:
        messages.info(
            request,
            gettext("Board %(board)s's game is being recorded: here it is.")
            % {"board": pairing.board},
        )
        return recorder(pairing.draft_id)
    game = get_game(tournament.game)
    if (
        pairing.status != Pairing.Status.PENDING
        or tournament.status != Tournament.Status.RUNNING
        or game is None
    ):
        messages.error(
            request, gettext("Board %(board)s has no game to record.") % {"board": pairing.board}
        )
        return back
    form = DraftSetupForm(
        request.POST if request.method == "POST" else None,
        game=game,
        seat_ids=[s.seat for s in seats],
        chance=TABLE,
        players=[],
        setup_choices=[],
        options=tournament.options,
        seated={s.seat: s.entry.player.handle for s in seats},
    )
    if request.method == "POST" and form.is_valid():
        try:
            draft, _new = services.record_at_the_table(pairing, request.user, form.setup)
        except services.TournamentError as exc:
            messages.error(request, str(exc)[:1].upper() + str(exc)[1:] + ".")
            return back
        except DraftError as exc:
            form.add_error(None, f"{exc.rule}: {exc.message}" if exc.rule else exc.message)
        else:
            return recorder(draft.pk)
    return render(
        request,
        "tournaments/record.html",
        {
            "tournament": tournament,
            "pairing": pairing,
            "form": form,
            "game": game,
        },
        status=422 if form.errors else 200,
    )


@require_POST
def play_online(request: HttpRequest, pk: int) -> HttpResponse:
    """Open a live table for each pending pairing of the current round (organisers)."""
    tournament = _managed(request, pk)
    form = RoundClockForm(request.POST, tournament=tournament)
    try:
        if "clock" in request.POST:  # the organiser's choice on the round page
            if not form.is_valid():
                raise TournamentError(form.errors["clock"][0])
            online.set_round_clock(tournament, form.round_clock())
        started = online.start_round_online(tournament, request.user)
    except (TournamentError, TableError) as exc:
        messages.error(request, _sentence(exc))
    else:
        if started.tables:
            messages.success(
                request,
                ngettext(
                    "%(count)s table opened: its players find it on this page and the club's.",
                    "%(count)s tables opened: their players find them on this page and the club's.",
                    len(started.tables),
                )
                % {"count": len(started.tables)},
            )
        for pairing, why in started.skipped:
            messages.warning(
                request,
                gettext("Board %(board)s is not played online: %(why)s.")
                % {"board": pairing.board, "why": why},
            )
    return redirect("tournaments:round", tournament.pk, tournament.current_round)


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
        messages.success(
            request, gettext("Forfeit on board %(board)s recorded.") % {"board": pairing.board}
        )
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
        messages.success(
            request,
            gettext("%(first)s and %(second)s swapped.")
            % {"first": first.player.handle, "second": second.player.handle},
        )
    except services.TournamentError as exc:
        messages.error(request, str(exc))
    return redirect("tournaments:round", pk=tournament.pk, round_number=tournament.current_round)


#: What makes a spreadsheet read a cell as a formula when it starts one (OWASP, "CSV
#: injection"): tab and carriage return too, since some programs drop them and read on.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_text(cell: str) -> str:
    """``cell`` as a spreadsheet shows it and never runs it: a leading ``'`` marks it text."""
    return "'" + cell if cell.startswith(FORMULA_STARTS) else cell


def standings_csv(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(request, pk)
    rows = selectors.standings(tournament)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        [
            "rank",
            "player",
            "points",
            "played",
            "wins",
            "byes",
            *[english(TIEBREAKS[t]) for t in tournament.tiebreaks],
        ]
    )
    # Only the player's name is anyone's text; every other cell is a number this view wrote.
    for row in rows:
        writer.writerow(
            [
                f"{row.rank}=" if row.shared else row.rank,
                spreadsheet_text(row.entrant.name),
                f"{row.points:g}",
                row.played,
                row.wins,
                row.byes,
                *[
                    "" if t in row.not_applied else f"{row.tiebreaks[t]:g}"
                    for t in tournament.tiebreaks
                ],
            ]
        )
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="event-{tournament.pk}-standings.csv"'
    return response


def games_zip(request: HttpRequest, pk: int) -> HttpResponse:
    """Every played game of the event as its lantern-log/1 file, named by round and board."""
    tournament = _tournament(request, pk)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for pairing in selectors.played_matches(tournament, request.user):
            players = "-".join(
                re.sub(r"[^A-Za-z0-9_.]+", "_", s.entry.player.handle) for s in pairing.seats.all()
            )
            leg = f"-game{pairing.leg}" if tournament.double else ""
            name = f"round{pairing.round:02d}-board{pairing.board:02d}{leg}-{players}.json"
            archive.writestr(name, canonical_json(pairing.match.log.document))
    response = HttpResponse(buffer.getvalue(), content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="event-{tournament.pk}-games.zip"'
    return response


def _sentence(exc: Exception) -> str:
    """A service's refusal (a clause: "the event has started") as a sentence on a page."""
    text = str(exc)
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "。", "!", "?")) else text + "."
