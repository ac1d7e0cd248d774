"""Reading a page's query string as a form's data."""

from __future__ import annotations

from django.http import QueryDict

#: chooses the language the page is answered in (accounts.middleware), never a form field
LANGUAGE_PARAMETER = "lang"


def form_data(query: QueryDict) -> QueryDict | None:
    """The data of a form sent by GET: ``query`` less ``?lang=``, or None when nothing else
    is in it, so a page opened from a shared ``?lang=ja`` link shows its form unfilled, not
    bound to nothing and saying "This field is required" before the reader did anything."""
    data = query.copy()
    data.pop(LANGUAGE_PARAMETER, None)
    return data or None
