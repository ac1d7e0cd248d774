"""Pages of the API: cursor pages (the paginator, its query parameters and the shape of a
page in the schema) and the numbered pages of the few lists that have them, each
refusing a page or size the schema does not document, so the schema says what the
server does."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, inline_serializer
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import CursorPagination, PageNumberPagination
from rest_framework.request import Request


class LanternCursorPagination(CursorPagination):
    """Newest first, 50 a page; ``limit`` chooses from 1 to 200 (more is taken as 200),
    and anything but a whole number from 1 is refused with 400 naming it."""

    ordering = "-id"
    page_size = 50
    page_size_query_param = "limit"
    max_page_size = 200

    def get_page_size(self, request: Request) -> int:
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        if not raw.isascii() or not raw.isdigit() or int(raw) < 1:
            raise ValidationError(
                {
                    "limit": f"a whole number from 1 (at most {self.max_page_size} "
                    f"are given), not {raw[:40]!r}"
                }
            )
        return min(int(raw), self.max_page_size)


class LanternPageNumberPagination(PageNumberPagination):
    """Numbered pages (``?page=2``): a whole number from 1, given once; anything else
    (``?page=``, ``?page=last``, ``?page=0``) is refused with 400 naming it, as the
    schema's ``minimum: 1`` says. A page past the last is 404."""

    def get_page_number(self, request: Request, paginator: Any) -> int:
        values = request.query_params.getlist(self.page_query_param)
        if not values:
            return 1
        raw = values[-1]
        if len(values) > 1 or not raw.isascii() or not raw.isdigit() or int(raw) < 1:
            shown = raw[:40] if len(values) == 1 else f"{len(values)} values"
            raise ValidationError({"page": f"a whole number from 1, given once, not {shown!r}"})
        return int(raw)

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_query_param:
                parameter["schema"] = {"type": "integer", "minimum": 1}
        return parameters


PAGE_PARAMETERS = [
    OpenApiParameter(
        "cursor",
        str,
        description="Opaque position from a previous page's "
        "next/previous (404 when it is not one).",
    ),
    OpenApiParameter(
        "limit",
        {"type": "integer", "minimum": 1},
        description="Items per page (default 50; more than 200 gives 200).",
    ),
]


def paginated(serializer_class: Any, name: str) -> Any:
    """The documented shape of a cursor page of ``serializer_class`` items."""
    return inline_serializer(
        name,
        {
            "next": serializers.URLField(allow_null=True),
            "previous": serializers.URLField(allow_null=True),
            "results": serializer_class(many=True),
        },
    )
