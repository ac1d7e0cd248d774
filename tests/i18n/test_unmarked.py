"""No words a person reads are left out of the translation catalogs.

``makemessages`` sees only marked strings; this test finds the unmarked ones:

- templates: each template is cut into Django's tokens (``django.template.base.Lexer``);
  the text outside ``{% translate %}`` / ``{% blocktranslate %}`` is read as HTML, and any
  word in its text or in an attribute a person reads (title, aria-label, placeholder, alt,
  a button's value) fails the test. So do English-only filters (``pluralize``) and words
  given as literals to ``default:`` / ``yesno:`` or to an ``{% include … with %}``.
- JS modules: a string literal or template literal with words, put into the page
  (``textContent``, ``innerText``, ``innerHTML``, ``title``, ``placeholder``,
  ``setAttribute("aria-label"|"title"|…)``, ``alert``/``confirm``, ``createTextNode``)
  without going through ``gettext``.

Allowed: punctuation, numbers, symbols, rule ids (``CUL-3.4``), the contents of
``<code>``/``<pre>``/``<kbd>`` (what a log or a command says, never translated), and the
proper names in ``PROPER_NAMES``.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.template.base import Lexer, TokenType

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"
SCRIPTS = ROOT / "static" / "js"

# Names, not words: the same in every language.
PROPER_NAMES = {
    "Lantern",  # the site's name
    "API",  # the programming interface's name, written so in Japanese and Russian too
    "Elo",  # the rating system's inventor
    "Swagger",  # the API docs' tool
    "GitHub",
    "zip",  # a file format, named so in every language
}

_RULE_ID = re.compile(r"\b[A-Z]{2,4}-\d+(?:\.\d+)*[a-z]?\b")
_WORD = re.compile(r"[^\W_]+")
_DIGIT = re.compile(r"\d")
_PLACEHOLDER = "\x00"
_READ_ATTRIBUTES = {"title", "aria-label", "placeholder", "alt", "aria-description", "data-label"}
_LITERAL_TAGS = {"code", "pre", "kbd", "samp", "script", "style"}


def _words(text: str) -> list[str]:
    text = _RULE_ID.sub(" ", text.replace(_PLACEHOLDER, " "))
    # A token with a digit in it (sha256, p1, 4xx) is a name of a thing, not a word.
    return [
        word for word in _WORD.findall(text) if word not in PROPER_NAMES and not _DIGIT.search(word)
    ]


class _ReadText(HTMLParser):
    """Collects the text a person reads: text nodes outside code, and read attributes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._literal_depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _LITERAL_TAGS:
            self._literal_depth += 1
        values = dict(attrs)
        for name, value in attrs:
            if value and (
                name in _READ_ATTRIBUTES
                or (name == "value" and values.get("type") in {"submit", "button", "reset"})
            ):
                self.found.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in _LITERAL_TAGS and self._literal_depth:
            self._literal_depth -= 1

    def handle_data(self, data: str) -> None:
        if not self._literal_depth:
            self.found.append(data)


_ENGLISH_FILTER = re.compile(r"\|\s*pluralize\b")
_WORDY_FILTER_ARGUMENT = re.compile(
    r"""\|\s*(?:default|yesno|default_if_none)\s*:\s*(["'])(.*?)\1"""
)
_LITERAL = re.compile(r"""(["'])(.*?)\1""")
_HUMAN_LITERAL = re.compile(r"[A-Z][a-z]|[^\W\d_]\s+[^\W\d_]")


def unmarked_in_template(source: str) -> list[str]:
    """The unmarked words of one template's source."""
    problems: list[str] = []
    kept: list[str] = []
    inside: str | None = None  # "blocktranslate" or "comment" while inside one
    for token in Lexer(source).tokenize():
        contents = token.contents.strip()
        command = contents.split(" ", 1)[0] if token.token_type == TokenType.BLOCK else ""
        if inside:
            if command in {f"end{inside}", "endblocktrans"}:
                inside = None
            kept.append(_PLACEHOLDER)
            continue
        if token.token_type == TokenType.TEXT:
            kept.append(token.contents)
            continue
        # A tag ({% if %}) may stand inside an HTML tag (<tr{% if %} class="x"{% endif %}>):
        # a space keeps the HTML readable; a value stands for a word of its own.
        kept.append(_PLACEHOLDER if token.token_type == TokenType.VAR else " ")
        if token.token_type == TokenType.VAR:
            if _ENGLISH_FILTER.search(contents):
                problems.append(
                    f"{{{{ {contents} }}}}: pluralize is English only (blocktranslate count)"
                )
            for _quote, argument in _WORDY_FILTER_ARGUMENT.findall(contents):
                if _words(argument):
                    problems.append(f"{{{{ {contents} }}}}: words in a filter's argument")
        elif token.token_type == TokenType.BLOCK:
            if command in {"blocktranslate", "blocktrans"}:
                inside = "blocktranslate"
            elif command == "comment":
                inside = "comment"
            elif command in {"include", "with", "firstof"}:
                for _quote, literal in _LITERAL.findall(contents):
                    if (
                        _HUMAN_LITERAL.search(literal)
                        and not literal.endswith((".html", ".txt"))
                        and _words(literal)
                    ):
                        problems.append(f"{{% {contents} %}}: words in a literal")
    reader = _ReadText()
    reader.feed("".join(kept))
    reader.close()
    for text in reader.found:
        if _words(text):
            problems.append(" ".join(text.replace(_PLACEHOLDER, "…").split()))
    return problems


def _js_literals(source: str) -> list[tuple[int, str]]:
    """Every string and template literal of a JS module, with where it starts; a template
    literal's ``${…}`` parts are blanked (their own literals are listed too). Comments are
    skipped. A rough scanner (regular-expression literals are read as code), which is
    enough for the site's modules."""
    found: list[tuple[int, str]] = []
    i, n = 0, len(source)
    while i < n:
        c = source[i]
        if source.startswith("//", i):
            i = source.find("\n", i)
            i = n if i < 0 else i
        elif source.startswith("/*", i):
            i = source.find("*/", i + 2)
            i = n if i < 0 else i + 2
        elif c in "'\"":
            j = i + 1
            while j < n and source[j] != c and source[j] != "\n":
                j += 2 if source[j] == "\\" else 1
            found.append((i, source[i + 1 : j]))
            i = j + 1
        elif c == "`":
            j, text = i + 1, []
            while j < n and source[j] != "`":
                if source[j] == "\\":
                    text.append(source[j : j + 2])
                    j += 2
                elif source.startswith("${", j):
                    depth, k = 1, j + 2
                    while k < n and depth:
                        depth += {"{": 1, "}": -1}.get(source[k], 0)
                        k += 1
                    found.extend(
                        (j + 2 + at, inner) for at, inner in _js_literals(source[j + 2 : k - 1])
                    )
                    text.append(" ")
                    j = k
                else:
                    text.append(source[j])
                    j += 1
            found.append((i, "".join(text)))
            i = j + 1
        else:
            i += 1
    return found


# What stands before a literal decides what it is. Never read by a person: the message
# ids of gettext() and its family (those are the marked strings), console and Error
# messages (for developers), imports, selectors, comparisons, keys.
_JS_NOT_SHOWN = re.compile(
    r"""(?:\b(?:n|p|np)?gettext\(\s*(?:(["'`])(?:\\.|(?!\1).)*\1\s*,\s*)?"""
    r"""|\bconsole\.\w+\(\s*|\bnew\s+\w*Error\(\s*|\bfrom\s+|\bimport\s+|\bimport\(\s*"""
    r"""|\bquerySelector(?:All)?\(\s*|\bclosest\(\s*|\bmatches\(\s*|\bclassList\.\w+\(\s*"""
    r"""|[=!]==?\s*|\bcase\s+|\[\s*|\bfetch\(\s*|\bsearchParams\.\w+\(\s*)$"""
)
# Only these properties, attributes and object keys hold text a person reads; any other
# (className, id, href, style, an SVG's d …) holds code.
_JS_SHOWN_NAMES = {
    "textContent",
    "innerText",
    "innerHTML",
    "outerHTML",
    "title",
    "placeholder",
    "ariaLabel",
    "alt",
    "aria-label",
    "aria-description",
    "text",
    "label",
}
_JS_NAMED = re.compile(
    r"""(?:\.(\w+)\s*\+?=|\bsetAttribute\(\s*["']([\w-]+)["']\s*,|(?:^|[{,\s])["']?([\w-]+)["']?\s*:)\s*$"""
)
_JS_SINK_CALL = re.compile(
    r"""\b(?:(?:alert|confirm|prompt|createTextNode)\(|insertAdjacentHTML\(\s*["'][\w-]+["']\s*,)\s*$"""
)
# A class list, a path, a key or a camelCase name: code, not words.
_CODE_LIKE = re.compile(r"^[\sa-z0-9_./:#%=&?-]*$|^[A-Za-z0-9]*[a-z][A-Z][A-Za-z0-9]*$")
_SENTENCE = re.compile(
    r"[^\W\d_]{2,}[\s\u00a0]+[^\W\d_]|[A-Z][a-z]|[^\W\d_][.!?…:]\s*$|[^\x00-\x7f]"
)
_KEY_NAMES = {
    "Enter",
    "Escape",
    "ArrowLeft",
    "ArrowRight",
    "ArrowUp",
    "ArrowDown",
    "Home",
    "End",
    "PageUp",
    "PageDown",
    "Tab",
    "Backspace",
    "Space",
    "Shift",
    "Control",
    "Alt",
    "Meta",
}
_JS_TAG = re.compile(r"<[^>]*>")


def unmarked_in_script(source: str) -> list[str]:
    """The words one JS module puts into the page without gettext: a literal given to a
    property, attribute or key that a person reads, or any sentence-like literal (two
    words, a capital, a closing stop; not a class list or a path) elsewhere, say as a
    child of an element or an argument of a helper that shows it."""
    problems = []
    for start, literal in _js_literals(source):
        before = source[max(0, start - 160) : start]
        if _JS_NOT_SHOWN.search(before):
            continue
        text = _JS_TAG.sub(" ", literal)
        if not _words(text) or text.strip() in _KEY_NAMES:
            continue
        named = _JS_NAMED.search(before)
        if named:
            name = next(group for group in named.groups() if group)
            if name not in _JS_SHOWN_NAMES:
                continue
        elif not _JS_SINK_CALL.search(before) and (
            _CODE_LIKE.match(text) or not _SENTENCE.search(text)
        ):
            continue
        problems.append(" ".join(literal.split())[:100])
    return problems


def _templates() -> list[Path]:
    return sorted(p for p in TEMPLATES.rglob("*") if p.suffix in {".html", ".txt"})


def _scripts() -> list[Path]:
    return sorted(SCRIPTS.rglob("*.js"))


@pytest.mark.parametrize("path", _templates(), ids=lambda p: str(p.relative_to(ROOT)))
def test_template_has_no_unmarked_words(path: Path):
    assert unmarked_in_template(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("path", _scripts(), ids=lambda p: str(p.relative_to(ROOT)))
def test_script_puts_no_unmarked_words_into_the_page(path: Path):
    assert unmarked_in_script(path.read_text(encoding="utf-8")) == []


# The checker itself: what it must catch and what it must let through.


def test_template_checker_finds_unmarked_text_and_attributes():
    assert unmarked_in_template("<p>Hello {{ name }}</p>") == ["Hello …"]
    assert unmarked_in_template('<a href="{% url "x" %}" title="Open it">x</a>') != []
    assert unmarked_in_template('<input type="submit" value="Send">') == ["Send"]
    assert unmarked_in_template("{{ n|pluralize }}") != []
    assert unmarked_in_template('{{ x|default:"None yet" }}') != []
    assert unmarked_in_template('{% include "a.html" with submit="Create account" %}') != []
    assert unmarked_in_template("<p>Открыть</p>") == ["Открыть"]


def test_template_checker_lets_marked_and_literal_text_through():
    assert unmarked_in_template('{% load i18n %}<p>{% translate "Hello" %} {{ name }}</p>') == []
    assert (
        unmarked_in_template(
            "{% blocktranslate count n=n %}one game{% plural %}{{ n }} games{% endblocktranslate %}"
        )
        == []
    )
    assert (
        unmarked_in_template("<code>Authorization: Token &lt;key&gt;</code> (CUL-3.4) Lantern · 12")
        == []
    )
    assert (
        unmarked_in_template(
            "{% comment %}why this is so{% endcomment %}<script>let a = 1;</script>"
        )
        == []
    )
    assert unmarked_in_template('{% include "games/_pager.html" with kind="upload" %}') == []
    assert unmarked_in_template('{{ when|date:"DATE_FORMAT" }}') == []


def test_script_checker_finds_text_put_into_the_page():
    assert unmarked_in_script('el.textContent = "Loading…";') == ["Loading…"]
    assert unmarked_in_script("el.title = `Move ${n}`;") == ["Move"]
    assert unmarked_in_script('button.setAttribute("aria-label", "Next move");') != []
    assert unmarked_in_script('el("th", {}, "Envelope")') == ["Envelope"]
    assert unmarked_in_script('el("button", {class: "zoom", title: "Zoom out"}, "−")') == [
        "Zoom out"
    ]
    assert unmarked_in_script('panel("Ticket board", board)') == ["Ticket board"]
    assert unmarked_in_script('s.textContent = ok ? "Done." : `Analysing ${a} of ${b}`;') == [
        "Done.",
        "Analysing of",
    ]


def test_script_checker_lets_marked_text_and_code_through():
    assert unmarked_in_script('el.textContent = gettext("Loading…");') == []
    assert (
        unmarked_in_script(
            'el.textContent = interpolate(ngettext("one move", "%s moves", n), [n]);'
        )
        == []
    )
    assert unmarked_in_script("el.textContent = `${n} · ${rule}`;") == []
    assert (
        unmarked_in_script('el.className = "Big word"; el("p", {class: "muted rec-empty"})') == []
    )
    assert unmarked_in_script('import { el } from "./dom.js"; if (e.key === "Enter") go();') == []
    assert (
        unmarked_in_script('// Both name the seat ("Anna examines")\nthrow new Error("Bad thing");')
        == []
    )
    assert unmarked_in_script('console.warn("No board for this game");') == []


# --- a translation call inside an f-string: makemessages cannot see it ---------------------
_TRANSLATING = {"gettext", "gettext_lazy", "gettext_noop", "ngettext", "pgettext", "npgettext", "_"}
_APP_DIRS = (
    "accounts",
    "analysis",
    "clubs",
    "config",
    "dashboard",
    "ladder",
    "games",
    "pages",
    "recorder",
    "reference",
    "replay",
    "tournaments",
)


def calls_hidden_in_fstrings(source: str) -> list[int]:
    """Lines where a gettext-family call sits inside an f-string (xgettext does not read
    into f-strings, so its msgid never reaches the catalogs and the page says English)."""
    import ast

    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.JoinedStr):
            for inner in ast.walk(node):
                if (
                    isinstance(inner, ast.Call)
                    and isinstance(inner.func, ast.Name)
                    and inner.func.id in _TRANSLATING
                ):
                    found.append(inner.lineno)
    return found


def test_no_translation_call_hides_in_an_fstring():
    hidden = [
        f"{path.relative_to(ROOT)}:{line}"
        for folder in _APP_DIRS
        for path in sorted((ROOT / folder).rglob("*.py"))
        for line in calls_hidden_in_fstrings(path.read_text(encoding="utf-8"))
    ]
    assert hidden == [], hidden


def test_the_fstring_checker_finds_a_hidden_call():
    assert calls_hidden_in_fstrings("x = f\"<svg aria-label='{escape(gettext('Chart'))}'>\"") == [1]
    assert calls_hidden_in_fstrings('label = gettext("Chart")\nx = f"{label}"') == []
