"""The API's one exception handler: every error, whichever app, in one shape,
``{"error", "index", "rule", "message"}`` (``config.errors.error_body``).

``error`` is a stable code (``malformed``, ``too_large``, ``illegal``,
``unknown_players``, ``not_found``, ``forbidden``, ``not_authenticated``,
``throttled``, ...); ``index`` and ``rule`` are set when the engine rejected an
action, null otherwise; ``message`` is one plain sentence. An error citing a rule also
carries ``rule_url``, the address of that rule's text in the rules reference.

Services raise ``config.errors.AppError`` with a code; ``config.errors.HTTP_STATUS`` is the
one place a code becomes an HTTP status.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView, exception_handler

from config.errors import AppError, error_body, http_status, with_retry_after
from reference.links import rule_url

#: DRF's exception codes renamed where ours read better; the others are kept as they are
#: (not_authenticated, not_found, throttled, method_not_allowed, unsupported_media_type)
_CODES = {
    "permission_denied": "forbidden",
    "parse_error": "malformed",
    "invalid": "malformed",
}


def app_error_response(exc: AppError) -> Response:
    return with_retry_after(Response(exc.as_dict(), status=http_status(exc)), exc)


def _message(detail: Any) -> str:
    """A DRF error detail (string, list or dict of them) as one sentence."""
    if isinstance(detail, dict):
        return "; ".join(f"{key}: {_message(value)}" for key, value in detail.items())
    if isinstance(detail, list):
        return " ".join(_message(item) for item in detail)
    return str(detail)


def lantern_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, AppError):
        return app_error_response(exc)
    response = exception_handler(exc, context)  # Http404 / PermissionDenied become DRF errors
    if response is None:
        return None
    if isinstance(exc, exceptions.APIException):
        code, message = exc.default_code, _message(exc.detail)
    elif isinstance(exc, Http404):
        code, message = "not_found", _("not found")
    else:  # Django's PermissionDenied
        code, message = "permission_denied", _message(response.data)
    code = _CODES.get(code, code)
    extra: dict[str, Any] = {}
    if isinstance(exc, exceptions.ValidationError) and isinstance(exc.detail, dict):
        extra["fields"] = response.data
    response.data = error_body(code, message, **extra)
    return response


def link_rule(request: Any, response: Any) -> Any:
    """An error citing a rule gains ``rule_url``: the rule's text, as an absolute URL."""
    data = getattr(response, "data", None)
    if response.status_code >= 400 and isinstance(data, dict) and data.get("rule"):
        path = rule_url(data["rule"])
        if path is not None:
            data["rule_url"] = request.build_absolute_uri(path)
    return response


class RuleLinks:
    """For API views: every error response citing a rule links to its text."""

    def finalize_response(self, request, response, *args, **kwargs):
        return super().finalize_response(request, link_rule(request, response), *args, **kwargs)


class LanternAPIView(RuleLinks, APIView):
    """An API view whose errors citing a rule link to its text (the error shape itself is
    the project's exception handler's, settings.REST_FRAMEWORK)."""


class ErrorSerializer(serializers.Serializer):
    """The body of every error response (documented in the OpenAPI schema)."""

    error = serializers.CharField(help_text="Stable code: malformed, too_large, illegal, ...")
    index = serializers.IntegerField(
        allow_null=True, help_text="Action index the engine stopped at (0-based), else null."
    )
    rule = serializers.CharField(
        allow_null=True, help_text="Rule id cited (CUL-3.7, LOG-JSON, ...), else null."
    )
    rule_url = serializers.URLField(
        required=False,
        help_text="With a rule: where its text is in the rules reference "
        "(https://host/rules/cryptid-urban-legends/#CUL-3.7).",
    )
    message = serializers.CharField(help_text="One plain sentence.")


ERROR_RESPONSES = {
    status.HTTP_400_BAD_REQUEST: ErrorSerializer,
    status.HTTP_403_FORBIDDEN: ErrorSerializer,
    status.HTTP_404_NOT_FOUND: ErrorSerializer,
}
