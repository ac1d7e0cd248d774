"""Writes: every log enters Lantern through :func:`ingest_log`.

A log is parsed, size- and shape-checked, its seat handles mapped to the club's
players, replayed through the engine, and then stored as a Match with its
seats, outcomes and document in one transaction. Every attempt leaves an
:class:`~games.models.Upload` record: accepted, duplicate, or rejected with the
rule and sentence that say why.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, Q, Value
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.dateparse import parse_datetime

import engine
from clubs import policy
from clubs.models import Club, Player
from config.errors import AppError
from config.queueing import send_task, send_task_on_commit
from games import read_cache
from games.bundles import (
    BundleEntry,
    BundleError,
    BundleLimits,
    BundleTooLarge,
    check_bundle,
    read_bundle,
)
from games.models import Import, Match, MatchLog, MatchSeat, Upload, canonical_text_hash
from ladder.tasks import rate_match, rate_matches

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
        message: str,
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
class _Parsed:
    document: dict[str, Any]
    content_hash: str
    size: int


def _too_large(size: int, limit: int) -> LogRejected:
    return LogRejected(
        Upload.Error.TOO_LARGE,
        f"the log is larger than the {limit} bytes accepted",
        details={"size": size, "limit": limit},
    )


#: How deeply a log's arrays and objects may nest. A real log nests about six deep; a
#: document nested thousands deep is an attack on every recursive reader after us
#: (json.dumps, the database's JSON functions, the engine), so it is refused up front.
MAX_LOG_DEPTH = 64


def _storable_problem(document: Any) -> str | None:
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
                return f"the document nests arrays and objects more than {MAX_LOG_DEPTH} deep"
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
            return f"{node} is not a JSON number"
    return None


def _text_problem(text: str) -> str | None:
    if "\x00" in text:
        return "a string holds the NUL character (\\u0000), which cannot be stored"
    if text.isascii():
        return None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "a string holds an unpaired surrogate (\\ud800-\\udfff), which is not Unicode text"
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


def _parse(document: bytes | str | dict[str, Any]) -> _Parsed:
    """Size check, JSON parse and storability; LogRejected(too_large | malformed)."""
    limit = max_log_bytes()
    if isinstance(document, dict):
        canonical = _storable_canonical_text(document)
        if len(canonical) > limit:
            raise _too_large(len(canonical), limit)
        return _Parsed(document, canonical_text_hash(canonical), len(canonical))
    raw = _utf8(document) if isinstance(document, str) else document
    if len(raw) > limit:
        raise _too_large(len(raw), limit)
    try:
        parsed = engine.parse_json(raw)
    except engine.IllegalAction as exc:
        raise LogRejected(Upload.Error.MALFORMED, exc.message, rule=exc.rule) from None
    canonical = _storable_canonical_text(parsed)
    return _Parsed(parsed, canonical_text_hash(canonical), len(raw))


def _utf8(text: str) -> bytes:
    """The text's UTF-8 bytes; an unpaired surrogate is kept as is (refused when parsed)."""
    return text.encode("utf-8", "surrogatepass")


def storable_text(text: str) -> str:
    """``text`` with what a database text column cannot hold (NUL, unpaired surrogates)
    replaced by U+FFFD: what is kept of a rejected upload for its page."""
    return text.encode("utf-8", "replace").decode("utf-8").replace("\x00", "\ufffd")


def _rejection_from_engine(exc: engine.IllegalAction) -> LogRejected:
    """Envelope errors (``LOG-*``) mean a malformed document; anything else broke a rule."""
    code = Upload.Error.MALFORMED if exc.rule.startswith("LOG-") else Upload.Error.ILLEGAL
    message = f"{exc.where()}: {exc.message}" if exc.index is not None else exc.message
    return LogRejected(code, message, index=exc.index, rule=exc.rule)


class PlayedAtOutOfRange(ValueError):
    """A readable ``meta.played_at`` that names no moment of the calendar in UTC."""


def played_at_of(document: dict[str, Any]) -> datetime | None:
    """``meta.played_at`` as an aware datetime in UTC (naive means UTC), None when absent
    or unreadable; PlayedAtOutOfRange when it is readable but outside years 1..9999 once
    its offset is applied (``9999-12-31T23:59:59-14:00``, ``0001-01-01T00:00:00+14:00``)."""
    meta = document.get("meta")
    value = meta.get("played_at") if isinstance(meta, dict) else None
    if not isinstance(value, str):
        return None
    try:
        moment = parse_datetime(value)
    except ValueError:
        return None
    if moment is None:
        return None
    if not timezone.is_aware(moment):
        return moment.replace(tzinfo=UTC)
    try:
        return moment.astimezone(UTC)
    except OverflowError:
        raise PlayedAtOutOfRange(value) from None


def _check_played_at(log: dict[str, Any]) -> None:
    """LogRejected(LOG-META) for a ``meta.played_at`` no database column can hold."""
    try:
        played_at_of(log)
    except PlayedAtOutOfRange as exc:
        raise LogRejected(
            Upload.Error.MALFORMED,
            f"meta.played_at {exc.args[0]!r} is outside the calendar once its offset is applied "
            "(years 1 to 9999 in UTC)", rule="LOG-META",
        ) from None


def has_bot_seat(document: dict[str, Any]) -> bool:
    """Whether a seat of the log was played by a bot: its seat entry names the bot
    (``{"seat": "p2", "player": "bot-greedy", "bot": "greedy"}``, as the recorder writes
    it). Such a match is rated only on the club's bot ladder."""
    return any(isinstance(entry, dict) and entry.get("bot") for entry in document.get("seats") or [])


@dataclass
class ImportBatch:
    """The logs a bulk import stores in one transaction (IMPORT_BATCH of them).

    ``ingest_log`` inserts each new match itself (its unique constraint is what finds
    a duplicate) but leaves the match's seats, log and upload record here; ``write``
    inserts them with one statement per table before the batch commits. The players'
    ids read or created by its logs are kept too, so a handle is looked up once per
    batch: every row the batch writes is checked against them when it commits.
    """

    seats: list[MatchSeat] = field(default_factory=list)
    logs: list[MatchLog] = field(default_factory=list)
    uploads: list[Upload] = field(default_factory=list)
    player_ids: dict[str, int] = field(default_factory=dict)

    def write(self) -> None:
        MatchSeat.objects.bulk_create(self.seats)
        MatchLog.objects.bulk_create(self.logs)
        Upload.objects.bulk_create(self.uploads)
        for club_id in {log.match.club_id for log in self.logs}:  # new matches in its list
            read_cache.club_changed(club_id, read_cache.MATCHES)
        self.seats, self.logs, self.uploads = [], [], []


@dataclass
class _Attempt:
    """What we know about one upload attempt, for its Upload record."""

    club: Club
    uploaded_by: Any
    source: str
    name: str
    import_run: Import | None
    batch: ImportBatch | None = None
    size: int = 0
    content_hash: str = ""
    game: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    #: milliseconds the engine spent replaying the log; None when it never got that far
    validation_ms: float | None = None

    def record(self, status: str, *, match: Match | None = None, **fields: Any) -> Upload:
        upload = self.upload(status, match=match, **fields)
        upload.save(force_insert=True)
        return upload

    def upload(self, status: str, *, match: Match | None = None, **fields: Any) -> Upload:
        """The Upload record of this attempt, not saved yet."""
        return Upload(
            club=self.club,
            uploaded_by=self.uploaded_by if getattr(self.uploaded_by, "pk", None) else None,
            source=self.source,
            name=storable_text(self.name[:200]),
            import_run=self.import_run,
            size=min(self.size, 2**31 - 1),  # a claimed Content-Length may exceed the column
            content_hash=self.content_hash,
            game=self.game[:64],
            status=status,
            match=match,
            validation_ms=self.validation_ms,
            **fields,
        )


def ingest_log(
    club: Club,
    document: bytes | str | dict[str, Any],
    uploaded_by: Any,
    *,
    source: str = Upload.Source.API,
    name: str = "",
    import_run: Import | None = None,
    batch: ImportBatch | None = None,
) -> Match:
    """Validate ``document`` (bytes, text or parsed JSON) and store it as a match of ``club``.

    Returns the match; ``match.created`` is True when this call stored it and
    False when the same log (same canonical JSON) was already there. Raises
    :class:`LogRejected` when the log is refused; the attempt's Upload record
    (``exc.upload``) is stored either way. ``uploaded_by`` None means the site
    itself (command line, demo data), which may create players.

    The caller checks that ``uploaded_by`` may upload to ``club`` (clubs.policy);
    this function decides only whether unknown handles may be created.

    ``batch`` (a bulk import, inside its transaction): a new match's seats, log and
    accepted upload record join the batch, written by ``batch.write()`` before the
    transaction commits, and the match's rating is left to the caller.
    """
    attempt = _Attempt(club, uploaded_by, source, name, import_run, batch)
    if isinstance(document, bytes | str):
        attempt.size = len(_utf8(document) if isinstance(document, str) else document)
    try:
        return _ingest(attempt, document)
    except LogRejected as exc:
        _record_rejection(attempt, exc, _kept_text(document))
        raise


def _kept_text(document: bytes | str | dict[str, Any]) -> str:
    """The text of a rejected document as the database can keep it."""
    if isinstance(document, dict):
        try:
            text = engine.canonical_json(document)
        except (RecursionError, ValueError):  # refused for its depth: nothing worth keeping
            return ""
    elif isinstance(document, bytes):
        text = document.decode("utf-8", errors="replace")
    else:
        text = document
    return storable_text(text)


def _record_rejection(attempt: _Attempt, exc: LogRejected, document_text: str) -> None:
    """Keep the attempt and why it failed; keep the text too (so an organiser can step
    through its valid part), unless it was refused for its size."""
    if exc.code == Upload.Error.TOO_LARGE:
        document_text = ""
    exc.upload = attempt.record(
        Upload.Status.REJECTED,
        error=exc.code,
        error_index=exc.index,
        error_rule=exc.rule or "",
        error_message=exc.message,
        error_details=exc.details,
        document_text=document_text,
    )


def reject_too_large(
    club: Club,
    size: int,
    uploaded_by: Any,
    *,
    source: str = Upload.Source.API,
    name: str = "",
    import_run: Import | None = None,
) -> LogRejected:
    """Record an attempt refused for its size before it was read; return the rejection."""
    attempt = _Attempt(club, uploaded_by, source, name, import_run, size=size)
    exc = _too_large(size, max_log_bytes())
    _record_rejection(attempt, exc, "")
    return exc


def accept_log_size(
    club: Club, size: int, uploaded_by: Any, *, source: str = Upload.Source.API, name: str = "",
    allowance: int = 0,
) -> None:
    """Refuse, before reading it, a log whose size (a file's, or a request's
    Content-Length with ``allowance`` bytes of framing) is over the limit: LogRejected
    ``too_large``, the attempt recorded. Every way a log arrives asks this first."""
    if size > max_log_bytes() + allowance:
        raise reject_too_large(club, size, uploaded_by, source=source, name=name)


def read_log_file(
    club: Club, file: Any, uploaded_by: Any, *, source: str = Upload.Source.API
) -> tuple[bytes, str]:
    """The bytes and name of an uploaded log file (a Django ``UploadedFile``), read only
    once :func:`accept_log_size` accepts its size."""
    name = file.name or ""
    accept_log_size(club, file.size, uploaded_by, source=source, name=name)
    return file.read(), name


def accept_import_size(size: int, *, allowance: int = 0) -> None:
    """Refuse, before reading it, a bulk import file over the limit: ImportRefused
    ``too_large`` (nothing is recorded: no import exists yet)."""
    limit = max_import_file_bytes()
    if size > limit + allowance:
        raise ImportRefused(f"at most {limit} bytes are accepted", size=size, limit=limit)


def _ingest(attempt: _Attempt, document: bytes | str | dict[str, Any]) -> Match:
    club = attempt.club
    parsed = _parse(document)
    attempt.size = parsed.size
    attempt.content_hash = parsed.content_hash
    log = parsed.document
    if isinstance(log.get("game"), str):
        attempt.game = log["game"]

    try:
        replayed, known, missing = _validate(attempt, log)
    except LogRejected:
        # The same log already stored is a duplicate, whatever the engine says of it now.
        existing = _stored(club, parsed.content_hash)
        if existing is None:
            raise
        return _duplicate(attempt, existing)

    try:
        with transaction.atomic():
            match = _store(attempt, parsed, replayed, known, missing)
    except IntegrityError:
        # The same log is already stored (by this club earlier, or by a concurrent upload
        # that committed first): the unique constraint on (club, content_hash) decides,
        # so a new log costs no query to look for itself first.
        existing = _stored(club, parsed.content_hash)
        if existing is None:
            raise
        return _duplicate(attempt, existing)
    if attempt.batch is not None:
        # Only now: handles created for a log that turned out a duplicate were undone.
        attempt.batch.player_ids.update(known)
    match.created = True
    return match


def _validate(
    attempt: _Attempt, log: dict[str, Any]
) -> tuple[engine.Replay, dict[str, int], list[str]]:
    """Envelope, seat handles and replay: (the replay, the known players' ids by
    handle, the handles to create). LogRejected when the log cannot become a match."""
    club = attempt.club
    try:
        engine.check_envelope(log)
    except engine.IllegalAction as exc:
        raise _rejection_from_engine(exc) from None
    _check_played_at(log)
    handles = sorted({entry["player"] for entry in log["seats"]})
    longest = Player._meta.get_field("handle").max_length
    too_long = [h for h in handles if len(h) > longest]
    if too_long:
        raise LogRejected(
            Upload.Error.MALFORMED,
            f"a player handle may have at most {longest} characters: {too_long[0][:80]!r}",
            rule="LOG-SEATS",
        )
    cached = attempt.batch.player_ids if attempt.batch is not None else {}
    known = {h: cached[h] for h in handles if h in cached}
    if len(known) < len(handles):
        known.update(_player_ids(club, [h for h in handles if h not in known]))
    missing = [h for h in handles if h not in known]
    if missing and not policy.can_create_players(attempt.uploaded_by, club):
        raise LogRejected(
            Upload.Error.UNKNOWN_PLAYERS,
            f"these players are not in {club.name}: {', '.join(missing)} "
            "(an organiser can upload the log to add them)",
            details={"handles": missing},
        )

    started = time.perf_counter()
    try:
        replayed = engine.replay(log)
    except engine.IllegalAction as exc:
        raise _rejection_from_engine(exc) from None
    finally:
        attempt.validation_ms = (time.perf_counter() - started) * 1000
    return replayed, known, missing


def _player_ids(club: Club, handles: Iterable[str]) -> dict[str, int]:
    # Ids only, unordered: Player's default ordering would join Club to sort by its name.
    return dict(
        Player.objects.filter(club=club, handle__in=handles).order_by().values_list("handle", "pk")
    )


def _stored(club: Club, content_hash: str) -> Match | None:
    # Unordered on purpose: at most one row can match (the unique constraint), and an
    # ORDER BY would only cost time on every upload.
    existing = next(iter(Match.objects.filter(club=club, content_hash=content_hash).order_by()[:1]), None)
    if existing is not None:
        existing.club = club  # the club it was found in: whoever reads match.club asks no query
    return existing


def _duplicate(attempt: _Attempt, existing: Match) -> Match:
    attempt.record(Upload.Status.DUPLICATE, match=existing)
    existing.created = False
    return existing


def _store(
    attempt: _Attempt,
    parsed: _Parsed,
    replayed: engine.Replay,
    known: dict[str, int],
    missing: list[str],
) -> Match:
    club = attempt.club
    if missing:
        # ignore_conflicts: a concurrent upload may create the same handle; both then read it.
        Player.objects.bulk_create(
            [Player(club=club, handle=handle) for handle in missing], ignore_conflicts=True
        )
        known.update(_player_ids(club, missing))
    finished = replayed.status == "finished"
    result = replayed.result if finished else None
    match = Match.objects.create(
        club=club,
        game=replayed.game.id,
        played_at=played_at_of(parsed.document),
        status=Match.Status.VALID if finished else Match.Status.UNFINISHED,
        result=result,
        winner=str(result.get("winner", "")) if result else "",
        uploaded_by=attempt.uploaded_by if getattr(attempt.uploaded_by, "pk", None) else None,
        content_hash=parsed.content_hash,
        rules_version=replayed.game.rules_version,
        action_count=len(replayed.actions),
        with_bots=has_bot_seat(parsed.document),
    )
    # Who won is the engine's to say (a seat, or a side such as a team of seats).
    outcomes = replayed.game.outcomes(result, replayed.seats) if finished else {}
    seats = [
        MatchSeat(
            match=match,
            seat=seat,
            player_id=known[handle],
            outcome=MatchSeat.Outcome(outcomes.get(seat, MatchSeat.Outcome.NONE)),
        )
        for seat, handle in replayed.players.items()
    ]
    log = MatchLog(match=match, document=parsed.document)
    if attempt.batch is not None:
        # A bulk import writes these for its whole batch at once, and queues one
        # rating task per batch (_run_import).
        attempt.batch.seats.extend(seats)
        attempt.batch.logs.append(log)
        attempt.batch.uploads.append(attempt.upload(Upload.Status.ACCEPTED, match=match))
        return match
    MatchSeat.objects.bulk_create(seats)
    log.save(force_insert=True)
    attempt.record(Upload.Status.ACCEPTED, match=match)
    read_cache.club_changed(club.pk, read_cache.MATCHES)  # a new match in the club's list
    if finished:
        # Rated once the match is committed (ladder.tasks; ratings.md EL-1.2).
        send_task_on_commit(rate_match, match.pk)
    return match


# --- bulk import -------------------------------------------------------------------

#: Defaults for bulk imports (settings.LANTERN_IMPORT_* override).
MAX_IMPORT_FILE_BYTES = 64 * 1024 * 1024
MAX_IMPORT_ENTRIES = 20_000
MAX_IMPORT_EXPANDED_BYTES = 256 * 1024 * 1024
#: Logs stored per transaction in a bulk import; the progress counters are written
#: with each batch. Each new match is inserted in its own savepoint (a duplicate found
#: by the unique constraint undoes only its own work), but the database syncs its
#: journal to disk once per batch rather than once per match, and the batch's seats,
#: logs and upload records go in with one INSERT per table (ImportBatch): on
#: PostgreSQL about twice the matches per second of storing them one by one
#: (bench/README.md).
IMPORT_BATCH = 50


def max_import_file_bytes() -> int:
    return int(getattr(settings, "LANTERN_MAX_IMPORT_FILE_BYTES", MAX_IMPORT_FILE_BYTES))


def bundle_limits() -> BundleLimits:
    return BundleLimits(
        max_log_bytes=max_log_bytes(),
        max_entries=int(getattr(settings, "LANTERN_MAX_IMPORT_ENTRIES", MAX_IMPORT_ENTRIES)),
        max_total_bytes=int(
            getattr(settings, "LANTERN_MAX_IMPORT_EXPANDED_BYTES", MAX_IMPORT_EXPANDED_BYTES)
        ),
    )


class ImportRefused(AppError):
    """The bundle file itself is refused before any import is created: ``code``
    ``too_large`` (the file, or what its directory declares, breaks a limit) or
    ``malformed`` (a zip that cannot be read)."""

    def __init__(self, message: str, *, size: int, limit: int | None = None,
                 code: str = Upload.Error.TOO_LARGE):
        super().__init__(message, code=code)
        self.size = size
        self.limit = limit


def create_import(
    club: Club, data: bytes, filename: str, created_by: Any, *, enqueue: bool = True
) -> Import:
    """Store the bundle and enqueue its import (a Celery task, after this transaction
    commits); ``enqueue=False`` leaves running it to the caller (the command line).

    The caller checks ``policy.can_import``. ``created_by`` None means the site itself.
    """
    limit = max_import_file_bytes()
    if len(data) > limit:
        raise ImportRefused(
            f"the file is {len(data)} bytes; at most {limit} bytes are accepted",
            size=len(data),
            limit=limit,
        )
    try:
        check_bundle(data, bundle_limits())  # a zip's directory only: nothing is inflated
    except BundleTooLarge as exc:
        raise ImportRefused(str(exc), size=len(data)) from None
    except BundleError as exc:
        raise ImportRefused(str(exc), size=len(data), code=Upload.Error.MALFORMED) from None
    run = Import.objects.create(
        club=club,
        created_by=created_by if getattr(created_by, "pk", None) else None,
        filename=filename[:200],
        size=len(data),
        payload=data,
    )
    if enqueue:
        # games.tasks imports this module, so the task is imported here, not at the top.
        from games.tasks import run_import_task

        send_task_on_commit(run_import_task, run.pk)
    return run


#: An import still queued this long after it was stored lost its task (the broker was
#: down, say): it is queued again. run_import claims an import once, so a second task
#: for one that did start does nothing.
REQUEUE_IMPORTS_AFTER = timedelta(minutes=2)


#: A running import with no batch saved for this long has lost its worker (killed, out
#: of memory, a lost machine): the next requeue resumes it after the last saved batch.
IMPORT_STALLED_AFTER = timedelta(minutes=10)
#: Workers an import may lose before it is ended as failed (what it accepted is kept):
#: an import that kills its worker every time is not retried forever.
MAX_IMPORT_ATTEMPTS = 3


def _stalled_imports(older_than: timedelta) -> Q:
    now = timezone.now()
    return (Q(status=Import.Status.QUEUED, created_at__lte=now - older_than)
            | Q(status=Import.Status.RUNNING, heartbeat_at__lte=now - IMPORT_STALLED_AFTER))


def requeue_queued_imports(*, older_than: timedelta = REQUEUE_IMPORTS_AFTER) -> int:
    """Queue ``run_import`` again for imports still queued ``older_than`` after they were
    stored, and for running ones silent for IMPORT_STALLED_AFTER (their worker died: the
    task resumes them). Stops when the broker is still unreachable; returns how many
    were queued."""
    from games.tasks import run_import_task

    queued = 0
    stale = Import.objects.filter(_stalled_imports(older_than)).order_by("id")
    for import_id in stale.values_list("id", flat=True):
        if not send_task(run_import_task, import_id):
            break
        queued += 1
    return queued


def run_import(import_id: int) -> Import:
    """Ingest every log of an import, counting progress as it goes.

    One bad log never stops the others: each becomes a rejected Upload of this
    import. A queued import is started; a running one is taken up only when it has
    stalled (its worker died: no batch saved for IMPORT_STALLED_AFTER) and resumes
    after its last saved batch — each batch's matches and counts commit together, so
    nothing is counted twice or lost. After MAX_IMPORT_ATTEMPTS workers it ends
    ``failed`` with what it accepted kept. Anything else: a second call does nothing.
    """
    now = timezone.now()
    claimed = Import.objects.filter(
        Q(pk=import_id)
        & (Q(status=Import.Status.QUEUED)
           | Q(status=Import.Status.RUNNING, heartbeat_at__lte=now - IMPORT_STALLED_AFTER))
    ).update(status=Import.Status.RUNNING, started_at=Coalesce("started_at", Value(now)),
             heartbeat_at=now, attempts=F("attempts") + 1)
    run = Import.objects.select_related("club", "created_by").get(pk=import_id)
    if not claimed:
        return run
    if run.attempts > MAX_IMPORT_ATTEMPTS:
        _finish(run, Import.Status.FAILED, error=(
            f"the import stopped its worker {run.attempts - 1} times; the {run.processed} "
            f"logs read before that are kept ({run.accepted} accepted)"))
        return run
    try:
        _run_import(run)
    except BundleError as exc:
        _finish(run, Import.Status.FAILED, error=str(exc))
    except Exception as exc:
        # The batch in progress was rolled back: count only what the database kept.
        run.refresh_from_db(fields=["total", "processed", "accepted", "duplicates", "rejected"])
        _finish(run, Import.Status.FAILED, error=f"the import stopped on an internal error ({exc!r})")
        raise
    return run


def _run_import(run: Import) -> None:
    entries = read_bundle(bytes(run.payload), bundle_limits())
    run.total = len(entries)
    Import.objects.filter(pk=run.pk).update(total=run.total)
    # A resumed import starts after the last batch it saved (run.processed, committed
    # with that batch's matches).
    for start in range(run.processed, len(entries), IMPORT_BATCH):
        with transaction.atomic():
            batch = ImportBatch()
            stored = [
                _import_entry(run, entry, batch) for entry in entries[start:start + IMPORT_BATCH]
            ]
            batch.write()
            _save_progress(run)
            finished = [match.pk for match in stored if match and match.status == Match.Status.VALID]
            if finished:
                # One rating task for the batch's new finished matches, once they are
                # committed: sending a task costs about as much as storing a match.
                send_task_on_commit(rate_matches, finished)
    _finish(run, Import.Status.DONE)


def _import_entry(run: Import, entry: BundleEntry, batch: ImportBatch) -> Match | None:
    """Ingest one log of the import and count it; the match if it is new."""
    run.processed += 1
    if entry.too_large:
        reject_too_large(
            run.club, entry.size, run.created_by,
            source=Upload.Source.IMPORT, name=entry.name, import_run=run,
        )
        run.rejected += 1
        return None
    try:
        match = ingest_log(
            run.club,
            entry.payload,
            run.created_by,
            source=Upload.Source.IMPORT,
            name=entry.name,
            import_run=run,
            batch=batch,
        )
    except LogRejected:
        run.rejected += 1
        return None
    if match.created:
        run.accepted += 1
        return match
    run.duplicates += 1
    return None


def _save_progress(run: Import) -> None:
    Import.objects.filter(pk=run.pk).update(
        heartbeat_at=timezone.now(),
        processed=run.processed,
        accepted=run.accepted,
        duplicates=run.duplicates,
        rejected=run.rejected,
    )


def _finish(run: Import, status: str, *, error: str = "") -> None:
    run.status = status
    run.error = error
    run.finished_at = timezone.now()
    Import.objects.filter(pk=run.pk).update(
        status=status,
        error=error,
        finished_at=run.finished_at,
        total=max(run.total, run.processed),
        processed=run.processed,
        accepted=run.accepted,
        duplicates=run.duplicates,
        rejected=run.rejected,
    )


# --- revalidation --------------------------------------------------------------------


@dataclass(frozen=True)
class Revalidation:
    """One stored match whose replay with the current engine no longer agrees."""

    match_id: int
    club: str
    game: str
    stored_status: str
    stored_result: dict[str, Any] | None
    stored_rules_version: str
    status: str
    result: dict[str, Any] | None
    rules_version: str
    rejection: dict[str, Any] | None

    def describe(self) -> str:
        now = self.status if self.rejection is None else (
            f"rejected at {self.rejection['where']}: {self.rejection['rule']}: "
            f"{self.rejection['message']}"
        )
        return (
            f"match {self.match_id} ({self.club}, {self.game}, rules {self.stored_rules_version} "
            f"→ {self.rules_version}): was {self.stored_status} {self.stored_result or ''}, "
            f"now {now} {self.result or ''}"
        ).strip()


@dataclass
class RevalidationReport:
    checked: int = 0
    changed: list[Revalidation] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "checked": self.checked,
            "changed": [change.__dict__ for change in self.changed],
        }


def revalidate_matches(game: str | None = None) -> RevalidationReport:
    """Replay every stored log (of ``game``, or all) with the current engine and report
    the matches whose validity or result changed. Changes nothing in the database."""
    report = RevalidationReport()
    matches = Match.objects.select_related("club", "log").order_by("id")
    if game:
        matches = matches.filter(game=game)
    for match in matches.iterator(chunk_size=200):
        report.checked += 1
        change = _revalidate(match)
        if change is not None:
            report.changed.append(change)
    return report


def _revalidate(match: Match) -> Revalidation | None:
    document = match.log.document
    rejection = None
    result = None
    rules_version = ""
    try:
        replayed = engine.replay(document)
    except engine.IllegalAction as exc:
        status = Match.Status.REJECTED
        rejection = {"where": exc.where(), **exc.as_dict()}
        game = engine.get_game(document.get("game")) if isinstance(document, dict) else None
        rules_version = game.rules_version if game else ""
    else:
        finished = replayed.status == "finished"
        status = Match.Status.VALID if finished else Match.Status.UNFINISHED
        result = replayed.result if finished else None
        rules_version = replayed.game.rules_version
    if status == match.status and result == match.result:
        return None
    return Revalidation(
        match_id=match.pk,
        club=match.club.slug,
        game=match.game,
        stored_status=match.status,
        stored_result=match.result,
        stored_rules_version=match.rules_version,
        status=status,
        result=result,
        rules_version=rules_version,
        rejection=rejection,
    )


def note_upload_read(user: Any, upload: Upload) -> None:
    """Write an operator's reading of a private club's upload to the club's audit trail
    (``policy.is_staff_reading_private_upload``); nothing for anyone else."""
    from clubs.services import audit

    if policy.is_staff_reading_private_upload(user, upload):
        audit(upload.club, user, "upload.staff_read",
              f"{user.get_username()} (site operator) read upload {upload.pk} "
              f"({upload.name or 'unnamed'}, {upload.status})", upload=upload.pk)
