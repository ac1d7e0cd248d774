"""The recorder's refusals: each a ``config.errors.AppError`` whose code says which kind."""

from __future__ import annotations

from typing import Any

from config.errors import AppError


class DraftError(AppError):
    """A refused request (``config.errors.AppError``; its code says which kind)."""

    code = "malformed"

    def __init__(
        self, message: str, *, rule: str | None = None, index: int | None = None, **details: Any
    ):
        super().__init__(message, rule=rule, index=index, details=details)


class DraftInvalid(DraftError):
    """A malformed request."""


class DraftIllegal(DraftError):
    """The engine (or the recorder's seat rules) refused it (with the rule id)."""

    code = "illegal"


class UnknownPlayers(DraftError):
    code = "unknown_players"


class StaleDraft(DraftError):
    """The draft changed since the version the client sent."""

    code = "stale"


class ClosedDraft(DraftError):
    """The draft is finished or abandoned."""

    code = "closed"


class NothingToUndo(DraftError):
    code = "nothing_to_undo"
