"""The font check of the browser tests (tests/fonts.py) holds whichever Japanese font the
machine has, and finds the boxes when it has none: a Chromium is started seeing only the
Latin and Cyrillic fonts plus one installed Japanese font (each in turn: Noto Sans CJK,
IPAGothic, ...), then none, through a fontconfig file of its own (FONTCONFIG_FILE), so
the machine's fonts are left as they are."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.fonts import check_script_drawn

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PAGE = "/rules/cryptid-urban-legends/?lang=ja"
TEXT = ".reference-body h2, .reference-body li"


def font_folders(pattern: str) -> set[Path]:
    """The folders of the installed fonts that match a fontconfig ``pattern``."""
    if not shutil.which("fc-list"):
        return set()
    out = subprocess.run(
        ["fc-list", "--format", "%{file}\n", pattern], capture_output=True, text=True, check=True
    ).stdout
    return {Path(line).parent for line in out.splitlines() if line}


JAPANESE = font_folders(":lang=ja")
LATIN_AND_CYRILLIC = font_folders(":lang=ru") - JAPANESE


@pytest.fixture
def browser_seeing(chromium: Any, tmp_path: Path) -> Iterator[Any]:
    """``open(folders)``: a page of a Chromium that sees only the fonts in ``folders``,
    and the environment it runs in (for fontconfig's answers about those fonts)."""
    started: list[Any] = []

    def open_page(folders: set[Path]) -> tuple[Any, dict[str, str]]:
        conf = tmp_path / f"fonts-{len(started)}.conf"
        conf.write_text(
            "<?xml version='1.0'?>\n<fontconfig>\n"
            + "".join(f"  <dir>{folder}</dir>\n" for folder in sorted(folders))
            + f"  <cachedir>{tmp_path / 'cache'}</cachedir>\n</fontconfig>\n"
        )
        env = {**os.environ, "FONTCONFIG_FILE": str(conf)}
        browser = chromium.browser_type.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, env=env
        )
        started.append(browser)
        return browser.new_page(viewport={"width": 1400, "height": 900}), env

    yield open_page
    for browser in started:
        browser.close()


@pytest.mark.parametrize("folder", sorted(JAPANESE), ids=lambda folder: folder.name)
def test_japanese_drawn_by_whichever_installed_font_has_it(live_server, browser_seeing, folder):
    page, env = browser_seeing(LATIN_AND_CYRILLIC | {folder})
    page.goto(live_server.url + PAGE)
    fonts = check_script_drawn(page, TEXT, "ja", at_least=500, env=env)
    seen = subprocess.run(
        ["fc-list", "--format", "%{family}\n"], capture_output=True, text=True, check=True, env=env
    ).stdout
    assert all(any(family in line.split(",") for line in seen.splitlines()) for family in fonts)


def test_without_a_japanese_font_the_check_finds_the_boxes(live_server, browser_seeing):
    assert LATIN_AND_CYRILLIC, "no Latin or Cyrillic font (scripts/check_system.sh)"
    page, env = browser_seeing(LATIN_AND_CYRILLIC)
    page.goto(live_server.url + PAGE)
    with pytest.raises(AssertionError, match="drawn as boxes"):
        check_script_drawn(page, TEXT, "ja", at_least=500, env=env)
