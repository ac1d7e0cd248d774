"""In a real browser: from a rejected upload, one click lands on the text of the rule it
broke; the reference pages read at desktop and phone widths."""

from __future__ import annotations

import json

import pytest

from clubs.models import Club, Membership, Player
from games.models import Upload
from games.services import LogRejected, ingest_log
from tests.examples import load_example
from tests.fonts import check_script_drawn
from tests.recorder.recording import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TARGET = "document.querySelector(':target')"


@pytest.fixture
def rejected_upload(django_user_model) -> tuple[Upload, object]:
    club = Club.objects.create(name="Riverside Deduction Society", slug="riverside")
    user = django_user_model.objects.create_user("mia")
    Membership.objects.create(user=user, club=club, role="member")
    for handle in ("alice", "bob"):
        Player.objects.create(club=club, handle=handle)
    with pytest.raises(LogRejected):
        ingest_log(club, json.dumps(load_example("cryptid-illegal-draw.json")), user)
    return Upload.objects.get(), user


@pytest.mark.parametrize("width, height", [(1400, 900), (390, 844)])
def test_one_click_from_a_rejected_upload_lands_on_the_rule(
    chromium, live_server, rejected_upload, screenshot, width, height
):
    upload, user = rejected_upload
    context = chromium.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    sign_in(page, live_server, user)
    page.goto(f"{live_server.url}/uploads/{upload.pk}/")
    assert (
        page.evaluate("document.documentElement.scrollWidth") <= width
    )  # the board scrolls in its box
    screenshot(page, f"upload-rejected-{width}")
    page.click(".rejection a.rule-link")
    page.wait_for_url(f"{live_server.url}/rules/cryptid-urban-legends/#CUL-3.7")
    # The rule the link named is the page's target, its text is there, and it is on screen.
    assert page.evaluate(f"{TARGET}.id") == "CUL-3.7"
    text = page.inner_text(":target")
    assert text.startswith("CUL-3.7 Draw") and "1 when the hand holds 3" in text
    box = page.evaluate(
        f"(() => {{ const r = {TARGET}.getBoundingClientRect(); return [r.top, r.bottom]; }})()"
    )
    assert 0 <= box[0] < height, box
    # nothing on the page is wider than the screen
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(
        path=str(
            screenshot(page, f"rule-target-{width}").with_name(f"rule-target-{width}-viewport.png")
        )
    )
    context.close()
    assert not errors, errors


@pytest.mark.parametrize("width, height", [(1400, 900), (390, 844)])
@pytest.mark.parametrize(
    "path",
    [
        "/rules/",
        "/rules/mister-x/",
        "/rules/cloak-and-dagger/",
        "/rules/log-format/",
        "/rules/ratings/",
    ],
)
def test_the_reference_pages_fit_the_screen(chromium, live_server, screenshot, path, width, height):
    context = chromium.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(f"{live_server.url}{path}")
    assert page.evaluate("document.documentElement.scrollWidth") <= width, path
    name = path.strip("/").replace("/", "-") or "rules"
    screenshot(page, f"{name}-{width}")
    context.close()


@pytest.mark.parametrize("width, height", [(1400, 900), (390, 844)])
@pytest.mark.parametrize("language", ["ja", "ru"])
def test_the_translated_reference_fits_the_screen_in_fonts_that_have_its_script(
    chromium, live_server, screenshot, language, width, height
):
    context = chromium.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(f"{live_server.url}/rules/cryptid-urban-legends/?lang={language}#CUL-3.7")
    assert page.evaluate(f"{TARGET}.id") == "CUL-3.7"
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    # Every kana, kanji or Cyrillic letter drawn by a font that has it, whichever font.
    check_script_drawn(page, ".reference-body h2, .reference-body li", language, at_least=500)
    screenshot(page, f"cryptid-urban-legends-{language}-{width}")
    context.close()
