"""A Japanese heading on a phone wraps between phrases, never inside a word: the upload
page's 「…に対局をアップロード」 at 390 px broke アップ|ロード (text without spaces breaks at
any letter unless told otherwise). A name that is one token keeps it too: the log format's
name, lantern-log/1, never splits at its hyphen."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from pages import demo
from tests.demo_sign_in import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: How many lines the word ``word`` of the element's text takes.
WORD_LINES = """([e, word]) => {
  const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.textContent.indexOf(word);
    if (at < 0) continue;
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + word.length);
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  }
  return 0;
}"""


@contextmanager
def _signed_in_phone(chromium, live_server, settings, language: str) -> Iterator[Any]:
    """A 390 px page signed in as the demo's organiser, reading ``language``."""
    settings.DEBUG = True  # the demo accounts exist only then
    demo.seed_demo_clubs()
    demo.seed_demo_people()
    context = chromium.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        sign_in(page, live_server.url, language)
        yield page
    finally:
        context.close()


@pytest.mark.parametrize(
    ("path", "word"),
    [("/clubs/riverside/upload/", "アップロード"), ("/clubs/riverside/imports/", "一括インポート")],
)
def test_a_japanese_heading_keeps_its_words_whole_on_a_phone(
    chromium, live_server, settings, screenshot, path, word
):
    with _signed_in_phone(chromium, live_server, settings, "ja") as page:
        page.goto(f"{live_server.url}{path}?lang=ja")
        heading = page.locator("main h1")
        assert heading.evaluate("e => e.getClientRects().length") == 1
        assert heading.evaluate("e => e.offsetHeight") > 50  # it does wrap at 390 px
        assert page.evaluate(WORD_LINES, [heading.element_handle(), word]) == 1
        screenshot(page, f"phrases-{path.strip('/').replace('/', '-')}-ja-390")


@pytest.mark.parametrize("language", ["ru", "ja"])
def test_the_log_formats_name_never_splits_at_its_hyphen(
    chromium, live_server, settings, screenshot, language
):
    """The upload page names its format, lantern-log/1, in the field's label and the
    introduction; in Russian at 390 px the label broke "lantern-" / "log/1"."""
    with _signed_in_phone(chromium, live_server, settings, language) as page:
        for width in (390, 1400):
            page.set_viewport_size({"width": width, "height": 844})
            page.goto(f"{live_server.url}/clubs/riverside/upload/?lang={language}")
            label = page.locator("label[for=id_log]")
            if language == "ru" and width == 390:
                assert label.evaluate("e => e.offsetHeight") > 30  # the label does wrap here
            for where in (label, page.locator("main h1 + p")):
                lines = page.evaluate(WORD_LINES, [where.element_handle(), "lantern-log/1"])
                assert lines == 1, f"{language} at {width} px: lantern-log/1 on {lines} lines"
            # the name keeps its real hyphen: it is found, and copied, as people type it
            assert "lantern-log/1" in label.inner_text()
            screenshot(page, f"phrases-upload-format-{language}-{width}")
