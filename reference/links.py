"""Where the site shows a rule's text: every rule id the site prints goes through here."""

from __future__ import annotations

from django.utils import translation

from engine import rule_document, rule_path
from reference.documents import DEFAULT_LANGUAGE, all_rules, document, languages


def _reader_language(slug: str) -> str:
    """The active language (the reader's), when ``slug`` is written in it; else English."""
    wanted = (translation.get_language() or DEFAULT_LANGUAGE).split("-")[0]
    return wanted if wanted in languages(slug) else DEFAULT_LANGUAGE


def rule_url(rule: str | None) -> str | None:
    """``/rules/cryptid-urban-legends/#CUL-3.7`` when the reference holds ``rule``'s text,
    else None (the id is then shown as plain text; a test fails for any id the engine or
    the site can cite that has no text). For a reader of another language the rule's
    translation: ``/rules/cryptid-urban-legends/?lang=ja#CUL-3.7``."""
    if not rule:
        return None
    known = all_rules().get(rule)
    if known is None or known.document != rule_document(rule):
        return None
    path = rule_path(rule)
    language = _reader_language(known.document)
    if path is None or language == DEFAULT_LANGUAGE:
        return path
    page, anchor = path.split("#", 1)
    return f"{page}?lang={language}#{anchor}"


def rule_text(rule: str) -> str:
    """The rule's text in the reader's language (English when it is not translated)."""
    english = all_rules()[rule]
    language = _reader_language(english.document)
    if language != DEFAULT_LANGUAGE:
        translated = document(english.document, language).rules.get(rule)
        if translated is not None:
            return translated.text
    return english.text
