"""A sentence said to a person in their language, whenever and by whomever it is read.

An error a service raises (``config.errors.AppError``) or an upload's stored rejection is
read later, in the reader's language, not the writer's: so it is kept as what to say —
the engine's messages (an ``IllegalAction``'s place and refusal), or a site msgid with its
parameters — and said when read. ``Sentence.text()`` says it in the active language
(``LanguageMiddleware`` activates the reader's); ``as_json`` / ``from_json`` keep it in a
database row.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils import translation

from engine import DEFAULT_LOCALE, Message, locales, render


def engine_locale(language: str | None = None) -> str:
    """The engine's locale for a Django language code (``ja``, ``ru``, ``en-us`` -> ``en``)."""
    code = (language or translation.get_language() or DEFAULT_LOCALE).split("-")[0].lower()
    return code if code in locales() else DEFAULT_LOCALE


def say(message: Message | str, language: str | None = None) -> str:
    """One engine message in ``language`` (the active language by default)."""
    return render(message, engine_locale(language))


def _said(value: Any, language: str | None) -> Any:
    if isinstance(value, dict) and "id" in value:
        return say(value, language)
    if isinstance(value, dict) and isinstance(value.get("msgid"), str):
        return translation.gettext(value["msgid"])
    return value


@dataclass(frozen=True)
class Sentence:
    """What to say: ``engine`` messages joined by ": " (an engine refusal: where, then why),
    or a site ``msgid`` (marked with ``gettext_noop`` where it is written) with its
    ``params`` (plain values, or engine messages such as a game's title, or site words as
    ``{"msgid": ...}``, said in the reader's language too), or ``plain`` text that is the same in
    every language."""

    engine: tuple[Message, ...] = ()
    msgid: str = ""
    params: dict[str, Any] = field(default_factory=dict)
    plain: str = ""

    @classmethod
    def site(cls, msgid: str, **params: Any) -> Sentence:
        return cls(msgid=msgid, params=params)

    @classmethod
    def of_engine(cls, *messages: Message) -> Sentence:
        return cls(engine=tuple(messages))

    def text(self, language: str | None = None) -> str:
        """The sentence in ``language`` (the active language by default)."""
        if self.engine:
            return ": ".join(say(message, language) for message in self.engine)
        if self.msgid:
            with translation.override(language or translation.get_language()):
                translated = translation.gettext(self.msgid)
                # A value that is an engine message (a game's title) or a site word of its own
                # ({"msgid": ...}, marked with gettext_noop) is said in the same language.
                values = {name: _said(value, language) for name, value in self.params.items()}
            return translated % values if self.params else translated
        return self.plain

    def english(self) -> str:
        return self.text("en")

    def as_json(self) -> dict[str, Any]:
        if self.engine:
            return {"engine": list(self.engine)}
        if self.msgid:
            return {"msgid": self.msgid, "params": self.params}
        return {"plain": self.plain}

    @classmethod
    def from_json(cls, data: Any, fallback: str = "") -> Sentence:
        """The sentence a row kept; ``fallback`` (the row's English text) when it kept none."""
        if isinstance(data, dict):
            if isinstance(data.get("engine"), list):
                return cls(engine=tuple(data["engine"]))
            if isinstance(data.get("msgid"), str):
                return cls(msgid=data["msgid"], params=dict(data.get("params") or {}))
        return cls(plain=fallback)

    def __str__(self) -> str:
        return self.text()
