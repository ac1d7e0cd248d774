"""The language and the time zone a request is answered in.

Language, first that applies: ``?lang=`` in the URL (a shared link opens in the language it
names), the signed-in account's saved choice, the ``django_language`` cookie (the switcher
sets it), the browser's ``Accept-Language``, English. A query parameter rather than a
``/ja/`` prefix keeps every URL, bookmark and API path as it was.

Time zone: the account's saved choice, the browser's (a cookie), UTC.

The account's choices ride in the session (put there at sign-in and when saved), so a
page costs no query for them.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers

from accounts import preferences
from clubs import selectors as club_selectors
from config import zones


def language_in_query(request: HttpRequest) -> str | None:
    """The language ``?lang=`` names, when the site speaks it."""
    wanted = request.GET.get("lang", "")
    return wanted if wanted in preferences.LANGUAGE_CODES else None


def request_language(request: HttpRequest) -> str:
    """The language to answer ``request`` in (see the module's docstring for the order)."""
    chosen = language_in_query(request)
    if chosen:
        return chosen
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        saved = preferences.of_session(request)["language"]
        if saved:
            return saved
    # Django's own order from here: the cookie, then Accept-Language, then LANGUAGE_CODE.
    return translation.get_language_from_request(request)


class LanguageMiddleware:
    """Activates the request's language for everything that answers it (pages, the API's
    errors, e-mails sent while answering), and says it in ``Content-Language``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = request_language(request)
        translation.activate(language)
        request.LANGUAGE_CODE = language
        try:
            response = self.get_response(request)
        finally:
            translation.deactivate()
        response.headers.setdefault("Content-Language", language)
        # A cache in front must not hand a Japanese reader the English answer.
        patch_vary_headers(response, ("Accept-Language", "Cookie"))
        if (
            language_in_query(request)
            and not (request.user.is_authenticated)
            and request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) != language
            and not request.path.startswith("/api/")
        ):
            # A visitor who came by a ?lang= link goes on reading in it from page to page.
            preferences.set_language_cookie(response, language)
        return response


class TimeZoneMiddleware:
    """Shows dates and times in the zone the person chose on their settings page, else
    in their browser's (the cookie static/js/time-zone.js keeps), else in UTC. A club's
    pages show its own zone instead, when it has one (process_view)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        chosen = ""
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            chosen = preferences.of_session(request)["time_zone"]
        zone = zones.zone_or_none(chosen) or zones.zone_or_none(
            request.COOKIES.get(zones.BROWSER_COOKIE)
        )
        if zone is not None:
            zones.show_times_in(zone)
        else:
            zones.forget_zone()
        try:
            return self.get_response(request)
        finally:
            zones.forget_zone()

    def process_view(
        self, request: HttpRequest, view: Callable[..., HttpResponse], args: tuple, kwargs: dict
    ) -> None:
        """A club's pages (``/clubs/<slug>/…``) show times in the club's zone when it has one."""
        slug = kwargs.get("slug") or kwargs.get("club_slug")
        if slug and request.path.startswith("/clubs/"):
            club = club_selectors.club_by_slug(str(slug))
            if club is not None:
                club_selectors.show_times_of(club)
