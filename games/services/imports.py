"""Bulk import: a JSON-lines or zip file of logs, checked, stored, then ingested by a
Celery task in batches that resume after a lost worker."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q, Value
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from clubs.models import Club
from config.errors import AppError
from config.events import publish
from config.queueing import send_task, send_task_on_commit
from config.sentences import Sentence
from games import events
from games.bundles import (
    BundleEntry,
    BundleError,
    BundleLimits,
    BundleTooLarge,
    check_bundle,
    read_bundle,
    skipped_members,
)
from games.models import Import, Match, Upload
from games.services.ingest import ImportBatch, ingest_log, reject_too_large
from games.services.storable import LogRejected, max_log_bytes

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

    def __init__(
        self,
        message: str,
        *,
        size: int,
        limit: int | None = None,
        code: str = Upload.Error.TOO_LARGE,
    ):
        super().__init__(message, code=code)
        self.size = size
        self.limit = limit


def accept_import_size(size: int, *, allowance: int = 0) -> None:
    """Refuse, before reading it, a bulk import file over the limit: ImportRefused
    ``too_large`` (nothing is recorded: no import exists yet)."""
    limit = max_import_file_bytes()
    if size > limit + allowance:
        raise ImportRefused(
            _("at most %(limit)s bytes are accepted") % {"limit": limit}, size=size, limit=limit
        )


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
            _("the file is %(size)s bytes; at most %(limit)s bytes are accepted")
            % {"size": len(data), "limit": limit},
            size=len(data),
            limit=limit,
        )
    try:
        check_bundle(data, bundle_limits())  # a zip's directory only: nothing is inflated
    except BundleTooLarge as exc:
        raise ImportRefused(exc.sentence, size=len(data)) from None
    except BundleError as exc:
        raise ImportRefused(exc.sentence, size=len(data), code=Upload.Error.MALFORMED) from None
    run = Import.objects.create(
        club=club,
        created_by=created_by if getattr(created_by, "pk", None) else None,
        filename=filename[:200],
        size=len(data),
        payload=data,
    )
    if enqueue:
        send_task_on_commit("games.run_import", run.pk)
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
    return Q(status=Import.Status.QUEUED, created_at__lte=now - older_than) | Q(
        status=Import.Status.RUNNING, heartbeat_at__lte=now - IMPORT_STALLED_AFTER
    )


def requeue_queued_imports(*, older_than: timedelta = REQUEUE_IMPORTS_AFTER) -> int:
    """Queue ``run_import`` again for imports still queued ``older_than`` after they were
    stored, and for running ones silent for IMPORT_STALLED_AFTER (their worker died: the
    task resumes them). Stops when the broker is still unreachable; returns how many
    were queued."""
    queued = 0
    stale = Import.objects.filter(_stalled_imports(older_than)).order_by("id")
    for import_id in stale.values_list("id", flat=True):
        if not send_task("games.run_import", import_id):
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
        & (
            Q(status=Import.Status.QUEUED)
            | Q(status=Import.Status.RUNNING, heartbeat_at__lte=now - IMPORT_STALLED_AFTER)
        )
    ).update(
        status=Import.Status.RUNNING,
        started_at=Coalesce("started_at", Value(now)),
        heartbeat_at=now,
        attempts=F("attempts") + 1,
    )
    run = Import.objects.select_related("club", "created_by").get(pk=import_id)
    if not claimed:
        return run
    if run.attempts > MAX_IMPORT_ATTEMPTS:
        _finish(
            run,
            Import.Status.FAILED,
            error=Sentence.site(
                gettext_noop(
                    "the import stopped its worker %(times)s times; what it read before "
                    "that is kept (%(processed)s logs read, %(accepted)s accepted)"
                ),
                times=run.attempts - 1,
                processed=run.processed,
                accepted=run.accepted,
            ),
        )
        return run
    try:
        _run_import(run)
    except BundleError as exc:
        _finish(run, Import.Status.FAILED, error=exc.sentence)
    except Exception as exc:
        # The batch in progress was rolled back: count only what the database kept.
        run.refresh_from_db(fields=["total", "processed", "accepted", "duplicates", "rejected"])
        _finish(
            run,
            Import.Status.FAILED,
            error=Sentence.site(
                gettext_noop("the import stopped on an internal error (%(error)s)"), error=repr(exc)
            ),
        )
        raise
    return run


def _run_import(run: Import) -> None:
    entries = read_bundle(bytes(run.payload), bundle_limits())
    run.total = len(entries)
    run.skipped = [
        {"name": member.name, "reason": member.reason}
        for member in skipped_members(bytes(run.payload))
    ]
    Import.objects.filter(pk=run.pk).update(total=run.total, skipped=run.skipped)
    # A resumed import starts after the last batch it saved (run.processed, committed
    # with that batch's matches).
    for start in range(run.processed, len(entries), IMPORT_BATCH):
        with transaction.atomic():
            batch = ImportBatch()
            stored = [
                _import_entry(run, entry, batch) for entry in entries[start : start + IMPORT_BATCH]
            ]
            batch.write()
            _save_progress(run)
            new = [match for match in stored if match]
            if new:
                # One event for the batch: rated with one task (ladder.handlers).
                publish(
                    events.matches_stored,
                    club_id=run.club_id,
                    batch=True,
                    match_ids=[match.pk for match in new],
                    finished_ids=[m.pk for m in new if m.status == Match.Status.VALID],
                )
    _finish(run, Import.Status.DONE)


def _import_entry(run: Import, entry: BundleEntry, batch: ImportBatch) -> Match | None:
    """Ingest one log of the import and count it; the match if it is new."""
    run.processed += 1
    if entry.too_large:
        reject_too_large(
            run.club,
            entry.size,
            run.created_by,
            source=Upload.Source.IMPORT,
            name=entry.name,
            import_run=run,
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


def _finish(run: Import, status: str, *, error: Sentence | None = None) -> None:
    """Ends ``run``; a failed one keeps why as what to say (``error_sentence``, said in
    each reader's language) and in English (``error``, for logs and search)."""
    run.status = status
    run.error = error.english() if error is not None else ""
    run.error_sentence = error.as_json() if error is not None else {}
    run.finished_at = timezone.now()
    Import.objects.filter(pk=run.pk).update(
        status=status,
        error=run.error,
        error_sentence=run.error_sentence,
        finished_at=run.finished_at,
        total=max(run.total, run.processed),
        processed=run.processed,
        accepted=run.accepted,
        duplicates=run.duplicates,
        rejected=run.rejected,
    )
