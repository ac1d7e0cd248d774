"""``{{ upload.error_rule|rule_link }}``: a rule id as a link to its text in the reference."""

from __future__ import annotations

import re

from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe

from reference.documents import ID_IN_TEXT as _ID_IN_TEXT
from reference.links import rule_text, rule_url

register = template.Library()


@register.filter
def rule_link(rule: str | None) -> str:
    """``<a class="rule-link" href="/rules/…/#CUL-3.7"><code>CUL-3.7</code></a>``; an id the
    reference does not hold stays plain ``<code>``; nothing for no id."""
    if not rule:
        return ""
    url = rule_url(rule)
    if url is None:
        return format_html("<code>{}</code>", rule)
    return format_html(
        '<a class="rule-link" href="{}" title="{}"><code>{}</code></a>', url, rule_title(rule), rule
    )


def rule_title(rule: str) -> str:
    """A link's tooltip: the start of the rule's text, so a hover reads the rule."""
    text = rule_text(rule)
    return text if len(text) <= 160 else text[:159].rsplit(" ", 1)[0] + "…"


@register.filter
def link_rule_ids(text: str | None) -> str:
    """Plain text (escaped) with every rule id in it that the reference holds made a link:
    for sentences that name a rule ("... not 120 (MX-1.3)")."""
    if not text:
        return ""

    def link(found: re.Match[str]) -> str:
        return rule_link(found.group(1)) if rule_url(found.group(1)) else found.group(0)

    return mark_safe(_ID_IN_TEXT.sub(link, conditional_escape(text)))  # noqa: S308
