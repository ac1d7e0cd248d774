"""JSON safety: the size and shape a log must have to be parsed and stored at all
(depth, NUL characters, lone surrogates, numbers PostgreSQL's jsonb cannot hold)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils.translation import gettext_noop

import engine
from config.errors import AppError
from config.sentences import Sentence
from games.models import Upload, canonical_text_hash

#: Default upper bound of one log's size in bytes (settings.LANTERN_MAX_LOG_BYTES overrides).
MAX_LOG_BYTES = 2 * 1024 * 1024


def max_log_bytes() -> int:
    return int(getattr(settings, "LANTERN_MAX_LOG_BYTES", MAX_LOG_BYTES))


class LogRejected(AppError):
    """A log that did not become a match, and why (``config.errors.AppError``).

    ``code`` is one of :attr:`Upload.Error` values. ``upload`` is the record
    kept of the attempt; the error body names it.
    """

    def __init__(
        self,
        code: str,
        message: str | Sentence,
        *,
        index: int | None = None,
        rule: str | None = None,
        details: dict[str, Any] | None = None,
    ):
        super().__init__(message, code=code, index=index, rule=rule, details=details)
        self.upload: Upload | None = None

    def as_dict(self) -> dict[str, Any]:
        """``{"error": code, "index", "rule", "message", ...details, "upload"}``."""
        body = super().as_dict()
        if self.upload is not None:
            body["upload"] = self.upload.pk
        return body


@dataclass
class ParsedLog:
    document: dict[str, Any]
    content_hash: str
    size: int


def too_large(size: int, limit: int) -> LogRejected:
    return LogRejected(
        Upload.Error.TOO_LARGE,
        Sentence.site(
            gettext_noop("the log is larger than the %(limit)s bytes accepted"), limit=limit
        ),
        details={"size": size, "limit": limit},
    )


#: How deeply a log's arrays and objects may nest. A real log nests about six deep; a
#: document nested thousands deep is an attack on every recursive reader after us
#: (json.dumps, the database's JSON functions, the engine), so it is refused up front.
MAX_LOG_DEPTH = 64


def _storable_problem(document: Any) -> Sentence | None:
    """Why a parsed document cannot be stored as it is, or None.

    JSON text may hold what PostgreSQL and UTF-8 cannot keep: NaN and Infinity (not
    JSON at all, yet Python's parser takes them), the NUL character (text and jsonb
    refuse it), unpaired surrogates (not encodable as UTF-8); and any depth. Walked
    with a stack, not recursion, so the depth itself cannot break the walk.
    """
    stack: list[tuple[Any, int]] = [(document, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict | list):
            if depth > MAX_LOG_DEPTH:
                return Sentence.site(
                    gettext_noop("the document nests arrays and objects more than %(depth)s deep"),
                    depth=MAX_LOG_DEPTH,
                )
            if isinstance(node, dict):
                for key, value in node.items():
                    problem = _text_problem(key)
                    if problem:
                        return problem
                    stack.append((value, depth + 1))
            else:
                stack.extend((item, depth + 1) for item in node)
        elif isinstance(node, str):
            problem = _text_problem(node)
            if problem:
                return problem
        elif isinstance(node, float) and not math.isfinite(node):
            return Sentence.site(gettext_noop("%(number)s is not a JSON number"), number=str(node))
    return None


def _text_problem(text: str) -> Sentence | None:
    if "\x00" in text:
        return Sentence.site(
            gettext_noop("a string holds the NUL character (\\u0000), which cannot be stored")
        )
    if text.isascii():
        return None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return Sentence.site(
            gettext_noop(
                "a string holds an unpaired surrogate (\\ud800-\\udfff), which is not Unicode text"
            )
        )
    return None


def _check_storable(document: Any) -> None:
    problem = _storable_problem(document)
    if problem:
        raise LogRejected(Upload.Error.MALFORMED, problem, rule="LOG-JSON")


def _storable_canonical_text(document: Any) -> bytes:
    """The canonical text (UTF-8) of a document that can be stored, which its content
    hash and size are taken of; LogRejected(malformed, LOG-JSON) when it cannot be.

    Walking every string of the document costs more than the rest of parsing it, so the
    usual document is proved storable on its canonical text instead
    (:func:`_may_be_unstorable`); only a text that might hold a problem is walked by
    :func:`_storable_problem`, which names the problem. The same documents are refused,
    with the same messages, as when every document was walked.
    """
    try:
        canonical: bytes | None = engine.canonical_json(document).encode("utf-8")
    except (RecursionError, UnicodeEncodeError):  # nested far too deep; an unpaired surrogate
        canonical = None
    if canonical is None or _may_be_unstorable(canonical):
        _check_storable(document)
    if canonical is None:  # the walk found nothing after all: let the encoder say why
        canonical = engine.canonical_json(document).encode("utf-8")
    return canonical


#: Every byte but the four brackets, and the two kinds of bracket made one (the document
#: is valid JSON, so how deep it nests does not depend on which kind closes which).
_NOT_BRACKETS = bytes(byte for byte in range(256) if byte not in b"[]{}")
_ONE_KIND_OF_BRACKET = bytes.maketrans(b"[]{}", b"()()")


def _may_be_unstorable(canonical: bytes) -> bool:
    """False only when canonical JSON text (json.dumps: control characters escaped,
    ``NaN`` and ``Infinity`` written as such) cannot hold what _storable_problem refuses:
    no escaped NUL, no NaN or Infinity, nesting at most MAX_LOG_DEPTH. Unpaired
    surrogates already failed its UTF-8 encoding. True may be a false alarm (the same
    characters inside a string): the caller walks the document then."""
    if b"\\u0000" in canonical or b"NaN" in canonical or b"Infinity" in canonical:
        return True
    depth = _nesting_depth(canonical)
    return depth is None or depth > MAX_LOG_DEPTH


def _nesting_depth(canonical: bytes) -> int | None:
    """How deep canonical JSON text nests its arrays and objects; None when this quick
    reading cannot tell (a string holding an escaped quote)."""
    if b'\\"' in canonical:
        return None  # a quote inside a string: splitting on quotes would not find strings
    # Without escaped quotes every quote opens or closes a string: the even pieces are
    # what lies between strings, whose brackets are the structure.
    brackets = b"".join(canonical.split(b'"')[::2]).translate(_ONE_KIND_OF_BRACKET, _NOT_BRACKETS)
    depth = 0
    while brackets:
        # Each pass removes the innermost level: the pairs adjacent before it.
        shorter = brackets.replace(b"()", b"")
        if len(shorter) == len(brackets):
            return None
        brackets = shorter
        depth += 1
    return depth


def parse_log(document: bytes | str | dict[str, Any]) -> ParsedLog:
    """Size check, JSON parse and storability; LogRejected(too_large | malformed)."""
    limit = max_log_bytes()
    if isinstance(document, dict):
        canonical = _storable_canonical_text(document)
        if len(canonical) > limit:
            raise too_large(len(canonical), limit)
        return ParsedLog(document, canonical_text_hash(canonical), len(canonical))
    raw = utf8_bytes(document) if isinstance(document, str) else document
    if len(raw) > limit:
        raise too_large(len(raw), limit)
    try:
        parsed = engine.parse_json(raw)
    except engine.IllegalAction as exc:
        raise LogRejected(
            Upload.Error.MALFORMED, Sentence.of_engine(exc.sentence), rule=exc.rule
        ) from None
    canonical = _storable_canonical_text(parsed)
    return ParsedLog(parsed, canonical_text_hash(canonical), len(raw))


def utf8_bytes(text: str) -> bytes:
    """The text's UTF-8 bytes; an unpaired surrogate is kept as is (refused when parsed)."""
    return text.encode("utf-8", "surrogatepass")


def storable_text(text: str) -> str:
    """``text`` with what a database text column cannot hold (NUL, unpaired surrogates)
    replaced by U+FFFD: what is kept of a rejected upload for its page."""
    return text.encode("utf-8", "replace").decode("utf-8").replace("\x00", "\ufffd")
