"""In a real browser, in Japanese and Russian: the home page, a club page and a rejected
upload whose rule link lands on the rule in the reader's language; at desktop and phone
widths, with no English left on the page (but names), no glyph drawn as a tofu box, and
nothing wider than the screen."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from accounts.models import AccountSettings
from clubs.models import Club, Membership, Player
from games.models import Upload
from games.services import LogRejected, ingest_log
from tests.examples import load_example
from tests.fonts import check_script_drawn
from tests.recorder.recording import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = [(1400, 900), (390, 844)]
# Names, not words: the site's, the club's and players', the games' titles, formats.
NAMES = {
    "Lantern",
    "API",
    "Riverside",
    "Deduction",
    "Society",
    "alice",
    "bob",
    "mia",
    "Cryptid",
    "Urban",
    "Legends",
    "Mister",
    "Cloak",
    "Dagger",
    "JSON",
    "Schema",
    "Lines",
    "English",
    "zip",
    "sha",
    "ReDoc",
    "UTC",
}
_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


@pytest.fixture
def club_with_games(django_user_model) -> dict[str, Any]:
    club = Club.objects.create(name="Riverside Deduction Society", slug="riverside")
    user = django_user_model.objects.create_user("mia")
    Membership.objects.create(user=user, club=club, role="member")
    for handle in ("alice", "bob"):
        Player.objects.create(club=club, handle=handle)
    ingest_log(club, json.dumps(load_example("cryptid-escape.json")), user)
    with pytest.raises(LogRejected):
        ingest_log(club, json.dumps(load_example("cryptid-illegal-draw.json")), user)
    return {"club": club, "user": user, "upload": Upload.objects.get(status="rejected")}


def english_left(page: Any, allowed: frozenset[str] = frozenset()) -> list[str]:
    """Latin words a person reads on the page (not in code, not a name or a rule id)."""
    text = page.evaluate("""() => {
        const copy = document.body.cloneNode(true);
        copy.querySelectorAll("code, pre, script, style, .lang-switch, select")
            .forEach(n => n.remove());
        return copy.innerText;
    }""")
    text = re.sub(r"\b[A-Z]{2,4}-\d+(?:\.\d+)*\b", " ", text)
    return sorted({word for word in _LATIN_WORD.findall(text) if word not in NAMES | allowed})


def check_page(page: Any, language: str, width: int, allowed: frozenset[str] = frozenset()) -> None:
    assert page.evaluate("document.documentElement.lang") == language
    assert english_left(page, allowed) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    # Every kana, kanji or Cyrillic letter drawn by a font that has it, whichever font.
    check_script_drawn(
        page, "main h1, main h2, main p, main td, main a, header a", language, at_least=20
    )


@pytest.mark.parametrize("width, height", SIZES)
@pytest.mark.parametrize("language", ["ja", "ru"])
def test_home_and_club_pages_in_the_readers_language(
    chromium, live_server, club_with_games, screenshot, language, width, height
):
    context = chromium.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live_server.url}/?lang={language}")
    check_page(page, language, width)
    screenshot(page, f"home-{language}-{width}")
    # A link followed from a ?lang= page keeps the language.
    page.click("a.club-name[href^='/clubs/riverside/']")
    page.wait_for_url(re.compile(rf".*/clubs/riverside/\?lang={language}$"))
    check_page(page, language, width)
    screenshot(page, f"club-{language}-{width}")
    context.close()
    assert not errors, errors


@pytest.mark.parametrize("width, height", SIZES)
@pytest.mark.parametrize("language", ["ja", "ru"])
def test_an_upload_rejection_links_to_the_rule_in_the_readers_language(
    chromium, live_server, club_with_games, screenshot, language, width, height
):
    AccountSettings.objects.create(user=club_with_games["user"], language=language)
    context = chromium.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    sign_in(page, live_server, club_with_games["user"])
    page.goto(f"{live_server.url}/uploads/{club_with_games['upload'].pk}/")
    page.wait_for_selector('#walk-board[data-ready="true"]')
    # Every word in the reader's language: the refusal names the action and the field it
    # refuses in words (issue 35, item 4), not the log's "cryptid draw" and 'cards'.
    check_page(page, language, width)
    sentence = page.inner_text(".rejection p.plain")
    assert (
        "アクション 14（クリプティッド" if language == "ja" else "ействие 14 (Криптид"
    ) in sentence, sentence
    assert "cryptid" not in sentence and "cards" not in sentence, sentence
    # The position drawn as the replay draws it, its panels in the reader's words; the
    # engine's text of it only when asked for, folded away.
    board = page.locator("#walk-board")
    assert board.locator("svg").count() >= 1
    panels = board.inner_text()
    assert ("手札" if language == "ja" else "Колода") in panels, panels
    assert not page.is_visible("pre.board")
    # The walk through the valid part says each move, no notation beside it.
    walk = page.inner_text(".actions-list")
    assert "play" not in walk and "draw" not in walk, walk
    screenshot(page, f"upload-rejected-{language}-{width}")
    page.click(".stepper a >> nth=1")  # back one step: the board follows
    page.wait_for_selector('#walk-board[data-ready="true"][data-ply="13"]')
    page.click(".rejection a.rule-link")
    page.wait_for_url(f"{live_server.url}/rules/cryptid-urban-legends/?lang={language}#CUL-3.7")
    assert page.evaluate("document.querySelector(':target').id") == "CUL-3.7"
    assert page.evaluate("document.querySelector('.reference-body').lang") == language
    context.close()
