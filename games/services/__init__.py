"""Writes of the matches app, a module per verb (HackSoft's services, Zulip's ``actions/``):

- :mod:`~games.services.storable`: the size and shape a log must have to be stored (JSON safety);
- :mod:`~games.services.ingest`: one log in, :func:`ingest_log` (an upload, a form, a
  recorded game, a tournament result), and the size check every way in asks first;
- :mod:`~games.services.imports`: bulk imports, run in batches by a worker;
- :mod:`~games.services.revalidation`: stored logs replayed with the current engine;
- :mod:`~games.services.oversight`: an organiser voids and restores a match, an operator
  reads an upload.

Callers import from here; the names below are the public ones.
"""

from games.services.imports import (
    IMPORT_BATCH,
    MAX_IMPORT_ATTEMPTS,
    ImportRefused,
    accept_import_size,
    bundle_limits,
    create_import,
    max_import_file_bytes,
    requeue_queued_imports,
    run_import,
)
from games.services.ingest import (
    ImportBatch,
    PlayedAtRefused,
    accept_log_size,
    has_bot_seat,
    ingest_log,
    played_at_of,
    read_log_file,
    reject_too_large,
)
from games.services.oversight import note_upload_read, restore_match, void_match
from games.services.revalidation import Revalidation, RevalidationReport, revalidate_matches
from games.services.storable import (
    MAX_LOG_BYTES,
    MAX_LOG_DEPTH,
    LogRejected,
    max_log_bytes,
    storable_text,
)

__all__ = [
    "IMPORT_BATCH",
    "MAX_IMPORT_ATTEMPTS",
    "MAX_LOG_BYTES",
    "MAX_LOG_DEPTH",
    "ImportBatch",
    "ImportRefused",
    "LogRejected",
    "PlayedAtRefused",
    "Revalidation",
    "RevalidationReport",
    "accept_import_size",
    "accept_log_size",
    "bundle_limits",
    "create_import",
    "has_bot_seat",
    "ingest_log",
    "max_import_file_bytes",
    "max_log_bytes",
    "note_upload_read",
    "played_at_of",
    "read_log_file",
    "reject_too_large",
    "requeue_queued_imports",
    "restore_match",
    "revalidate_matches",
    "run_import",
    "storable_text",
    "void_match",
]
