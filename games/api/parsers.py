"""Request body parsers for the whole API (settings.REST_FRAMEWORK)."""

from __future__ import annotations

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
