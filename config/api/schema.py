"""The OpenAPI schema documents the errors every operation can really answer.

Every API view answers errors in one shape (config.api.errors, the project's DRF
exception handler), and some errors do not depend on the view at all: a bad API
token is 401 anywhere, a path id that names nothing is 404, a write by someone the
policy refuses is 403. Rather than repeat them on every ``extend_schema``, this
schema class adds them where they apply, unless the view documents them itself.
schemathesis (tests/security/test_api_schema.py) holds the API to this.
"""

from __future__ import annotations

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
                errors[415] = ("The body's Content-Type is not one this operation reads "
                               "(see its request body).")
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
