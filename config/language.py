"""The reader's language for what the engine says (sentences, refusals, phase and seat
names): the engine's catalogs name their languages as settings.LANGUAGES does (``en``,
``ja``, ``ru``), so the active Django language is passed to ``engine.core.messages.render``
and ``IllegalAction.text`` as it is."""

from __future__ import annotations

from django.utils.translation import get_language

from engine.core.messages import DEFAULT_LOCALE


def reader_locale() -> str:
    """The language of this request (the language middleware activated it), English
    outside a request."""
    return get_language() or DEFAULT_LOCALE
