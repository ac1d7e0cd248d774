"""Request body parsers and the HTML renderer for the whole API (settings.REST_FRAMEWORK)."""

from __future__ import annotations

from rest_framework import renderers
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser, but a body nested too deeply for the parser (``[[[[...]]]]``
    100 000 deep) is a 400 like any other malformed JSON, not a RecursionError (500).

    Its size is bounded before it is parsed: DRF reads JSON bodies through
    ``request.body``, which Django refuses past DATA_UPLOAD_MAX_MEMORY_SIZE
    (config.settings; a 413 in the API's error shape, config.errors)."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - the document is nested too deeply") from None


class BrowsableAPIRenderer(renderers.BrowsableAPIRenderer):
    """DRF's browsable API, its HTML answers exempt from the site's Content-Security-Policy
    (config.settings): DRF's templates carry inline styles and Bootstrap's inline event
    handlers. Every JSON answer, and every page of the site itself, keeps the policy."""

    def render(self, data, accepted_media_type=None, renderer_context=None):
        response = (renderer_context or {}).get("response")
        if response is not None:
            response._csp_exempt = True
        return super().render(data, accepted_media_type, renderer_context)
