"""The pages that gather several apps: the home page, a club's page and its management
page, a match's page, a ladder player's page. Each app's own pages live in its views;
a page lands here when it shows what apps in different layers own (a club with its
ladders, events and open drafts; a match with its tournament; a rating with the
analyses' accuracy), so no app has to import one above it. Thin like every view:
clubs.policy decides, selectors read, services write."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.translation import gettext as _

from analysis.selectors import analysed_matches, club_analysis_today, recent_accuracy
from clubs import policy
from clubs import selectors as club_selectors
from clubs.forms import InviteForm, TimeZoneForm, VoidForm
from clubs.services import ClubError
from clubs.views import club_for, free_handle_choices
from config import zones
from games import display
from games import policy as match_policy
from games import selectors as match_selectors
from games import services as match_services
from games.models import Match
from ladder import selectors as ladder_selectors
from ladder.charts import history_chart
from ladder.explain import explain
from live import policy as live_policy
from live import selectors as live_selectors
from pages import selectors as page_selectors
from recorder import policy as draft_policy
from recorder.views import open_draft_rows
from tournaments import online as tournament_online
from tournaments import selectors as tournament_selectors

#: matches listed on a ladder player's page
RECENT = 30


def index(request: HttpRequest) -> HttpResponse:
    """What Lantern is and what is happening, for a visitor; for a member also their
    clubs, their latest games and their ratings."""
    return render(
        request,
        "games/index.html",
        {
            "clubs": club_selectors.clubs_with_player_counts(request.user),
            "matches": match_selectors.recent_matches(request.user, limit=12),
            "memberships": club_selectors.memberships_of(request.user),
            "my_games": match_selectors.games_of(request.user, limit=8),
            "my_ratings": ladder_selectors.ratings_of(request.user),
            "game_names": display.game_names(),
        },
    )


def club_directory(request: HttpRequest) -> HttpResponse:
    """Every club the visitor may see, with what each holds."""
    roles = {m.club_id: m.get_role_display() for m in club_selectors.memberships_of(request.user)}
    clubs = list(page_selectors.club_directory(request.user))
    for club in clubs:
        club.my_role = roles.get(club.pk, "")
    return render(request, "clubs/directory.html", {"clubs": clubs})


def club_page(request: HttpRequest, slug: str) -> HttpResponse:
    """A club: its latest matches, ladders, events and (for those who record) open drafts."""
    club = club_for(request, slug, manage=False)
    role = policy.role_in(request.user, club)
    can_record = request.user.is_authenticated and draft_policy.can_record(request.user, club)
    matches = match_selectors.club_matches_played(club)
    return render(
        request,
        "games/club.html",
        {
            "club": club,
            "role": role,
            "membership": club_selectors.membership_of(request.user, club),
            "pending_request": club_selectors.pending_join_request(request.user, club),
            "matches": matches[:15],
            "match_count": matches.count(),
            "ladders": ladder_selectors.ladders_of_club(club),
            "tournaments": tournament_selectors.club_tournaments(club, 10),
            "can_manage": policy.can_manage_club(request.user, club),
            "can_see_members": policy.can_see_members(request.user, club),
            "can_upload": policy.can_upload(request.user, club) and request.user.is_authenticated,
            "can_import": policy.can_import(request.user, club) and request.user.is_authenticated,
            "can_record": can_record,
            "drafts": open_draft_rows(club, request.user) if can_record else [],
            "times_in": zones.current_label(translation.get_language() or "en"),
            "analysis_day": club_analysis_today(club) if club.auto_analysis and role else None,
            "analysed": analysed_matches(club),
            "tables": tournament_online.with_pairings(
                live_selectors.club_tables(club, request.user)
            ),
            "can_play_online": live_policy.can_open_table(request.user, club),
        },
    )


def match_detail(request: HttpRequest, match_id: int) -> HttpResponse:
    """A match: its seats and result, and the tournament pairing it was played for."""
    match = match_selectors.match_for(request.user, match_id)
    if match is None:
        raise Http404("no such match")
    club_selectors.show_times_of(match.club)
    match.options = match_selectors.match_options(match)
    return render(
        request,
        "games/match_detail.html",
        {
            "match": match_selectors.with_players(match),
            "pairing": tournament_selectors.pairing_of(match),
            # When its log and what was hidden open to this reader (None: open to them).
            "hidden_until": match_policy.opens_to(request.user, match),
            "can_manage": policy.can_manage_club(request.user, match.club),
        },
    )


@login_required
def club_manage(request: HttpRequest, slug: str) -> HttpResponse:
    """The organisers' page: members, requests, invites, handles, void matches, audit."""
    club = club_for(request, slug, manage=True)
    return render(
        request,
        "clubs/manage.html",
        {
            "club": club,
            "analysis_day": club_analysis_today(club),
            "time_zone_form": TimeZoneForm(current=club.time_zone),
            "members": club_selectors.members(club),
            "join_requests": club_selectors.pending_join_requests(club),
            "invites": club_selectors.open_invites(club),
            "players": club_selectors.players_with_match_counts(club).select_related("user"),
            "voided": match_selectors.voided_matches(club),
            "audit": club_selectors.audit_trail(club),
            "invite_form": InviteForm(handles=free_handle_choices(club)),
            "claims": club_selectors.pending_claims(club),
            "new_invite": request.session.pop("new_invite_url", None),
        },
    )


def _void_or_restore(
    request: HttpRequest, slug: str, match_id: int, *, restore: bool
) -> HttpResponse:
    """The page asks for the reason (it is the confirmation); the POST voids or restores."""
    club = club_for(request, slug, manage=True)
    match = get_object_or_404(Match, pk=match_id, club=club)
    form = VoidForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        reason = form.cleaned_data["reason"]
        try:
            if restore:
                match_services.restore_match(request.user, match, reason)
                done = _("The match is restored: it counts again and its ladder is recomputed.")
            else:
                match_services.void_match(request.user, match, reason)
                done = _("The match is void: kept, shown with the reason, left out of the ladder.")
        except ClubError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, done)
        return redirect("match-detail", match_id=match.pk)
    return render(
        request,
        "clubs/match_void.html",
        {"club": club, "match": match, "form": form, "restore": restore},
    )


@login_required
def match_void(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    return _void_or_restore(request, slug, match_id, restore=False)


@login_required
def match_restore(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    """Restore a void match: counted and rated again, with the reason in the audit trail."""
    return _void_or_restore(request, slug, match_id, restore=True)


def ladder_player(request: HttpRequest, club_slug: str, game: str, handle: str) -> HttpResponse:
    """A player on a ladder: rating, its history explained, and the analyses' accuracy."""
    ladder = ladder_selectors.visible_ladder(request.user, club_slug, game)
    person = ladder_selectors.ladder_player(ladder, handle)
    changes = ladder_selectors.player_history(ladder, person, limit=RECENT)
    for change in changes:
        change.sum_lines = explain(change, change.match_changes)
        change.others = [c for c in change.match_changes if c.player_id != person.pk]
    return render(
        request,
        "ladder/player.html",
        {
            "ladder": ladder,
            "person": person,
            "rating": ladder_selectors.player_rating(ladder, person),
            "chart": history_chart(
                ladder_selectors.rating_points(ladder, person), until=ladder.last_rated_at
            ),
            "changes": changes,
            "opponents": ladder.ratings.select_related("player")
            .exclude(player=person)
            .order_by("player__handle"),
            "accuracy": recent_accuracy(ladder.club_id, ladder.game, person.pk),
        },
    )
