"""The one way the engine says "no": an :class:`IllegalAction` citing a rule id."""

from __future__ import annotations

from typing import Any


class IllegalAction(Exception):
    """A log (or one action of it) breaks a rule.

    ``index`` is the 0-based action index, or ``None`` for an envelope, setup or
    result error. ``rule`` is the id from the game's rules file (``CUL-3.4``) or,
    for the envelope, a ``LOG-*`` id from :mod:`engine.core.envelope`.
    ``partial`` is the valid prefix (a :class:`~engine.core.replay.Replay`) when
    the setup was valid, so a viewer can show the game up to the error.
    """

    def __init__(self, rule: str, message: str, index: int | None = None):
        super().__init__(message)
        self.rule = rule
        self.message = message
        self.index = index
        self.partial: Any = None
        #: ``scientist play shuffle``: the action stopped at, named as a rejection shows it
        self.action_desc: str | None = None

    def where(self) -> str:
        if self.index is None:
            return "setup"
        return f"action {self.index}" + (f" ({self.action_desc})" if self.action_desc else "")

    def as_dict(self) -> dict[str, Any]:
        return {"index": self.index, "rule": self.rule, "message": self.message}

    def __str__(self) -> str:
        """``action 17 (scientist play shuffle): CUL-3.4: ...``, as the log format shows."""
        return f"{self.where()}: {self.rule}: {self.message}"


def require(condition: bool, rule: str, message: str) -> None:
    """Raise :class:`IllegalAction` with ``rule`` unless ``condition`` holds."""
    if not condition:
        raise IllegalAction(rule, message)
