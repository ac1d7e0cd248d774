from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import LoginView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import preferences, selectors, services
from accounts.forms import PreferencesForm, SignUpForm
from clubs import policy
from clubs import services as club_services
from clubs.selectors import handles_of, invite_in, memberships_of
from config import zones
from games.selectors import games_of


def _safe_next(request: HttpRequest) -> str:
    """``next`` of the form or the query, if it points into this site; else ''."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return ""


class SignInView(LoginView):
    """Django's sign-in, saying which invitation (if any) the visitor is on the way to."""

    redirect_authenticated_user = True

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["invite"] = invite_in(context.get("next"))
        return context


def signup(request: HttpRequest) -> HttpResponse:
    """A new account; when it was made on the way to an invitation, the invitation is
    taken up at once and the newcomer lands in the club."""
    next_url = _safe_next(request)
    invite = invite_in(next_url)
    if request.user.is_authenticated:
        return redirect(next_url or "index")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = services.create_account(
            username=form.cleaned_data["username"],
            email=form.cleaned_data["email"],
            password=form.cleaned_data["password1"],
        )
        # The one password backend of AUTHENTICATION_BACKENDS (axes only throttles).
        login(request, user, backend="pages.demo.DemoPasswordBackend")
        messages.success(request, _("Welcome to Lantern, %(name)s.") % {"name": user.username})
        if invite is not None:
            try:
                club_services.accept_invite(user, invite.token)
            except club_services.ClubError as exc:
                messages.error(request, exc.message)
            else:
                messages.success(request, _("You joined %(club)s.") % {"club": invite.club.name})
                return redirect("club", slug=invite.club.slug)
        return redirect(next_url or "index")
    return render(
        request, "registration/signup.html", {"form": form, "next": next_url, "invite": invite}
    )


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    token = selectors.api_token_of(request.user)
    new_key = request.session.pop("new_api_token", None)
    return render(
        request,
        "accounts/profile.html",
        {
            "token": token,
            "new_key": new_key,
            "memberships": memberships_of(request.user),
            "handles": handles_of(request.user),
        },
    )


def person(request: HttpRequest, username: str) -> HttpResponse:
    """Someone's games and ratings across clubs: what the visitor may see of them (the
    clubs the visitor can see, the handles those clubs link to the account). Someone
    with nothing the visitor may see is not found, so the page tells nobody that an
    account exists."""
    from django.http import Http404

    from ladder.selectors import ratings_of

    who = selectors.active_account(username)
    handles = list(handles_of(who, viewer=request.user)) if who else []
    if who is None or not policy.can_see_person(request.user, who, bool(handles)):
        raise Http404("no such person")
    return render(
        request,
        "accounts/person.html",
        {
            "person": who,
            "handles": handles,
            "games": games_of(who, limit=30, viewer=request.user),
            "ratings": ratings_of(who, viewer=request.user),
        },
    )


@login_required
@require_POST
def create_token(request: HttpRequest) -> HttpResponse:
    token = services.issue_api_token(request.user)
    # Shown once, on the next page; afterwards only its first characters are.
    request.session["new_api_token"] = token.key
    messages.success(request, _("A new API token was created. Any previous token no longer works."))
    return redirect("profile")


@login_required
@require_POST
def revoke_token(request: HttpRequest) -> HttpResponse:
    if services.revoke_api_token(request.user):
        messages.success(request, _("Your API token was revoked."))
    return redirect("profile")


def _without_lang(url: str) -> str:
    """``url`` with any ``lang=`` taken out of its query: after a choice the page must not
    keep overriding it."""
    from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "lang"]
    return urlunsplit(parts._replace(query=urlencode(query)))


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """The header's language switcher: the cookie for everyone, and the account's saved
    language for someone signed in; back to the page it was chosen on."""
    language = request.POST.get("language", "")
    back = _without_lang(_safe_next(request) or "/")
    response = redirect(back)
    if language not in preferences.LANGUAGE_CODES:
        return response
    if request.user.is_authenticated:
        row = services.save_preferences(request.user, language=language)
        preferences.remember(request, {"language": row.language, "time_zone": row.time_zone})
    preferences.set_language_cookie(response, language)
    return response


@login_required
def account_settings(request: HttpRequest) -> HttpResponse:
    """Language and time zone of the signed-in account."""
    saved = preferences.stored(request.user)
    form = PreferencesForm(
        request.POST or None,
        initial=saved,
        browser_zone=request.COOKIES.get(zones.BROWSER_COOKIE, ""),
    )
    if request.method == "POST" and form.is_valid():
        row = services.save_preferences(
            request.user,
            language=form.cleaned_data["language"],
            time_zone=form.cleaned_data["time_zone"],
        )
        preferences.remember(request, {"language": row.language, "time_zone": row.time_zone})
        response = redirect("account-settings")
        if row.language:
            preferences.set_language_cookie(response, row.language)
            with translation.override(row.language):
                messages.success(request, _("Your settings were saved."))
        else:
            messages.success(request, _("Your settings were saved."))
        return response
    return render(request, "accounts/settings.html", {"form": form})
