"""Ingest: every log enters Lantern through :func:`ingest_log`.

A log is parsed, size- and shape-checked, its seat handles mapped to the club's
players, replayed through the engine, and then stored as a Match with its
seats, outcomes and document in one transaction. Every attempt leaves an
:class:`~games.models.Upload` record: accepted, duplicate, or rejected with the
rule and sentence that say why.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext_noop

import engine
from clubs import policy
from clubs.bots import entry_bot
from clubs.models import Club, Player
from clubs.services import record_guests
from config.events import publish
from config.sentences import Sentence
from games import events
from games.models import Import, Match, MatchLog, MatchSeat, Upload
from games.services.storable import (
    LogRejected,
    ParsedLog,
    max_log_bytes,
    parse_log,
    storable_text,
    too_large,
    utf8_bytes,
)


def _rejection_from_engine(exc: engine.IllegalAction) -> LogRejected:
    """Envelope errors (``LOG-*``) mean a malformed document; anything else broke a rule."""
    code = Upload.Error.MALFORMED if exc.rule.startswith("LOG-") else Upload.Error.ILLEGAL
    # Said in the reader's language whenever it is read: the engine's own messages.
    if exc.index is not None:
        sentence = Sentence.of_engine(exc.where_message(), exc.sentence)
    else:
        sentence = Sentence.of_engine(exc.sentence)
    # Where in the log, as a JSON path: a detail for whoever opens the log, never the sentence.
    details = {"path": exc.path} if exc.path else None
    return LogRejected(code, sentence, index=exc.index, rule=exc.rule, details=details)


class PlayedAtRefused(ValueError):
    """A ``meta.played_at`` that is there and names no moment: ``args[0]`` says why (a
    Sentence), for LOG-META."""


#: What a ``meta.played_at`` looks like, said in every refusal of one.
PLAYED_AT_EXAMPLE = "2026-11-20T19:00:00Z"


def played_at_of(document: dict[str, Any]) -> datetime | None:
    """``meta.played_at`` as an aware datetime in UTC (naive means UTC), None when absent
    or null. PlayedAtRefused when it is anything else that is not an ISO 8601 date and
    time (``"nan"``, ``1e308``, ``2026-13-45T99:99:99Z``), or is one outside years
    1..9999 once its offset is applied (``9999-12-31T23:59:59-14:00``)."""
    meta = document.get("meta")
    value = meta.get("played_at") if isinstance(meta, dict) else None
    if value is None:
        return None
    moment = None
    if isinstance(value, str):
        try:
            moment = parse_datetime(value)
        except ValueError:  # well formed, but no such day or hour
            moment = None
    if moment is None:
        raise PlayedAtRefused(
            Sentence.site(
                gettext_noop(
                    "the date the log gives for the game, %(value)s, is not a date and time: "
                    "write it as %(example)s (ISO 8601), or leave it out when the date is "
                    "unknown"
                ),
                value=_shown(value),
                example=PLAYED_AT_EXAMPLE,
            )
        )
    if not timezone.is_aware(moment):
        return moment.replace(tzinfo=UTC)
    try:
        return moment.astimezone(UTC)
    except OverflowError:
        raise PlayedAtRefused(
            Sentence.site(
                gettext_noop(
                    "the date the log gives for the game, %(value)s, is outside the calendar "
                    "once its offset is applied (years 1 to 9999 in UTC)"
                ),
                value=_shown(value),
            )
        ) from None


def _shown(value: Any) -> str:
    """A value of the log as a refusal quotes it: its JSON text, cut short."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 80 else text[:79] + "…"


def _check_played_at(log: dict[str, Any]) -> None:
    """LogRejected(LOG-META) for a ``meta.played_at`` that no match can be dated by."""
    try:
        played_at_of(log)
    except PlayedAtRefused as exc:
        raise LogRejected(
            Upload.Error.MALFORMED,
            exc.args[0],
            rule="LOG-META",
            details={"path": "meta.played_at"},
        ) from None


def has_bot_seat(document: dict[str, Any]) -> bool:
    """Whether a seat of the log was played by a bot: its seat entry names the bot
    (``{"seat": "p2", "player": "bot-greedy", "bot": "greedy"}``, as the recorder writes
    it). Such a match is rated only on the club's bot ladder."""
    return any(
        isinstance(entry, dict) and entry.get("bot") for entry in document.get("seats") or []
    )


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
    #: handles the uploader confirmed as guests (created as such if the club lacks them)
    guests: frozenset[str] = frozenset()
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
    guests: Iterable[str] = (),
) -> Match:
    """Validate ``document`` (bytes, text or parsed JSON) and store it as a match of ``club``.

    Returns the match; ``match.created`` is True when this call stored it and
    False when the same log (same canonical JSON) was already there. Raises
    :class:`LogRejected` when the log is refused; the attempt's Upload record
    (``exc.upload``) is stored either way. ``uploaded_by`` None means the site
    itself (command line, demo data), which may create players.

    The caller checks that ``uploaded_by`` may upload to ``club`` (clubs.policy);
    this function decides only whether unknown handles may be created: by an organiser
    (or the site), or as ``guests`` the uploader confirms where clubs.policy lets them.

    ``batch`` (a bulk import, inside its transaction): a new match's seats, log and
    accepted upload record join the batch, written by ``batch.write()`` before the
    transaction commits, and the match's rating is left to the caller.
    """
    attempt = _Attempt(club, uploaded_by, source, name, import_run, batch, guests=frozenset(guests))
    if isinstance(document, bytes | str):
        attempt.size = len(utf8_bytes(document) if isinstance(document, str) else document)
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
        error_message=exc.english,
        error_sentence=exc.as_sentence().as_json(),
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
    exc = too_large(size, max_log_bytes())
    _record_rejection(attempt, exc, "")
    return exc


def accept_log_size(
    club: Club,
    size: int,
    uploaded_by: Any,
    *,
    source: str = Upload.Source.API,
    name: str = "",
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


def _ingest(attempt: _Attempt, document: bytes | str | dict[str, Any]) -> Match:
    club = attempt.club
    parsed = parse_log(document)
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
            Sentence.site(
                gettext_noop("a player handle may have at most %(longest)s characters: %(handle)s"),
                longest=longest,
                handle=repr(too_long[0][:80]),
            ),
            rule="LOG-SEATS",
        )
    cached = attempt.batch.player_ids if attempt.batch is not None else {}
    known = {h: cached[h] for h in handles if h in cached}
    if len(known) < len(handles):
        known.update(_player_ids(club, [h for h in handles if h not in known]))
    missing = [h for h in handles if h not in known]
    if missing and not _may_add(attempt, missing):
        can_confirm = policy.can_confirm_guests(attempt.uploaded_by, club)
        raise LogRejected(
            Upload.Error.UNKNOWN_PLAYERS,
            Sentence.site(
                gettext_noop(
                    "these players are not in %(club)s: %(handles)s (confirm them "
                    "as guests to store the log)"
                ),
                club=club.name,
                handles=", ".join(missing),
            )
            if can_confirm
            else Sentence.site(
                gettext_noop(
                    "these players are not in %(club)s: %(handles)s (an organiser can "
                    "upload the log to add them)"
                ),
                club=club.name,
                handles=", ".join(missing),
            ),
            details={"handles": missing, "can_confirm_guests": can_confirm},
        )

    started = time.perf_counter()
    try:
        replayed = engine.replay(log)
    except engine.IllegalAction as exc:
        raise _rejection_from_engine(exc) from None
    finally:
        attempt.validation_ms = (time.perf_counter() - started) * 1000
    return replayed, known, missing


def _may_add(attempt: _Attempt, missing: list[str]) -> bool:
    """Whether the uploader may create players for ``missing``: an organiser may; anyone
    who may confirm guests, when they confirmed every one of them."""
    if policy.can_create_players(attempt.uploaded_by, attempt.club):
        return True
    return set(missing) <= attempt.guests and policy.can_confirm_guests(
        attempt.uploaded_by, attempt.club
    )


def _player_ids(club: Club, handles: Iterable[str]) -> dict[str, int]:
    # Ids only, unordered: Player's default ordering would join Club to sort by its name.
    return dict(
        Player.objects.filter(club=club, handle__in=handles).order_by().values_list("handle", "pk")
    )


def _stored(club: Club, content_hash: str) -> Match | None:
    # Unordered on purpose: at most one row can match (the unique constraint), and an
    # ORDER BY would only cost time on every upload.
    existing = next(
        iter(Match.objects.filter(club=club, content_hash=content_hash).order_by()[:1]), None
    )
    if existing is not None:
        existing.club = club  # the club it was found in: whoever reads match.club asks no query
    return existing


def _duplicate(attempt: _Attempt, existing: Match) -> Match:
    attempt.record(Upload.Status.DUPLICATE, match=existing)
    existing.created = False
    return existing


def _store(
    attempt: _Attempt,
    parsed: ParsedLog,
    replayed: engine.Replay,
    known: dict[str, int],
    missing: list[str],
) -> Match:
    club = attempt.club
    if missing:
        # ignore_conflicts: a concurrent upload may create the same handle; both then read it.
        # A handle first seen in a bot seat is that bot's (pages call it "strong bot").
        bots_by_handle = {entry["player"]: entry_bot(entry) for entry in parsed.document["seats"]}
        Player.objects.bulk_create(
            [
                Player(
                    club=club,
                    handle=handle,
                    bot=bots_by_handle.get(handle, ""),
                    guest=handle in attempt.guests,
                )
                for handle in missing
            ],
            ignore_conflicts=True,
        )
        known.update(_player_ids(club, missing))
        if guests := [handle for handle in missing if handle in attempt.guests]:
            record_guests(
                attempt.uploaded_by if getattr(attempt.uploaded_by, "pk", None) else None,
                club,
                guests,
            )
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
        # A live table stores its game the moment it ends (live.services).
        ended_at_table=timezone.now() if attempt.source == Upload.Source.LIVE else None,
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
    # In the club's match list, and rated once committed (ladder.handlers; EL-1.2).
    publish(
        events.matches_stored,
        club_id=club.pk,
        match_ids=[match.pk],
        finished_ids=[match.pk] if finished else [],
        auto_analysis=club.auto_analysis,
    )
    return match
