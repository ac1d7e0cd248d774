"""A Japanese heading on a phone wraps between phrases, never inside a word: the upload
page's 「…に対局をアップロード」 at 390 px broke アップ|ロード (text without spaces breaks at
any letter unless told otherwise)."""

from __future__ import annotations

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


@pytest.mark.parametrize(
    ("path", "word"),
    [("/clubs/riverside/upload/", "アップロード"), ("/clubs/riverside/imports/", "一括インポート")],
)
def test_a_japanese_heading_keeps_its_words_whole_on_a_phone(
    chromium, live_server, settings, screenshot, path, word
):
    settings.DEBUG = True  # the demo accounts exist only then
    demo.seed_demo_clubs()
    demo.seed_demo_people()
    context = chromium.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        sign_in(page, live_server.url, "ja")
        page.goto(f"{live_server.url}{path}?lang=ja")
        heading = page.locator("main h1")
        assert heading.evaluate("e => e.getClientRects().length") == 1
        assert heading.evaluate("e => e.offsetHeight") > 50  # it does wrap at 390 px
        assert page.evaluate(WORD_LINES, [heading.element_handle(), word]) == 1
        screenshot(page, f"phrases-{path.strip('/').replace('/', '-')}-ja-390")
    finally:
        context.close()
