"""The site's translation catalogs (``locale/<lang>/LC_MESSAGES/{django,djangojs}.po``):
one place that says how they are made, so ``make messages`` and the catalog tests
(tests/i18n/) look at the same files.

``python -m config.catalogs`` brings both catalogs of every language up to date with the
marked strings (Django's ``makemessages``, which needs GNU gettext) and compiles them;
the compiled ``.mo`` files are committed, so the site speaks Japanese and Russian on a
machine without gettext.

The engine's sentences are not here: it ships its own catalogs (engine/core/locale,
engine/games/*/locale), since it never imports Django.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("ja", "ru")
DOMAINS = ("django", "djangojs")
# Not the site's strings: the engine's own catalogs, tests, benchmarks, copies of static
# files, the virtualenv.
IGNORED = (
    "engine/*",
    "tests/*",
    "bench/*",
    "docs/*",
    "staticfiles/*",
    "var/*",
    ".venv/*",
    "scripts/*",
)
#: Besides Django's gettext family, the calls that mark a msgid where a sentence is built to
#: be said later, in its reader's language (the engine's Message whose id is the site's
#: msgid: ``tournaments.pairing.explanations``): ``sentence(msgid, ...)`` and
#: ``Counted(singular, plural)``. xgettext reads them as it reads ``gettext_noop``.
KEYWORDS = ("sentence:1", "Counted:1,2")
# A Russian plural has three forms (1 партия, 2 партии, 5 партий); the header says so.
PLURAL_FORMS = {
    "ja": "nplurals=1; plural=0;",
    "ru": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && "
    "(n%100<10 || n%100>=20) ? 1 : 2);",
}


def catalog_path(root: Path, language: str, domain: str) -> Path:
    return root / "locale" / language / "LC_MESSAGES" / f"{domain}.po"


def gettext_available() -> bool:
    return all(shutil.which(tool) for tool in ("xgettext", "msgmerge", "msguniq", "msgattrib"))


def make_messages(root: Path = ROOT, domains: tuple[str, ...] = DOMAINS) -> None:
    """Runs ``makemessages`` for ja and ru in ``root`` (a checkout, or a copy of one)."""
    for domain in domains:
        command = [
            sys.executable,
            "-m",
            "config.catalogs",
            "makemessages",
            "--no-obsolete",
            "--no-location",
            "-d",
            domain,
            *(f"--ignore={pattern}" for pattern in IGNORED),
        ]
        for language in LANGUAGES:
            command += ["-l", language]
        subprocess.run(command, cwd=root, check=True, capture_output=True, text=True)
        for language in LANGUAGES:
            fix_header(catalog_path(root, language, domain), language)


def fix_header(path: Path, language: str) -> None:
    """The header makemessages writes for a new catalog, made true: the language, the
    plural rule above, not fuzzy."""
    import polib

    if not path.exists():
        return
    catalog = polib.pofile(str(path), wrapwidth=0)
    catalog.metadata.update(
        {
            "Project-Id-Version": "Lantern",
            "Language": language,
            "Plural-Forms": PLURAL_FORMS[language],
            "Language-Team": {"ja": "Japanese", "ru": "Russian"}[language],
        }
    )
    catalog.metadata.pop("POT-Creation-Date", None)
    catalog.header = "Lantern's catalog: the site's strings in this language (config/catalogs.py)."
    catalog.metadata_is_fuzzy = False
    catalog.save()


def compile_messages(root: Path = ROOT) -> None:
    """Every ``.po`` compiled to the ``.mo`` beside it (``polib``: no gettext needed)."""
    import polib

    for path in sorted((root / "locale").glob("*/LC_MESSAGES/*.po")):
        polib.pofile(str(path)).save_as_mofile(str(path.with_suffix(".mo")))


def makemessages(arguments: list[str]) -> None:
    """Django's ``makemessages`` with :data:`KEYWORDS` given to xgettext too."""
    import os

    import django
    from django.core.management import call_command
    from django.core.management.commands import makemessages as django_makemessages

    class Command(django_makemessages.Command):
        xgettext_options = [
            *django_makemessages.Command.xgettext_options,
            *(f"--keyword={keyword}" for keyword in KEYWORDS),
        ]

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    call_command(Command(), *arguments)


if __name__ == "__main__":
    if sys.argv[1:2] == ["makemessages"]:  # one step of make_messages, in the checkout it runs in
        makemessages(sys.argv[2:])
    else:
        make_messages()
        compile_messages()
