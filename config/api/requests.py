"""Reading a request in an API view, the same way in every app: permission refusals as
401/403, a body or a query string through its serializer, a JSON query parameter."""

from __future__ import annotations

import re
from typing import Any

from django.core.validators import MaxLengthValidator, MinLengthValidator
from rest_framework import exceptions, serializers
from rest_framework.request import Request
from rest_framework.utils import html

from config.errors import AppError
from engine import parse_json_value

#: An integer query parameter as its schema writes it: ASCII digits, perhaps a minus sign.
_INTEGER = re.compile(r"-?[0-9]+")


def require(allowed: bool, request: Request) -> None:
    """Refuse unless ``allowed``: 401 to a visitor not signed in, 403 to anyone else."""
    if not allowed:
        if not request.user.is_authenticated:
            raise exceptions.NotAuthenticated()
        raise exceptions.PermissionDenied()


def validated(serializer_class: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    """The request's body through ``serializer_class`` (400 with each field's error)."""
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def json_param(request: Request, name: str) -> Any:
    """The query parameter ``name`` read as JSON (None when absent); 400 when it is not JSON."""
    raw = request.query_params.get(name)
    if not raw:
        return None
    try:
        return parse_json_value(raw)
    except ValueError as exc:
        raise AppError(
            f"{name} must be JSON ({exc})", code="malformed", details={"field": name}
        ) from None


def _json_or_text(text: Any) -> Any:
    """A form part read as JSON, or kept as it is when it is not JSON (the field's own
    validation then refuses it, naming the field)."""
    try:
        return parse_json_value(text)
    except (TypeError, ValueError):
        return text


def _has_part(field: serializers.Field, dictionary: Any) -> bool:
    """Whether ``dictionary`` is a form holding a part named after ``field`` itself."""
    return html.is_html_input(dictionary) and field.field_name in dictionary


class BodyObjectListSerializer(serializers.ListSerializer):
    """A list of :class:`BodyObjectSerializer` objects (a table's seats), read from a form
    the same way: one part holding the list's JSON, or a part an object. Its
    ``min_length`` and ``max_length`` are written as validators too, which is where the
    schema's ``minItems`` and ``maxItems`` are read from."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.min_length is not None:
            self.validators.append(MinLengthValidator(self.min_length))
        if self.max_length is not None:
            self.validators.append(MaxLengthValidator(self.max_length))

    def get_value(self, dictionary: Any) -> Any:
        if not _has_part(self, dictionary):
            return super().get_value(dictionary)
        values = [_json_or_text(part) for part in dictionary.getlist(self.field_name)]
        if len(values) == 1 and isinstance(values[0], list):
            return values[0]
        return values


class BodyObjectSerializer(serializers.Serializer):
    """An object inside a request body (a table's or an event's clock, a table's seats).
    DRF reads such an object from a form only as ``clock.kind``-style fields and passes
    over a field named ``clock`` itself, so an object sent in a multipart body as one JSON
    part (OpenAPI's encoding of an object property, the schema's promise) would be dropped
    without a word, and the request carried out as if it had none. Here that part is read
    as JSON; a part that is not JSON reaches the object's validation as text and is
    refused, a 400 naming the field."""

    class Meta:
        list_serializer_class = BodyObjectListSerializer

    def get_value(self, dictionary: Any) -> Any:
        if _has_part(self, dictionary):
            return _json_or_text(dictionary[self.field_name])
        return super().get_value(dictionary)


#: The largest number :func:`whole_number` reads: nine digits.
MOST = 999_999_999
#: The schema of a query parameter :func:`whole_number` reads.
WHOLE_NUMBER = {"type": "integer", "minimum": 0, "maximum": MOST}


def as_whole_number(raw: str) -> int | None:
    """``raw`` as a whole number from 0 to :data:`MOST`, or None: ASCII digits only ("²"
    is a digit to ``str.isdigit`` but not to ``int``), none too many (``int`` of thousands
    of digits raises)."""
    if raw.isascii() and raw.isdigit() and len(raw) <= len(str(MOST)) and int(raw) <= MOST:
        return int(raw)
    return None


def whole_number(request: Request, name: str) -> int:
    """The query parameter ``name`` by :func:`as_whole_number` (0 when left out). Given
    empty (``?page=``) or not such a number it is a 400 naming it: an empty value is a
    value, as in :func:`validated_query`."""
    raw = request.query_params.get(name)
    if raw is None:
        return 0
    number = as_whole_number(raw)
    if number is None:
        raise AppError(
            f"{name} must be a whole number from 0 to {MOST}, not {raw[:20]!r}",
            code="malformed",
            details={"field": name},
        )
    return number


def validated_query(
    serializer_class: type[serializers.Serializer], request: Request
) -> serializers.Serializer:
    """The query string through ``serializer_class``, as the schema documents it: each of
    its parameters given once (two values for one is a 400 naming it, rather than the
    last silently winning), and an empty value read as a value (``?played_from=`` is not a
    date: 400 naming it), not as a parameter left out as an HTML form's would be."""
    fields = serializer_class().fields
    repeated = {
        name: [f"give one value, not {len(values)}"]
        for name, values in request.query_params.lists()
        if name in fields and len(values) > 1
    }
    if repeated:
        raise exceptions.ValidationError(repeated)
    # DRF's IntegerField reads "2.0" and " 2" as 2; the schema's integer is digits.
    not_whole = {
        name: [f"must be a whole number, not {raw[:20]!r}"]
        for name, raw in request.query_params.items()
        if isinstance(fields.get(name), serializers.IntegerField) and not _INTEGER.fullmatch(raw)
    }
    if not_whole:
        raise exceptions.ValidationError(not_whole)
    serializer = serializer_class(data=request.query_params.dict())
    serializer.is_valid(raise_exception=True)
    return serializer
