"""The OpenAPI schema documents the errors every operation can really answer.

Every API view answers errors in one shape (config.api.errors, the project's DRF
exception handler), and some errors do not depend on the view at all: a bad API
token is 401 anywhere, a path id that names nothing is 404, a write by someone the
policy refuses is 403. Rather than repeat them on every ``extend_schema``, this
schema class adds them where they apply, unless the view documents them itself.
schemathesis (tests/security/test_api_schema.py) holds the API to this.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema
from rest_framework.pagination import PageNumberPagination

from config.api.errors import ErrorSerializer

_SAFE = {"GET", "HEAD", "OPTIONS"}


class LanternAutoSchema(AutoSchema):
    def _common_errors(self) -> dict[int, str]:
        errors = {
            401: "The API token is not valid, or credentials are needed for this.",
            400: "The request is not valid: a parameter or the body (see message, and fields "
            "when given), or a NUL character in the URL (config.middleware).",
        }
        method = self.method.upper()
        if method not in _SAFE:
            errors[403] = "Not allowed to you (clubs.policy)."
            if "application/json" in self.map_parsers():
                errors[413] = "The JSON body is larger than the API accepts."
            if self._get_request_body() is not None:
                errors[415] = (
                    "The body's Content-Type is not one this operation reads "
                    "(see its request body)."
                )
        if method not in _SAFE or any(p.get("name") == "view" for p in self._get_parameters()):
            errors[422] = (
                "Well formed, but a rule refuses it: the engine's, the event's, "
                "or a view that names no seat or team of this match (message says "
                "which; rule and rule_url when the rule has an id)."
            )
        if "{" in self.path:  # a path parameter
            errors[404] = "Nothing here (no such object, or a private club's)."
        paginator = self._get_paginator()
        if isinstance(paginator, PageNumberPagination) and self._is_list_view():
            errors[404] = "No such page, or nothing here."
        return errors

    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        if direction != "response":
            return responses
        for code, description in self._common_errors().items():
            if str(code) not in responses:
                body = self._get_response_for_code(ErrorSerializer, str(code), direction=direction)
                body["description"] = description
                responses[str(code)] = body
        return responses


#: A club's address (its slug), as the <slug:...> path converter reads it
#: (SPECTACULAR_SETTINGS' PATH_CONVERTER_OVERRIDES): for a slug sent as a query or body field.
SLUG = {"type": "string", "pattern": "^[-a-zA-Z0-9_]+$"}

#: A string with no NUL character: PostgreSQL text cannot hold one, so the site refuses it
#: in every URL (config.middleware) and every field (DRF's CharField) with a 400.
NO_NUL = "^[^\\u0000]*$"
#: ... and, where it may not be blank, something besides white space (DRF's CharField
#: strips it before it looks).
NOT_BLANK = "^[^\\u0000]*[^\\s\\u0000][^\\u0000]*$"


def no_nul_in_text(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: every free string of the schema (parameters,
    bodies) says it holds no NUL, and one that may not be empty that it is not only white
    space; a string that already has a pattern, format or set of values says more."""

    def visit(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("type") == "string" and not node.keys() & {
                "pattern",
                "format",
                "enum",
                "const",
            }:
                node["pattern"] = NOT_BLANK if node.get("minLength", 0) >= 1 else NO_NUL
            for value in node.values():
                visit(value)
        elif isinstance(node, list):
            for value in node:
                visit(value)

    # A parameter sent as JSON text (``extensions={"x-json": SCHEMA}`` on its
    # OpenApiParameter) is described by "content", which OpenAPI has instead of "schema".
    for operation in _operations(result):
        for parameter in operation.get("parameters", []):
            if "x-json" in parameter:
                parameter.pop("schema", None)
                parameter["content"] = {"application/json": {"schema": parameter.pop("x-json")}}
    visit(result.get("paths"))
    visit(result.get("components", {}).get("schemas"))
    return result


def _operations(result: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        operation
        for path in result.get("paths", {}).values()
        for operation in path.values()
        if isinstance(operation, dict)
    ]
