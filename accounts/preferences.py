"""An account's language and time zone as a request sees them: kept in the session (put
there at sign-in and whenever the person saves them), so no page queries them."""

from __future__ import annotations

from typing import Any, TypedDict

from django.conf import settings
from django.http import HttpRequest, HttpResponse

LANGUAGE_CODES = frozenset(code for code, _name in settings.LANGUAGES)
SESSION_KEY = "lantern_preferences"


class Preferences(TypedDict):
    language: str  # "" = not chosen (the cookie, then the browser decide)
    time_zone: str  # "" = the site's


def stored(user: Any) -> Preferences:
    """``user``'s saved choices, from the database."""
    from accounts.models import AccountSettings

    row = AccountSettings.objects.filter(user=user).only("language", "time_zone").first()
    if row is None:
        return {"language": "", "time_zone": ""}
    return {"language": row.language, "time_zone": row.time_zone}


def remember(request: HttpRequest, preferences: Preferences) -> None:
    request.session[SESSION_KEY] = dict(preferences)


def of_session(request: HttpRequest) -> Preferences:
    """The signed-in person's choices; read from the database once per session (a session
    from before the setting existed), then kept in it."""
    kept = request.session.get(SESSION_KEY)
    if not isinstance(kept, dict):
        kept = stored(request.user)
        remember(request, kept)
    return {"language": kept.get("language", ""), "time_zone": kept.get("time_zone", "")}


def on_sign_in(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """``user_logged_in``: the account's choices go into the new session."""
    if request is not None and hasattr(request, "session"):
        remember(request, stored(user))


def set_language_cookie(response: HttpResponse, language: str) -> None:
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
    )
