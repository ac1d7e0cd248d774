"""The live tables' pages: ``/clubs/{slug}/tables/new/`` (open a table), the table's page
``/clubs/{slug}/tables/{id}/`` (also its invitation link; drawn by
``static/js/live/table.js``, which talks only to the tables API and the table's socket)
and the seat-taking and abandoning buttons of the club page and the table page. Thin: live.policy
decides, the services write."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_backends, login
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.forms import HiddenInput
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from clubs import selectors as club_selectors
from clubs.models import Club
from config.errors import OverBudget, with_retry_after
from config.query import keeping_language
from config.sentences import say
from engine import get_game
from live import clocks, endings, guests, policy, selectors, services
from live.forms import OpenTableForm
from live.models import Table
from recorder import selectors as recorder_selectors
from recorder.forms import SERVER, GameChoiceForm


def _back(request: HttpRequest, name: str, *args: object) -> HttpResponse:
    """A redirect to the page ``name`` in the language the form was read in."""
    return redirect(keeping_language(request, reverse(name, args=args)))


def _member_club(request: HttpRequest, slug: str) -> Club | HttpResponse:
    club = club_selectors.club_for(request.user, slug)
    if club is None:
        raise Http404("no such club")
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not policy.can_open_table(request.user, club):
        raise PermissionDenied("only members of this club play at its tables")
    return club


def _watched_table(
    request: HttpRequest, slug: str, table_id: int
) -> tuple[Club, Table] | HttpResponse:
    """The club's table ``table_id`` that the person may watch: a member, or a guest at one
    of its seats (404 for a table of a club they cannot see; 403 for a member of none)."""
    if not request.user.is_authenticated:
        if club_selectors.club_for(request.user, slug) is None:
            raise Http404("no such club")
        return redirect_to_login(request.get_full_path())
    endings.settle_due(table_id)
    table = selectors.table_for(request.user, table_id)
    if table is None or table.club.slug != slug:
        raise Http404("no such table")
    if not policy.can_watch(request.user, table):
        raise PermissionDenied("only members of this club play at its tables")
    return table.club, table


def new_table(request: HttpRequest, slug: str) -> HttpResponse:
    club = _member_club(request, slug)
    if isinstance(club, HttpResponse):
        return club
    catalogue = recorder_selectors.game_catalogue()
    choice = GameChoiceForm(
        {**request.GET.dict(), "chance": SERVER} if "game" in request.GET else None,
        catalogue=catalogue,
        initial={"chance": SERVER},
    )
    choice.fields["chance"].widget = HiddenInput()  # the server deals every live game
    chosen = choice.chosen() if choice.is_bound else None
    context = {"club": club, "choice": choice, "form": None}
    if chosen is None:
        return render(request, "live/new.html", context)
    game, entry, player_count, _chance = chosen
    form = OpenTableForm(
        request.POST or None, game=game, seat_ids=entry["seats"][str(player_count)]
    )
    over_budget: OverBudget | None = None
    if request.method == "POST" and form.is_valid():
        try:
            table = services.open_table(
                club,
                request.user,
                game_id=game.id,
                options=form.options,
                seats=form.table_seats(),
                clock=form.time_control(),
            )
        except services.TableError as exc:
            form.add_error(None, f"{exc.rule}: {exc.message}" if exc.rule else exc.message)
        except OverBudget as exc:  # the person's share of the bots (recorder.budgets)
            form.add_error(None, exc.message)
            over_budget = exc
        else:
            return _back(request, "live-table", club.slug, table.pk)
    context.update(
        form=form,
        game=game,
        player_count=player_count,
        several_counts=len(entry["player_counts"]) > 1,
    )
    if over_budget is not None:
        return with_retry_after(render(request, "live/new.html", context, status=429), over_budget)
    return render(request, "live/new.html", context, status=422 if form.errors else 200)


def socket_origin(table_id: int) -> str:
    """Where a table's page opens its socket: ``LIVE_SOCKET_ORIGIN``, or with several
    (comma-separated: one Daphne process each, `make prod`'s LIVE_PROCESSES) the one
    chosen by the table's id, so both seats' sockets share that process's reads."""
    origins = [origin.strip() for origin in settings.LIVE_SOCKET_ORIGIN.split(",")]
    return origins[table_id % len(origins)]


def table_page(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    found = _watched_table(request, slug, table_id)
    if isinstance(found, HttpResponse):
        return found
    club, table = found
    game = get_game(table.game)
    seat = policy.seat_of(request.user, table)
    config = {
        "table": table.pk,
        "eyes": policy.eyes(request.user, table),
        "renderer": game.renderer if game else "generic",
        "static": game.static_view(table.options) if game else None,
        "options": table.options,
        "urls": {
            "table": reverse("api-table", args=[table.pk]),
            "news": reverse("api-table-news", args=[table.pk]),
            "legal": reverse("api-table-legal-actions", args=[table.pk]),
            "act": reverse("api-table-act", args=[table.pk]),
            "claim": reverse("api-table-claim", args=[table.pk]),
            "takeback": reverse("api-table-takeback", args=[table.pk]),
            "takebackAnswer": reverse("api-table-takeback-answer", args=[table.pk]),
        },
        "seat": seat.seat if seat is not None else None,
        "takebacks": seat is not None and policy.takes_back(table),
        "socket": f"{socket_origin(table.pk)}/ws/tables/{table.pk}/",
        "csrfToken": get_token(request),
    }
    return render(
        request,
        "live/table.html",
        {
            "club": club,
            "table": table,
            "game_name": say(game.title()) if game else table.game,
            "seats": selectors.seat_rows(table),
            "seat": seat,
            "can_take_seat": seat is None and policy.can_take_seat(request.user, table),
            "clock_label": clocks.label(table),
            "can_abandon": table.status in services.NOT_OVER
            and policy.can_abandon(request.user, table),
            "invite_url": request.build_absolute_uri(
                reverse("live-table", args=[club.slug, table.pk])
            ),
            "can_link_seat": policy.can_link_seat(request.user, table),
            "new_link": _new_link(request, table),
            "config": config,
        },
    )


@require_POST
def take_seat(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    found = _watched_table(request, slug, table_id)
    if isinstance(found, HttpResponse):
        return found
    club, table = found
    try:
        services.take_seat(table.pk, request.user, request.POST.get("seat") or None)
    except (services.TableError, OverBudget) as exc:
        messages.error(request, exc.message)
    return _back(request, "live-table", club.slug, table.pk)


@require_POST
def abandon(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    found = _watched_table(request, slug, table_id)
    if isinstance(found, HttpResponse):
        return found
    club, table = found
    if not policy.can_abandon(request.user, table):
        raise PermissionDenied("only the person who opened a table, or an organiser, abandons it")
    try:
        services.abandon_table(table.pk, request.user)
    except services.TableError as exc:
        messages.error(request, exc.message)
        return _back(request, "live-table", club.slug, table.pk)
    messages.success(request, gettext("The table was abandoned."))
    return _back(request, "club", club.slug)


# --- guests by one-time seat links (live.guests) ---------------------------------------------

#: The session key holding the link just made, shown once on the table's page.
NEW_LINK = "live_new_seat_link"


def _new_link(request: HttpRequest, table: Table) -> dict[str, str] | None:
    made = request.session.get(NEW_LINK)
    if not made or made.get("table") != table.pk:
        return None
    del request.session[NEW_LINK]
    return made


@require_POST
def make_seat_link(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    found = _watched_table(request, slug, table_id)
    if isinstance(found, HttpResponse):
        return found
    club, table = found
    if not policy.can_link_seat(request.user, table):
        raise PermissionDenied("the table's opener or an organiser, where the club allows guests")
    seat = request.POST.get("seat", "")
    try:
        token = guests.make_link(table.pk, request.user, seat)
    except services.TableError as exc:
        messages.error(request, exc.message)
    else:
        label = next(
            (row["label"] for row in selectors.seat_rows(table) if row["seat"] == seat), seat
        )
        request.session[NEW_LINK] = {
            "table": table.pk,
            "seat": label,
            "url": request.build_absolute_uri(reverse("live-seat-link", args=[token])),
        }
    return _back(request, "live-table", club.slug, table.pk)


def _account_backend() -> str:
    """The site's backend of accounts in the database (the one a session keeps its person
    with: a Django ModelBackend among ``AUTHENTICATION_BACKENDS``)."""
    backend = next(b for b in get_backends() if isinstance(b, ModelBackend))
    return f"{type(backend).__module__}.{type(backend).__qualname__}"


def seat_link(request: HttpRequest, token: str) -> HttpResponse:
    """A one-time seat link: who opens it sees the table's game and seat, gives a name when
    they are not a member of the club, and takes the seat with one click."""
    link = guests.waiting_link(token)
    if link is None:
        return render(request, "live/seat_link.html", {"spent": True}, status=410)
    table = link.table
    user = request.user if request.user.is_authenticated else None
    member = user is not None and policy.can_open_table(user, table.club)
    error = None
    if request.method == "POST":
        try:
            table, seated = guests.take_by_link(token, user, request.POST.get("name"))
        except services.TableError as exc:
            error = exc.message
        except OverBudget as exc:
            error = exc.message
        else:
            if user is None:  # a guest account of their own, held by this session
                login(request, seated, backend=_account_backend())
            return _back(request, "live-table", table.club.slug, table.pk)
    game = get_game(table.game)
    label = next((r["label"] for r in selectors.seat_rows(table) if r["seat"] == link.seat), "")
    return render(
        request,
        "live/seat_link.html",
        {
            "spent": False,
            "club": table.club,
            "game_name": say(game.title()) if game else table.game,
            "seat_label": label,
            "opener": table.created_by.get_username(),
            "ask_name": not member,
            "name": request.POST.get("name", user.get_username() if user else ""),
            "error": error,
        },
        status=422 if error else 200,
    )
