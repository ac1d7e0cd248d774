"""The Japanese and Russian catalogs are complete and cannot drift from the code.

- every string the code marks is in the committed catalogs (``makemessages`` on a copy of
  the project adds no msgid), so a marked string cannot ship untranslated, and every entry
  of the catalogs is still marked, so ``make messages`` drops no translation;
- no entry of ja or ru is empty or fuzzy, and a translation keeps its placeholders;
- the committed ``.mo`` files are the ``.po`` files compiled (``make run`` uses them on a
  machine without gettext), so they cannot say something else;
- Russian has three plural forms.

``makemessages`` needs GNU gettext (xgettext): without it that test is skipped with the
reason, and fails under CI (LANTERN_REQUIRE_SERVICES=1), whose .ci/run installs gettext.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import polib
import pytest

from config.catalogs import (
    DOMAINS,
    LANGUAGES,
    PLURAL_FORMS,
    ROOT,
    catalog_path,
    gettext_available,
    make_messages,
)
from tests.conftest import skip_or_fail

CATALOGS = [
    catalog_path(ROOT, language, domain)
    for language in LANGUAGES
    for domain in DOMAINS
    if catalog_path(ROOT, language, domain).exists()
]

# %(name)s, %s, %d and {name}: what Python, Django's blocktranslate and the JS catalog's
# interpolate() fill in. A translation may reorder them, never lose or invent one.
_PLACEHOLDER = re.compile(r"%\([A-Za-z_][A-Za-z0-9_]*\)[sdfi]|%[sdfi]|\{[A-Za-z_][A-Za-z0-9_]*\}")


def _key(entry: polib.POEntry) -> tuple[str | None, str, str]:
    return (entry.msgctxt, entry.msgid, entry.msgid_plural or "")


def _entries(path: Path) -> list[polib.POEntry]:
    return [entry for entry in polib.pofile(str(path)) if not entry.obsolete]


def test_both_languages_have_the_site_catalog():
    for language in LANGUAGES:
        assert catalog_path(ROOT, language, "django").exists(), language


@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_entry_is_empty_or_fuzzy(path: Path):
    catalog = polib.pofile(str(path))
    assert not catalog.metadata_is_fuzzy, "the header is marked fuzzy"
    fuzzy = [entry.msgid for entry in _entries(path) if "fuzzy" in entry.flags]
    assert fuzzy == [], f"fuzzy entries (check and translate them, then drop the flag): {fuzzy}"
    empty = [
        entry.msgid
        for entry in _entries(path)
        if not (entry.msgstr if not entry.msgid_plural else all(entry.msgstr_plural.values()))
    ]
    assert empty == [], f"untranslated entries: {empty}"


@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: str(p.relative_to(ROOT)))
def test_translations_keep_their_placeholders(path: Path):
    wrong = []
    for entry in _entries(path):
        wanted = sorted(set(_PLACEHOLDER.findall(entry.msgid_plural or entry.msgid)))
        translations = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
        for text in translations:
            found = sorted(set(_PLACEHOLDER.findall(text)))
            # A plural form for exactly one thing may say "one" in words rather than %(count)s.
            if found != wanted and not (entry.msgid_plural and set(found) < set(wanted)):
                wrong.append((entry.msgid, text, wanted, found))
    assert wrong == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_plural_rule_is_the_languages(language: str):
    for domain in DOMAINS:
        path = catalog_path(ROOT, language, domain)
        if path.exists():
            catalog = polib.pofile(str(path))
            assert catalog.metadata["Plural-Forms"] == PLURAL_FORMS[language]
            assert catalog.metadata["Language"] == language
    assert PLURAL_FORMS["ru"].startswith("nplurals=3;")


@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_committed_mo_is_the_po_compiled(path: Path, tmp_path: Path):
    compiled = tmp_path / "compiled.mo"
    polib.pofile(str(path)).save_as_mofile(str(compiled))
    committed = path.with_suffix(".mo")
    assert committed.exists(), f"{committed} is missing: run `make messages`"
    assert committed.read_bytes() == compiled.read_bytes(), (
        f"{committed.relative_to(ROOT)} is not {path.name} compiled: run `make messages`"
    )


def _project_copy(destination: Path) -> Path:
    """The project as ``make messages`` sees it, without what it never reads (tests,
    benchmarks, docs, the virtualenv, databases, collected static files)."""
    skipped = {
        ".git",
        ".venv",
        "tests",
        "bench",
        "docs",
        "staticfiles",
        "var",
        "node_modules",
        "__pycache__",
        ".mypy_cache",
        ".ruff_cache",
        ".pytest_cache",
    }

    def ignore(folder: str, names: list[str]) -> set[str]:
        return {
            name
            for name in names
            if name in skipped or name.startswith("db.sqlite3") or name.endswith((".pyc", ".log"))
        }

    shutil.copytree(ROOT, destination, ignore=ignore, symlinks=True)
    return destination


def test_every_marked_string_is_in_the_catalogs(tmp_path: Path):
    if not gettext_available():
        skip_or_fail("GNU gettext (xgettext, msgmerge) is not installed: apt-get install gettext")
    copy = _project_copy(tmp_path / "project")
    make_messages(copy)
    new, lost = {}, {}
    for language in LANGUAGES:
        for domain in DOMAINS:
            made = catalog_path(copy, language, domain)
            if not made.exists():
                continue
            committed_path = catalog_path(ROOT, language, domain)
            committed = (
                {_key(e) for e in _entries(committed_path)} if committed_path.exists() else set()
            )
            extracted = {_key(e) for e in _entries(made)}
            if missing := sorted(extracted - committed, key=str):
                new[f"{language}/{domain}"] = missing
            # A translated entry the code no longer marks: `make messages` would drop it (a
            # sentence built to be said later whose marking xgettext does not read, say).
            if unmarked := sorted(committed - extracted, key=str):
                lost[f"{language}/{domain}"] = unmarked
    assert new == {}, (
        "strings marked in the code but missing from the committed catalogs (run "
        f"`make messages` and translate them): {new}"
    )
    assert lost == {}, (
        "entries of the committed catalogs that the code no longer marks (`make messages` "
        f"would drop them; config.catalogs.KEYWORDS names the marking calls besides gettext's): "
        f"{lost}"
    )


def test_russian_says_partiya_for_a_game_as_the_glossary_does():
    """docs/glossary.md: a game stored on Lantern (a match) is «партия» in Russian, as a
    game is; «матч» appears nowhere a Russian reader reads: the site's catalogs, the
    engine's, the rules."""
    assert "партия (never «матч»)" in (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    texts = {
        str(path.relative_to(ROOT)): "\n".join(
            [e.msgstr for e in _entries(path)]
            + [f for e in _entries(path) for f in e.msgstr_plural.values()]
        )
        for path in CATALOGS
        if "/ru/" in str(path)
    }
    texts |= {
        str(path.relative_to(ROOT)): path.read_text(encoding="utf-8")
        for path in [
            *(ROOT / "engine").glob("**/locale/ru.json"),
            *(ROOT / "docs" / "rules").glob("*.ru.md"),
        ]
    }
    said = [name for name, text in texts.items() if re.search(r"матч", text, re.IGNORECASE)]
    assert said == [], said
