"""Where the site shows a rule's text: every rule id the site prints goes through here."""

from __future__ import annotations

from engine import rule_document, rule_path
from reference.documents import all_rules


def rule_url(rule: str | None) -> str | None:
    """``/rules/cryptid-urban-legends/#CUL-3.7`` when the reference holds ``rule``'s text,
    else None (the id is then shown as plain text; a test fails for any id the engine or
    the site can cite that has no text)."""
    if not rule:
        return None
    known = all_rules().get(rule)
    if known is None or known.document != rule_document(rule):
        return None
    return rule_path(rule)
