"""The rules reference in Japanese and Russian (``docs/rules/<document>.<lang>.md``): every
document in both languages, each with exactly the rules and anchors of its English text,
so a refusal's link lands on its rule whichever language the reader chose."""

from __future__ import annotations

import re

import pytest

from reference import documents
from tests.reference.test_pages import page_text

LANGUAGES = ("ja", "ru")
SLUGS = [info.slug for info in documents.documents()]


def _anchors(document: documents.Document) -> list[str]:
    """Every anchor of the document, in order: rules and the other headings."""
    return [
        token.attrGet("id")
        for token in document.tokens
        if token.type in ("heading_open", "list_item_open") and token.attrGet("id")
    ]


@pytest.mark.parametrize("slug", SLUGS)
def test_every_document_is_written_in_japanese_and_russian(slug):
    assert documents.languages(slug) == ["en", *LANGUAGES]
    for language in LANGUAGES:
        assert documents.source_path(slug, language).name == f"{slug}.{language}.md"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slug", SLUGS)
def test_a_translation_has_exactly_the_rule_ids_and_anchors_of_its_english_text(slug, language):
    english, translated = documents.document(slug), documents.document(slug, language)
    assert list(translated.rules) == list(english.rules)
    assert _anchors(translated) == _anchors(english)
    assert translated.summary and translated.summary != english.summary
    for rule_id, rule in translated.rules.items():
        # the rule's own words are translated: not English text under a translated heading
        words = rule.text.replace(rule_id, "", 1).strip()
        assert words and not words.isascii() or re.fullmatch(r"[\W\d_]*", words), (rule_id, words)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_translated_page_keeps_its_links_in_its_language(client, language):
    text = page_text(client, f"/rules/cryptid-urban-legends/?lang={language}")
    assert f'<article class="reference-body" lang="{language}">' in text
    for rule_id in documents.document("cryptid-urban-legends").rules:
        assert f'id="{rule_id}" class="rule"' in text, rule_id
    # a link to another document, and a rule id named in the text, stay in the language
    assert f'href="/rules/log-format/?lang={language}#cryptid-urban-legends-actions"' in text
    assert (
        f'<a href="/rules/cryptid-urban-legends/?lang={language}#CUL-3.8" class="rule-ref"' in text
    )
    log = page_text(client, f"/rules/log-format/?lang={language}")
    assert 'id="mister-x-actions"' in log and 'id="LOG-JSON" class="rule"' in log
    assert "{#" not in log  # the anchor marks of the headings are not shown
    english = page_text(
        client, "/rules/cryptid-urban-legends/?lang=en"
    )  # the visitor read ja/ru just before
    assert 'href="/rules/log-format/#cryptid-urban-legends-actions"' in english
