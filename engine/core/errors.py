"""The one way the engine says "no": an :class:`IllegalAction` citing a rule id."""

from __future__ import annotations

import re
from typing import Any

from engine.core.messages import DEFAULT_LOCALE, Message, Text, msg, render

#: Where the site shows a rule's text: the document of ``docs/rules/`` the id belongs to,
#: then the id as the anchor (``/rules/cryptid-urban-legends/#CUL-3.7``). The engine does
#: not read the documents; the site's reference (``reference.documents``) does, and a test
#: checks that every id the engine can cite has its text there.
RULE_URL_PATH = "/rules/{document}/#{rule}"
#: The documents of the ids that belong to no game: the log format (its ``LOG-*`` ids, the
#: engine's own error, the recorder's own refusals) and the rating maths. A game's ids are
#: in the document named after it (``Game.rule_prefix``, ``Game.id``).
FORMAT_DOCUMENTS = {
    "LOG": "log-format",
    "ENGINE": "log-format",
    "REC": "log-format",
    "LIVE": "log-format",
    "EL": "ratings",
}
#: A rule id: ``CUL-3.7``, ``MX-1.1a``, ``CUL-3``, ``LOG-JSON``, ``ENGINE-ERROR``.
RULE_ID = re.compile(r"(?:[A-Z]{2,6})-(?:\d+(?:\.\d+)?[a-z]?|[A-Z]+)")


def rule_document(rule: str | None) -> str | None:
    """The ``docs/rules/`` document (without ``.md``) holding ``rule``, or None."""
    if not rule or not RULE_ID.fullmatch(rule):
        return None
    prefix = rule.split("-", 1)[0]
    if prefix in FORMAT_DOCUMENTS:
        return FORMAT_DOCUMENTS[prefix]
    from engine.core.registry import all_games  # the registry imports game.py, which imports this

    return next((game.id for game in all_games().values() if game.rule_prefix == prefix), None)


def rule_path(rule: str | None) -> str | None:
    """``/rules/cryptid-urban-legends/#CUL-3.7``: where the site shows ``rule``'s text."""
    document = rule_document(rule)
    return None if document is None else RULE_URL_PATH.format(document=document, rule=rule)


#: Cited when a game's code fails on input it should have rejected. Never expected:
#: the property tests assert it does not occur; it exists so that a bug in one
#: game shows up as a clear rejection rather than a traceback in a web request.
ENGINE_ERROR = "ENGINE-ERROR"


class IllegalAction(Exception):
    """A log (or one action of it) breaks a rule.

    ``index`` is the 0-based action index, or ``None`` for an envelope, setup or
    result error. ``rule`` is the id from the game's rules file (``CUL-3.4``) or,
    for the envelope, a ``LOG-*`` id from :mod:`engine.core.envelope`.
    ``partial`` is the valid prefix (a :class:`~engine.core.replay.Replay`) when
    the setup was valid, so a viewer can show the game up to the error.

    The refusal itself is a message (``msg("mx.refuse.city_neighbour_city", to=58,
    frm=12)``, see :mod:`engine.core.messages`): ``sentence`` keeps it, ``text(locale)``
    says it in a language, and ``message`` is the English text (what logs, tests and the
    API's ``detail`` show). Its parameters are only what the English sentence already said,
    so a refusal in any language tells a seat exactly as much as the English one.
    """

    def __init__(
        self,
        rule: str,
        message: Text,
        index: int | None = None,
        *,
        path: str | None = None,
        field: str | None = None,
    ):
        #: the refusal as a message; a plain string (text from outside the engine) is
        #: kept as a message that says it as is in every language
        self.sentence: Message = (
            _plain(message) if isinstance(message, dict) else msg("core.text", text=message)
        )
        self.message = render(self.sentence, DEFAULT_LOCALE)
        super().__init__(self.message)
        self.rule = rule
        self.index = index
        self.partial: Any = None
        #: the action stopped at, in words (``Game.action_name``: "Scientist: play a movement card")
        self.action_desc: Text | None = None
        #: where in the log the refusal points, as a JSON path (``actions[14].cards``,
        #: ``seats[2].player``): a detail for whoever opens the log, never the sentence
        self.path = path
        #: the field of the action refused (``cards``), which :meth:`at_action` names in
        #: the game's words once the action and its game are known
        self.field = field

    def at_action(self, index: int, field_label: Any = None) -> None:
        """The refusal is of action ``index``: its path, and the field it names said as
        the game calls it (``field_label(field)``: "行き先", not ``'to'``)."""
        self.index = index
        if self.path is None:
            self.path = f"actions[{index}]" + (f".{self.field}" if self.field else "")
        if self.field and field_label is not None and "name" in self.params:
            label = field_label(self.field)
            if label != self.field:
                params = {**self.params, "name": msg("core.field.quoted", name=label)}
                self.sentence = {"id": self.sentence["id"], "params": params}
                self.message = render(self.sentence, DEFAULT_LOCALE)
                self.args = (self.message,)

    @property
    def message_id(self) -> str:
        return str(self.sentence["id"])

    @property
    def params(self) -> dict[str, Any]:
        return dict(self.sentence.get("params") or {})

    def text(self, locale: str = DEFAULT_LOCALE) -> str:
        """The refusal said in ``locale`` (English where that language lacks the id)."""
        return render(self.sentence, locale)

    def where_message(self) -> Message:
        """Where the refusal happened (the setup, or action N), as a message."""
        if self.index is None:
            return {"id": "core.where.setup", "params": {}}
        if self.action_desc:
            return {
                "id": "core.where.action_desc",
                "params": {"index": self.index, "action": self.action_desc},
            }
        return {"id": "core.where.action", "params": {"index": self.index}}

    def where(self, locale: str = DEFAULT_LOCALE) -> str:
        return render(self.where_message(), locale)

    def as_dict(self) -> dict[str, Any]:
        return {"index": self.index, "rule": self.rule, "message": self.message}

    def __str__(self) -> str:
        """``action 17 (scientist play shuffle): CUL-3.4: ...``, as the log format shows."""
        return self.describe()

    def describe(self, locale: str = DEFAULT_LOCALE) -> str:
        """Where, which rule and what, in ``locale``: the one-line form of a refusal."""
        return f"{self.where(locale)}: {self.rule}: {self.text(locale)}"


def _plain(message: Message) -> Message:
    """``message`` with every parameter said as the English f-string would say it: text
    and numbers as they are, nested messages kept, anything else (a list or an object
    from the uploaded log) as ``str()``. A refusal often quotes what it refused, and a
    quoted list must not turn into a sentence's list ("a and b") or a dict into a message."""
    params: dict[str, Any] = {}
    for name, value in (message.get("params") or {}).items():
        if (
            isinstance(value, dict)
            and set(value) == {"id", "params"}
            and isinstance(value["id"], str)
        ):
            params[name] = _plain(value)
        elif isinstance(value, str | int | float) or value is None:
            params[name] = value
        else:
            params[name] = str(value)
    return {"id": message["id"], "params": params}


def require(condition: bool, rule: str, message: Text) -> None:
    """Raise :class:`IllegalAction` with ``rule`` unless ``condition`` holds."""
    if not condition:
        raise IllegalAction(rule, message)
