"""Request body parsers and the HTML renderer for the whole API (settings.REST_FRAMEWORK)."""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

import rest_framework
from django.conf import settings
from django.http import QueryDict
from django.utils.http import parse_header_parameters
from rest_framework import renderers
from rest_framework.exceptions import ParseError
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser


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


class StrictFormParser(FormParser):
    """DRF's urlencoded form parser, but a body that is not ``name=value`` pairs (``[null,
    0]``, a number: JSON sent as a form) is a 400, not read as a form of one empty field
    named after it, which a body of optional fields would carry out."""

    def parse(self, stream, media_type=None, parser_context=None):
        body = stream.read() if stream is not None else b""
        if any(pair and b"=" not in pair for pair in body.split(b"&")):
            raise ParseError("Form parse error - the body is not name=value pairs")
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        return QueryDict(body, encoding=encoding)


class StrictMultiPartParser(MultiPartParser):
    """DRF's multipart parser, but a body of bytes that holds no part at all (text before a
    closing boundary, ``-1119…--boundary--``) is a 400, not read as an empty form that a
    body of optional fields would carry out. An empty form (the closing boundary alone,
    as a browser sends an empty FormData) is still one."""

    def parse(self, stream, media_type=None, parser_context=None):
        parsed = super().parse(stream, media_type, parser_context)
        if parsed.data or parsed.files:
            return parsed
        _, params = parse_header_parameters(media_type or "")
        closing = len(params.get("boundary", "")) + len("----\r\n\r\n")
        meta = (parser_context or {})["request"].META
        length = meta.get("CONTENT_LENGTH") or "0"
        if length.isdigit() and int(length) > closing:
            raise ParseError("Multipart form parse error - the body holds no part")
        return parsed


#: The parsers of a body that holds an object (a clock, a table's seats): JSON, or multipart
#: with the object as a part of JSON (config.api.requests.BodyObjectSerializer). Not an
#: urlencoded form: OpenAPI spreads an object's keys among the body's own there, and an
#: empty object is no key at all, so an object given and one left out would read the same.
JSON_OR_MULTIPART = [BoundedJSONParser, StrictMultiPartParser]


def _sha256(text: str) -> str:
    return f"'sha256-{base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()}'"


def _drf_inline_hashes() -> dict[str, list[str]]:
    """CSP sources for what DRF's own HTML writes inline: every ``style="..."`` attribute
    of its templates (a few ``float: right``) and the sign-out link's ``onclick`` (its
    ``optional_logout`` tag): 'unsafe-hashes' with each one's SHA-256, so exactly those,
    as this DRF version writes them, and nothing else inline are let in."""
    folder = Path(rest_framework.__file__).parent
    styles: set[str] = set()
    for template in (folder / "templates" / "rest_framework").rglob("*.html"):
        styles.update(re.findall(r'style="([^"{}]*)"', template.read_text(encoding="utf-8")))
    tags = (folder / "templatetags" / "rest_framework.py").read_text(encoding="utf-8")
    handlers = set(re.findall(r"onclick='([^']*)'", tags))
    return {
        "style-src-attr": ["'unsafe-hashes'", *map(_sha256, sorted(styles))],
        "script-src": ["'unsafe-hashes'", *map(_sha256, sorted(handlers))],
    }


#: The policy's additions for the browsable API's pages (django-csp's csp_update).
BROWSABLE_API_CSP = _drf_inline_hashes()


class BrowsableAPIRenderer(renderers.BrowsableAPIRenderer):
    """DRF's browsable API under the site's Content-Security-Policy (config.settings). Its
    scripts are files already; its templates' few style attributes and its sign-out link's
    onclick are let in by their hashes (``BROWSABLE_API_CSP``), and the inline <style> of Pygments'
    colours for code
    in descriptions is left out (descriptions then show code uncoloured)."""

    def get_context(self, data, accepted_media_type, renderer_context):
        context = super().get_context(data, accepted_media_type, renderer_context)
        context["code_style"] = None
        return context

    def render(self, data, accepted_media_type=None, renderer_context=None):
        response = (renderer_context or {}).get("response")
        if response is not None:
            response._csp_update = BROWSABLE_API_CSP
        return super().render(data, accepted_media_type, renderer_context)
