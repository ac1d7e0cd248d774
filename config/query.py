"""Reading a page's query string as a form's data, and keeping its ``?lang=`` past a form."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from django.conf import settings
from django.http import HttpRequest, QueryDict

#: chooses the language the page is answered in (accounts.middleware), never a form field
LANGUAGE_PARAMETER = "lang"


def form_data(query: QueryDict) -> QueryDict | None:
    """The data of a form sent by GET: ``query`` less ``?lang=``, or None when nothing else
    is in it, so a page opened from a shared ``?lang=ja`` link shows its form unfilled, not
    bound to nothing and saying "This field is required" before the reader did anything."""
    data = query.copy()
    data.pop(LANGUAGE_PARAMETER, None)
    return data or None


def keeping_language(request: HttpRequest, url: str) -> str:
    """``url`` with the ``?lang=`` the request came with (a reader who arrived by a shared
    ``?lang=ja`` link), so a form's redirect answers in the language the form was read in."""
    wanted = request.GET.get(LANGUAGE_PARAMETER, "")
    if wanted not in {code for code, _name in settings.LANGUAGES}:
        return url
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != LANGUAGE_PARAMETER]
    return urlunsplit(parts._replace(query=urlencode([*query, (LANGUAGE_PARAMETER, wanted)])))
