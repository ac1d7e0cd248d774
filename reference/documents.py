"""The rules reference: ``docs/rules/*.md`` read, indexed by rule id and rendered as HTML.

One source: the Markdown files the repository holds are what the site shows (and what a
contributor reads on disk). A rule is a heading or a list item whose text starts with its
id (``- CUL-3.4 **Shuffle**: ...``, ``### CUL-3.1 Sensor phase``); that element gets the
id as its HTML ``id``, so ``/rules/cryptid-urban-legends/#CUL-3.4`` lands on it, and the id
itself becomes a link to that anchor. Ids named in running text ("CUL-3.8 applies") link to
their rule too, in whichever document it is.

Markdown is rendered with markdown-it-py (CommonMark, maintained, already a dependency of
the tooling): its token stream lets the anchors be added to the elements a rule starts,
which a regex over HTML could not do reliably. Raw HTML in a document is escaped, not
passed through.

Languages: ``docs/rules/<document>.md`` is the English text. A translation is
``<document>.<lang>.md`` beside it, with the same ids (and so the same anchors);
:func:`source_path` picks it when it exists and falls back to English otherwise. A heading
that is not a rule takes its anchor from its English text; a translation writes that
anchor at the end of its heading (``## Mister X のアクション {#mister-x-actions}``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from django.utils import translation
from django.utils.translation import gettext
from markdown_it import MarkdownIt
from markdown_it.token import Token

from engine import RULE_ID, all_games

DOCS_DIR = Path(__file__).resolve().parents[1] / "docs" / "rules"
DEFAULT_LANGUAGE = "en"


@dataclass(frozen=True)
class DocumentInfo:
    slug: str  #: file name without ``.md``; the page's URL part; for a game, its engine id
    kind: str  #: ``game``, ``format`` or ``ratings``


#: The documents that belong to no game (``engine.core.errors.FORMAT_DOCUMENTS``).
OTHER_DOCUMENTS = (DocumentInfo("log-format", "format"), DocumentInfo("ratings", "ratings"))


def documents() -> tuple[DocumentInfo, ...]:
    """Every document: one per game the engine knows (in its order) that has its rules
    written (``docs/rules/<game id>.md``), then the log format and the ratings."""
    games = tuple(
        DocumentInfo(game.id, "game")
        for game in all_games().values()
        if (DOCS_DIR / f"{game.id}.md").is_file()
    )
    return games + OTHER_DOCUMENTS


def info(slug: str) -> DocumentInfo | None:
    return next((d for d in documents() if d.slug == slug), None)


#: A rule id at the start of a heading or list item, followed by a space or the end.
_LEADING_ID = re.compile(rf"^({RULE_ID.pattern})(?=\s|$)")
#: A rule id anywhere in running text (not inside another word).
ID_IN_TEXT = re.compile(rf"(?<![\w-])({RULE_ID.pattern})(?![\w-])")
_MD_LINK = re.compile(r"^([a-z0-9-]+)\.md(#.*)?$")


def source_path(slug: str, language: str = DEFAULT_LANGUAGE) -> Path:
    """The file to show for ``slug`` in ``language``: its translation when there is one."""
    if language != DEFAULT_LANGUAGE:
        translated = DOCS_DIR / f"{slug}.{language}.md"
        if translated.is_file():
            return translated
    return DOCS_DIR / f"{slug}.md"


def languages(slug: str) -> list[str]:
    """The languages ``slug`` can be read in, English first."""
    found = sorted(p.name.split(".")[-2] for p in DOCS_DIR.glob(f"{slug}.*.md"))
    return [DEFAULT_LANGUAGE, *found]


def _markdown() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False}).enable("table")


def heading_slug(text: str) -> str:
    """``Cloak & Dagger actions`` -> ``cloak-dagger-actions``: the anchor of a heading
    that is not a rule."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


#: ``## Mister X のアクション {#mister-x-actions}``: a heading's own anchor, written at its end.
_ANCHOR_MARK = re.compile(r"\s*\{#([a-z0-9-]+)\}\s*$")


def _explicit_anchor(inline: Token) -> str | None:
    """The anchor a heading names itself (and the mark taken out of its text), or None.
    A translation names the English heading's anchor this way, so a link such as
    ``log-format.md#mister-x-actions`` lands on the same section in every language."""
    found = _ANCHOR_MARK.search(inline.content)
    last = inline.children[-1] if inline.children else None
    if (
        found is None
        or last is None
        or last.type != "text"
        or not _ANCHOR_MARK.search(last.content)
    ):
        return None
    inline.content = inline.content[: found.start()]
    last.content = _ANCHOR_MARK.sub("", last.content)
    return found.group(1)


@dataclass
class Rule:
    id: str
    document: str
    text: str  #: the element's text, Markdown marks removed (for titles and tests)


@dataclass(eq=False)  # hashed by identity: the rendered page is cached per parsed document
class Document:
    info: DocumentInfo
    language: str
    title: str
    tokens: list[Token]
    summary: str = ""  #: the paragraph right under the title: one line for the index page
    rules: dict[str, Rule] = field(default_factory=dict)  #: by id, in document order
    sections: list[tuple[str, str, int]] = field(default_factory=list)  #: (anchor, text, level)

    @property
    def rule_count(self) -> int:
        """Rules with no sub-rules: CUL-3.4 counts, its section CUL-3 does not."""
        return sum(
            not any(other.startswith(rule + ".") for other in self.rules) for rule in self.rules
        )


def _inline_after(tokens: list[Token], index: int) -> Token | None:
    """The inline token that holds the text of the block opened at ``index``."""
    for token in tokens[index + 1 :]:
        if token.type == "inline":
            return token
        if token.type.endswith("_close"):
            return None
    return None


def _plain(inline: Token) -> str:
    """The text of an inline token without its Markdown marks."""
    parts = []
    for child in inline.children or []:
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
    return "".join(parts)


def parse(slug: str, language: str = DEFAULT_LANGUAGE) -> Document:
    """Read one document and find its rules and headings (no rendering yet)."""
    text = source_path(slug, language).read_text(encoding="utf-8")
    tokens = _markdown().parse(text)
    about = info(slug)
    if about is None:
        raise KeyError(f"no document {slug!r}")
    document = Document(about, language, slug, tokens)
    for index, token in enumerate(tokens):
        if (
            token.type == "paragraph_open"
            and token.level == 0
            and not document.summary
            and index >= 3
        ):
            lead = _inline_after(tokens, index)
            document.summary = _plain(lead) if lead is not None else ""
        if token.type not in ("heading_open", "list_item_open"):
            continue
        inline = _inline_after(tokens, index)
        if inline is None:
            continue
        leading = _LEADING_ID.match(inline.content)
        if token.type == "heading_open" and token.tag == "h1":
            document.title = _plain(inline)
            continue
        if leading:
            rule_id = leading.group(1)
            if rule_id in document.rules:
                raise ValueError(f"{slug}: rule {rule_id} is written twice")
            document.rules[rule_id] = Rule(rule_id, slug, _plain(inline))
            token.attrSet("id", rule_id)
            token.attrJoin("class", "rule")
            token.meta["rule"] = rule_id
        elif token.type == "heading_open":
            token.attrSet("id", _explicit_anchor(inline) or heading_slug(_plain(inline)))
        if token.type == "heading_open" and token.tag in ("h2", "h3"):
            document.sections.append((token.attrGet("id") or "", _plain(inline), int(token.tag[1])))
    return document


def _text(content: str) -> Token:
    token = Token("text", "", 0)
    token.content = content
    return token


def _link(href: str, text: str, css: str, title: str = "") -> list[Token]:
    opening = Token("link_open", "a", 1)
    opening.attrSet("href", href)
    opening.attrSet("class", css)
    if title:
        opening.attrSet("title", title)
    return [opening, _text(text), Token("link_close", "a", -1)]


def _link_ids(
    children: list[Token], url_of: Callable[[str], str | None], title_of: Callable[[str], str]
) -> list[Token]:
    """Text children with every known rule id in them turned into a link to its rule."""
    out: list[Token] = []
    in_link = 0
    for child in children:
        if child.type == "link_open":
            in_link += 1
        elif child.type == "link_close":
            in_link -= 1
        if child.type != "text" or in_link:
            out.append(child)
            continue
        last = 0
        for found in ID_IN_TEXT.finditer(child.content):
            url = url_of(found.group(1))
            if url is None:
                continue
            if found.start() > last:
                out.append(_text(child.content[last : found.start()]))
            out.extend(_link(url, found.group(1), "rule-ref", title_of(found.group(1))))
            last = found.end()
        if last == 0:
            out.append(child)
        elif last < len(child.content):
            out.append(_text(child.content[last:]))
    return out


def render(
    document: Document, url_of: Callable[[str], str | None], page_of: Callable[[str], str]
) -> str:
    """The document as HTML. ``url_of(rule_id)``: where a rule's text is (None: unknown id,
    left as text); ``page_of(slug)``: the page of another document (``log-format.md`` links)."""
    tokens = document.tokens  # shared by every render: an inline token is copied before it changes
    rules_here = document.rules
    with translation.override(document.language):
        link_title = gettext("Link to this rule")

    def title_of(rule_id: str) -> str:
        rule = rules_here.get(rule_id) or all_rules().get(rule_id)
        return rule.text[:160] if rule else ""

    out: list[Token] = []
    for index, token in enumerate(tokens):
        if token.type == "inline" and token.children is not None:
            inline = _copy(token)
            opener = tokens[index - 1] if index else None
            if opener is not None and opener.type == "paragraph_open":
                opener = tokens[index - 2] if index >= 2 else None
            rule_id = opener.meta.get("rule") if opener is not None else None
            children = [_rewrite_link(c, page_of) for c in inline.children or []]
            if (
                rule_id
                and children
                and children[0].type == "text"
                and children[0].content.startswith(rule_id)
            ):
                rest = _text(children[0].content[len(rule_id) :])
                children = [
                    *_link(f"#{rule_id}", rule_id, "rule-id", link_title),
                    rest,
                    *_link_ids(children[1:], url_of, title_of),
                ]
            else:
                children = _link_ids(children, url_of, title_of)
            inline.children = children
            out.append(inline)
        else:
            out.append(token)
    markdown = _markdown()
    return markdown.renderer.render(out, markdown.options, {})


def _copy(token: Token) -> Token:
    clone = Token(token.type, token.tag, token.nesting)
    for name in ("attrs", "map", "level", "content", "markup", "info", "block", "hidden"):
        setattr(clone, name, getattr(token, name))
    clone.meta = dict(token.meta)
    clone.children = list(token.children) if token.children is not None else None
    return clone


def _rewrite_link(child: Token, page_of: Callable[[str], str]) -> Token:
    """``mister-x.md#mister-x-actions`` -> the site's page of that document."""
    if child.type != "link_open":
        return child
    href = child.attrGet("href") or ""
    found = _MD_LINK.match(href)
    if not found or info(found.group(1)) is None:
        return child
    clone = _copy(child)
    clone.attrs = dict(child.attrs)
    clone.attrSet("href", page_of(found.group(1)) + (found.group(2) or ""))
    return clone


@cache
def document(slug: str, language: str = DEFAULT_LANGUAGE) -> Document:
    """The parsed document (cached: the files change only with a new release)."""
    return parse(slug, language)


@cache
def all_rules() -> dict[str, Rule]:
    """Every rule of the reference (English), by id."""
    rules: dict[str, Rule] = {}
    for about in documents():
        for rule_id, rule in document(about.slug).rules.items():
            if rule_id in rules:
                raise ValueError(
                    f"rule {rule_id} is written in {rules[rule_id].document} and {about.slug}"
                )
            rules[rule_id] = rule
    return rules
