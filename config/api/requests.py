"""Reading a request in an API view, the same way in every app: permission refusals as
401/403, a body or a query string through its serializer, a JSON query parameter."""

from __future__ import annotations

from typing import Any

from rest_framework import exceptions, serializers
from rest_framework.request import Request

from config.errors import AppError
from engine import parse_json_value


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


#: The schema of a query parameter :func:`whole_number` reads (with its default ``most``).
WHOLE_NUMBER = {"type": "integer", "minimum": 0, "maximum": 999_999_999}


def whole_number(request: Request, name: str, *, most: int = 999_999_999) -> int:
    """The query parameter ``name`` as a whole number from 0 to ``most`` (0 when left out).
    Given empty (``?page=``), with other digits than ASCII ones, or past ``most`` it is a
    400 naming it: an empty value is a value, as in :func:`validated_query`."""
    raw = request.query_params.get(name)
    if raw is None:
        return 0
    if not (raw.isascii() and raw.isdigit()) or len(raw) > len(str(most)) or int(raw) > most:
        raise AppError(
            f"{name} must be a whole number from 0 to {most}, not {raw[:20]!r}",
            code="malformed",
            details={"field": name},
        )
    return int(raw)


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
    serializer = serializer_class(data=request.query_params.dict())
    serializer.is_valid(raise_exception=True)
    return serializer
