"""The recorder's pages: ``/clubs/{slug}/record/`` (choose the game, options, setup and
seats) and ``/clubs/{slug}/record/{id}/`` (the recording screen, drawn by
``static/js/recorder/``). Thin: clubs.policy decides, the recorder's services write,
and the screen itself talks only to the drafts API."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme

from clubs import policy
from clubs import selectors as club_selectors
from clubs import services as club_services
from clubs.bots import names_at_table
from clubs.models import Club
from clubs.services import ClubError
from config.errors import OverBudget, with_retry_after
from config.query import form_data
from config.sentences import engine_locale, say
from engine import Table, get_game
from engine import render as render_message
from recorder import policy as draft_policy
from recorder import selectors as draft_selectors
from recorder import services
from recorder.errors import DraftError
from recorder.forms import SERVER, DraftSetupForm, GameChoiceForm, seats_against_bots


def _member_club(request: HttpRequest, slug: str) -> Club | HttpResponse:
    """The club when the user may record in it; a sign-in redirect, 403 or 404 otherwise
    (a private club does not exist for outsiders)."""
    club = club_selectors.club_for(request.user, slug)
    if club is None:
        raise Http404("no such club")
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not draft_policy.can_record(request.user, club):
        raise PermissionDenied("only members of this club may record its games")
    return club


def seat_rows(draft) -> list[dict[str, str]]:
    """Each seat of ``draft`` as players call it (the engine's ``seat_label``: "Mister X",
    "Player 2 (spies E/e)"; ``short_label`` for a phone) with who plays it (a bot by its
    level: "strong bot")."""
    game = get_game(draft.game)
    names = names_at_table(draft.seats)
    if game is None:
        return [
            {"label": e["seat"], "short_label": e["seat"], "player": names[e["seat"]]}
            for e in draft.seats
        ]
    table = Table(names, draft.options)
    return [
        {
            "label": render_message(game.seat_label(e["seat"], table), engine_locale()),
            "short_label": render_message(game.seat_short_label(e["seat"], table), engine_locale()),
            "player": names[e["seat"]],
        }
        for e in draft.seats
    ]


def open_draft_rows(club: Club, user) -> list:
    """The club's drafts still being recorded, each with ``game_name`` and ``seat_rows``,
    for the club page's and the setup page's "resume" lists."""
    drafts = list(draft_selectors.open_drafts(club, user))
    for draft in drafts:
        draft.can_write = draft_policy.can_write_draft(user, draft)
        game = get_game(draft.game)
        draft.game_name = say(game.title()) if game is not None else draft.game
        draft.seat_rows = seat_rows(draft)
    return drafts


def members_seated(user, club: Club, seats: list[dict]) -> list[dict]:
    """The form's seats with each member picked by name (``member:<id>``) as the handle
    they play as, made for them when they have none (``clubs.services.handle_for_member``)."""
    out = []
    for entry in seats:
        player = entry.get("player", "")
        if player.startswith(club_selectors.MEMBER_PICK):
            user_id = player.removeprefix(club_selectors.MEMBER_PICK)
            if not user_id.isdigit():
                raise ClubError("choose who plays each seat from the list", "invalid")
            entry = {
                **entry,
                "player": club_services.handle_for_member(user, club, int(user_id)).handle,
            }
        out.append(entry)
    return out


def record_setup(request: HttpRequest, slug: str) -> HttpResponse:
    club = _member_club(request, slug)
    if isinstance(club, HttpResponse):
        return club
    query = form_data(request.GET)
    if query is not None and "game" not in query:
        # A link that says only how the game is dealt (the club page's "Play against a
        # bot": ?chance=server) opens step one so chosen, not refused for want of a game.
        choice = GameChoiceForm(
            initial={"chance": query.get("chance")}, catalogue=draft_selectors.game_catalogue()
        )
    else:
        choice = GameChoiceForm(query, catalogue=draft_selectors.game_catalogue())
    chosen = choice.chosen()
    context = {
        "club": club,
        "choice": choice,
        "form": None,
        "drafts": open_draft_rows(club, request.user),
    }
    if chosen is None:
        return render(request, "recorder/setup.html", context)
    game, entry, player_count, chance = chosen
    seat_ids = entry["seats"][str(player_count)]
    form = DraftSetupForm(
        request.POST or None,
        game=game,
        seat_ids=seat_ids,
        chance=chance,
        players=club_selectors.seat_picks(club),
        setup_choices=entry["setup_choices"],
        new_players=policy.can_create_players(request.user, club),
        initial=seats_against_bots(game, seat_ids, club_selectors.own_seat_pick(club, request.user))
        if chance == SERVER
        else None,
    )
    over_budget: OverBudget | None = None
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                draft, _position = services.create_draft(
                    club,
                    request.user,
                    game_id=game.id,
                    options=form.options,
                    seats=members_seated(request.user, club, form.seats),
                    chance=chance,
                    setup=form.setup,
                )
        except (DraftError, ClubError) as exc:
            # The engine's own sentence and rule id (a hand that cannot have been dealt…).
            form.add_error(None, f"{exc.rule}: {exc.message}" if exc.rule else exc.message)
        except OverBudget as exc:  # too many games against a bot open (recorder.budgets)
            form.add_error(None, exc.message)
            over_budget = exc
        else:
            return redirect("record-draft", club.slug, draft.pk)
    context.update(
        form=form,
        game=game,
        player_count=player_count,
        chance=chance,
        several_counts=len(entry["player_counts"]) > 1,
    )
    if over_budget is not None:
        return with_retry_after(
            render(request, "recorder/setup.html", context, status=429), over_budget
        )
    return render(request, "recorder/setup.html", context, status=422 if form.errors else 200)


def record_seat_labels(request: HttpRequest, slug: str) -> HttpResponse:
    """The seats' names for the options the setup form holds now (its query: the game,
    players and chance of step one, the ``option.*`` fields): JSON the setup page's
    script asks whenever an option changes, so a seat's label follows (Mister X's
    detective seats are named by the pawns they move)."""
    club = _member_club(request, slug)
    if isinstance(club, HttpResponse):
        return club
    chosen = GameChoiceForm(request.GET, catalogue=draft_selectors.game_catalogue()).chosen()
    if chosen is None:
        return JsonResponse({"error": "malformed", "message": "choose a game first"}, status=400)
    game, entry, player_count, chance = chosen
    form = DraftSetupForm(
        request.GET,
        game=game,
        seat_ids=entry["seats"][str(player_count)],
        chance=chance,
        players=[],
        setup_choices=entry["setup_choices"],
    )
    return JsonResponse({"labels": form.labels_for_given_options()})


def record_draft(request: HttpRequest, slug: str, draft_id: int) -> HttpResponse:
    club = _member_club(request, slug)
    if isinstance(club, HttpResponse):
        return club
    draft = draft_selectors.draft_for(request.user, draft_id)
    if (
        draft is None
        or draft.club_id != club.pk
        or not draft_policy.can_see_drafts(request.user, club)
    ):
        raise Http404("no such draft")
    game = get_game(draft.game)
    position = services.position_of(draft)
    # The server's choice, the same as every API answer about this draft makes.
    view = draft_policy.draft_eyes(request.user, draft, position.game, position.to_act)
    urls = {
        "draft": reverse("api-draft", args=[draft.pk]),
        "legal": reverse("api-draft-legal-actions", args=[draft.pk]),
        "chance": reverse("api-draft-chance-options", args=[draft.pk]),
        **{
            name: reverse(f"api-draft-{name}", args=[draft.pk])
            for name in ("apply", "undo", "finish", "abandon")
        },
    }
    config = {
        "draft": draft.pk,
        "view": view,
        "urls": urls,
        "replayUrl": reverse("match-replay", args=[0]),
        # Members may follow any draft of their club; only its creator plays it, and
        # the club's organisers may also store or discard it (clubs.policy).
        "canWrite": draft_policy.can_play_draft(request.user, draft),
        # Undo is off against a bot (recorder.services.undo).
        "undo": not draft.bot_seats,
        "csrfToken": get_token(request),
    }
    labels = {e["seat"]: row["label"] for e, row in zip(draft.seats, seat_rows(draft), strict=True)}
    if game is not None and view not in labels and view not in ("all", "public"):
        labels[view] = render_message(
            game.seat_label(view, Table({}, draft.options)), engine_locale()
        )  # a team
    # Where the game was started from (a tournament's round): a link back, on this site only.
    back = request.GET.get("back", "")
    if not (
        back.startswith("/")
        and url_has_allowed_host_and_scheme(
            back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        )
    ):
        back = ""
    return render(
        request,
        "recorder/record.html",
        {
            "back": back,
            "club": club,
            "draft": draft,
            "game_name": say(game.title()) if game is not None else draft.game,
            "seats": seat_rows(draft),
            "view": view,
            "view_label": labels.get(view, view),
            "config": config,
            "can_write": config["canWrite"],
            "undo": config["undo"],
        },
    )
