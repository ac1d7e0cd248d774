"""The ``<id:...>`` path converter: a row id in a URL, registered for every urls.py.

Django's ``int`` converter takes any number of digits, and a number past 64 bits then
reaches the database and fails there (SQLite: OverflowError; PostgreSQL: bigint out of
range), a 500. No row id has more than 18 digits (a 64-bit signed integer has 19, and
not all 19-digit numbers fit), so a longer one simply matches no URL: a 404.
"""

from __future__ import annotations

from typing import Any

from django.urls import register_converter
from rest_framework import serializers

#: the most digits an id in a URL may have; every 18-digit number fits a 64-bit integer
MAX_ID_DIGITS = 18
#: the largest id a URL or an id filter takes
MAX_ID = 10**MAX_ID_DIGITS - 1


class IdConverter:
    regex = rf"[0-9]{{1,{MAX_ID_DIGITS}}}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int | str) -> str:
        return str(value)


register_converter(IdConverter, "id")


def id_field(**kwargs: Any) -> serializers.IntegerField:
    """A row id in a query or a body: a number past 64 bits is a 400, not a database error."""
    return serializers.IntegerField(min_value=0, max_value=MAX_ID, **kwargs)
