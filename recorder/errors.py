"""The recorder's refusals: each a ``config.errors.AppError`` whose code says which kind."""

from __future__ import annotations

from config.errors import Refusal


class DraftError(Refusal):
    """A refused request about a draft (``config.errors.Refusal``; its code says which kind)."""


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
