"""Sentences the engine says, as message ids with parameters, and the catalogs that
turn them into text.

A :data:`Message` is ``{"id": "mx.move.hidden", "params": {...}}``. The engine builds
messages (what was done, as a viewer may know it); :func:`render` turns one into text
in a language. Keeping the two apart lets a page, the API or a test hold the sentence
without its words, and lets a translation add words without touching a game.

Catalogs: every ``locale/<lang>.json`` under the engine package (``engine/core/locale``
for shared words, ``engine/games/<game>/locale`` for each game) maps ids to templates.
A language is the merge of its files; an id missing from it falls back to English.
A template is text with ``{name}`` placeholders (``{{`` for a brace), or, when it
depends on a number, an object of plural forms keyed by the CLDR category
(``one``/``few``/``many``/``other``) chosen by the ``count`` parameter.

A parameter is a plain value (text or a number, written as is), a message (rendered
first, in the same language), or a list of those (rendered and joined as a list:
``red, white and black``, by the ``list.*`` templates of the language).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

Message = dict[str, Any]
#: Words for a person: a message, or text that is the same in every language (a field
#: path such as ``setup.racks['det1']``, a notation such as ``scientist play split``).
Text = Message | str

DEFAULT_LOCALE = "en"

ENGINE_DIR = Path(__file__).resolve().parent.parent


def msg(message_id: str, **params: Any) -> Message:
    """The message ``message_id`` with ``params``."""
    return {"id": message_id, "params": params}


# --- plural categories (CLDR rules for integers) ------------------------------------------
def _plural_en(n: int) -> str:
    return "one" if n == 1 else "other"


def _plural_ja(n: int) -> str:
    return "other"


def _plural_ru(n: int) -> str:
    if n % 10 == 1 and n % 100 != 11:
        return "one"
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return "few"
    return "many"


#: The plural rule of each language a catalog may be written in; a language not here
#: uses the English rule, and a template without the chosen category uses ``other``.
PLURAL_RULES: dict[str, Callable[[int], str]] = {
    "en": _plural_en,
    "ja": _plural_ja,
    "ru": _plural_ru,
}


# --- catalogs ------------------------------------------------------------------------------
def catalog_files(locale: str) -> list[Path]:
    """Every catalog file of ``locale`` in the engine, shared words first."""
    return sorted(
        ENGINE_DIR.glob(f"**/locale/{locale}.json"),
        key=lambda p: (p.parent.parent.name != "core", str(p)),
    )


@functools.cache
def catalog(locale: str) -> dict[str, Any]:
    """The templates of ``locale`` (its own files only, no fallback), by id."""
    merged: dict[str, Any] = {}
    for path in catalog_files(locale):
        entries = json.loads(path.read_text(encoding="utf-8"))
        for key in entries:
            if key in merged:
                raise ValueError(f"message id {key!r} is defined twice for {locale!r} ({path})")
        merged.update(entries)
    return merged


@functools.cache
def locales() -> tuple[str, ...]:
    """The languages the engine has a catalog for (read once: every city a sentence names
    asks for them)."""
    return tuple(sorted({path.stem for path in ENGINE_DIR.glob("**/locale/*.json")}))


def _template(message_id: str, locale: str) -> Any:
    for language in (locale, DEFAULT_LOCALE):
        found = catalog(language).get(message_id)
        if found is not None:
            return found
    return None


def render(message: Message | str | int, locale: str = DEFAULT_LOCALE) -> str:
    """``message`` as text in ``locale`` (English where that language has no template).
    An id no catalog knows renders as the id itself, so a gap shows instead of failing."""
    if not isinstance(message, dict):
        return str(message)
    params = message.get("params") or {}
    template = _template(message["id"], locale)
    if template is None:
        return message["id"]
    if isinstance(template, dict):
        rule = PLURAL_RULES.get(locale, _plural_en)
        forms = template
        template = (
            forms.get(rule(int(params.get("count", 0))))
            or forms.get("other")
            or next(iter(forms.values()))
        )
    words = {name: _param(value, locale) for name, value in params.items()}
    return template.format_map(words)


def _param(value: Any, locale: str) -> str:
    if isinstance(value, list):
        return join_list([_param(item, locale) for item in value], locale)
    return render(value, locale)


def join_list(items: list[str], locale: str = DEFAULT_LOCALE) -> str:
    """``a``, ``a and b``, ``a, b and c``: by the language's ``list.pair`` (two items),
    ``list.start`` (every item but the last) and ``list.end`` (the last) templates."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    if len(items) == 2:
        return render(msg("list.pair", a=items[0], b=items[1]), locale)
    head = items[0]
    for item in items[1:-1]:
        head = render(msg("list.start", a=head, b=item), locale)
    return render(msg("list.end", a=head, b=items[-1]), locale)


def localized_name(english: str, names: dict[str, str]) -> Message:
    """A proper name (a board's city) in every language the engine speaks: ``core.name``,
    whose template in each language is that language's own parameter (``{ja}``), so a
    name without a translation is said as its English form."""
    return msg("core.name", **{language: names.get(language, english) for language in locales()})


def message_ids(message: Message) -> set[str]:
    """Every id in ``message`` and its nested parameters (tests: each has a template)."""
    found = {message["id"]}
    for value in (message.get("params") or {}).values():
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, dict):
                found |= message_ids(item)
    return found
