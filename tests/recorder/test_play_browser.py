"""The recording screen in headless Chromium beyond a whole game: a bot in a seat, two
tabs on one draft, a phone's width and the keyboard."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games.models import Match
from tests.recorder.recording import (
    BOTS,
    EASY_BOT,
    MEDIUM_BOT,
    choose_at_random,
    choose_game,
    choose_seat,
    moves,
    ply,
    sign_in,
    start_recording,
    wait_ready,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BY_LANTERN = "dealt by Lantern (needed to play against a bot)"
AT_THE_TABLE = "dealt at the table: I enter what came out"


def record_any(page: Any, rng: random.Random) -> dict[str, Any]:
    """Enter some legal action: at every question a seeded choice among the offered values.
    A pick (Cloak & Dagger: opening an envelope) is saved at once, and then the action
    inside it is chosen."""
    before = ply(page)
    for _ in range(60):
        wait_ready(page)
        confirm = page.locator("#rec-entry .rec-confirm")
        if confirm.count():
            action = json.loads(confirm.get_attribute("data-action"))
            chance_next = confirm.inner_text().startswith("Next:")
            version = page.eval_on_selector("#recorder", "e => Number(e.dataset.version)")
            confirm.click()
            if action["type"] == "open":
                page.wait_for_function(
                    f"Number(document.querySelector('#recorder').dataset.version) > {version}"
                )
                continue
            if not chance_next:
                page.wait_for_function(
                    f"Number(document.querySelector('#recorder').dataset.ply) > {before}"
                )
                wait_ready(page)
                return action
            continue
        choose_at_random(page, rng)
    raise AssertionError("no action could be entered")


def cloak_draft(page: Any, live_server: Any, club: Any, p2: str, chance: str) -> None:
    choose_game(page, live_server, club, "Cloak & Dagger", chance, players=2)
    choose_seat(page, "p1", "alice")
    choose_seat(page, "p2", p2)
    start_recording(page)


def test_the_bots_moves_follow_yours(signed_in, live_server, club, screenshot):
    page = signed_in
    cloak_draft(page, live_server, club, MEDIUM_BOT, BY_LANTERN)
    # Against a bot the page shows what the human's seat may see: p1's check sheet.
    assert page.locator("#rec-board g.envelope[data-seen]").count() == 20
    rng = random.Random(11)
    for turn in range(1, 4):
        action = record_any(page, rng)
        assert action["seat"] == "p1"
        # p1 acted, and the greedy bot answered at once for p2: two moves per turn.
        assert ply(page) == 2 * turn
        bots = page.eval_on_selector_all(
            "#rec-moves .move[data-ply]", "els => els.map(e => String(!!e.closest('.move-by-bot')))"
        )
        assert bots == ["false", "true"] * turn
        assert moves(page)[-1].startswith("p2 ")
    # Every answer is drawn as p1 sees it, the ones after a write too: no envelope's
    # contents, no bot's hand.
    assert page.locator("#rec-board g.envelope[data-contents]").count() == 0
    assert page.locator('#rec-board [data-hand="p2"]').count() == 0
    screenshot(page, "bot-game")
    # Against a bot a move once made stays made: no undo to look and take back.
    assert page.locator("#rec-undo").is_hidden()
    # Stopped early, the game is stored as an unfinished match with the bot in its seat.
    page.get_by_role("button", name="Stop recording…").click()
    page.get_by_role("button", name="Stop here and store as an unfinished match").click()
    page.wait_for_selector('[data-link="match"]')
    match = Match.objects.get()
    assert match.status == Match.Status.UNFINISHED
    seats = match.log.document["seats"]
    assert seats[1]["seat"] == "p2" and seats[1]["bot"] == "greedy"
    assert len(match.log.document["actions"]) == 6


def test_two_tabs_cannot_fork_a_draft(signed_in, live_server, club, screenshot):
    first = signed_in
    cloak_draft(first, live_server, club, "bob", AT_THE_TABLE)
    second = first.context.new_page()
    second.goto(first.url)
    wait_ready(second)
    rng = random.Random(5)
    record_any(first, rng)
    assert ply(first) == 1
    # The second tab still shows the game before that action; its write is refused.
    assert ply(second) == 0
    second.locator("#rec-entry button.rec-choice").first.click()
    second.locator("#rec-entry .rec-confirm").click()
    alert = second.get_by_role("alert")
    alert.wait_for()
    assert "changed in another tab" in alert.inner_text()
    assert second.locator("#rec-entry-box button:not([disabled])").count() == 0
    assert second.get_by_role("button", name="Undo last action").is_disabled()
    screenshot(second, "two-tabs-refused")
    # Nothing forked: the draft holds the first tab's action only, which a reload shows.
    second.get_by_role("button", name="Reload").click()
    wait_ready(second)
    assert ply(second) == 1 and moves(second) == moves(first)
    second.close()


def test_phone_width_and_keyboard(signed_in, live_server, club, screenshot):
    page = signed_in
    page.set_viewport_size({"width": 375, "height": 740})
    cloak_draft(page, live_server, club, "bob", AT_THE_TABLE)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    for control in page.locator("#rec-entry button.rec-choice").all()[:5]:
        box = control.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 375 and box["height"] >= 40
    board = page.locator("#rec-board svg").first.bounding_box()
    assert board["x"] >= 0 and board["x"] + board["width"] <= 375
    screenshot(page, "phone")
    # Keyboard only: each choice moves the focus on to the next question, then to the
    # button that records the action; Esc takes a choice back, "u" the recorded action.
    page.locator("#rec-entry button.rec-choice").first.focus()
    page.keyboard.press("Enter")
    wait_ready(page)
    assert page.locator("#rec-entry .rec-step").count() == 1
    # Esc takes that choice back; the first question is asked again, focused.
    page.keyboard.press("Escape")
    wait_ready(page)
    assert page.locator("#rec-entry .rec-step").count() == 0
    assert page.evaluate("document.activeElement.classList.contains('rec-choice')")
    for _ in range(5):
        if page.evaluate("document.activeElement.classList.contains('rec-confirm')"):
            break
        page.keyboard.press("Enter")
        wait_ready(page)
    assert page.evaluate("document.activeElement.classList.contains('rec-confirm')")
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelector('#recorder').dataset.ply === '1'")
    wait_ready(page)
    page.keyboard.press("u")
    page.wait_for_function("document.querySelector('#recorder').dataset.ply === '0'")


@pytest.mark.parametrize(
    ("game", "players", "seats"),
    [
        ("Mister X", 3, {"mrx": MEDIUM_BOT, "det1": "alice", "det2": "bob"}),
        ("Mister X", 2, {"mrx": "alice", "det1": EASY_BOT}),
        ("Cryptid: Urban Legends", None, {"cryptid": EASY_BOT, "scientist": "alice"}),
    ],
)
def test_every_game_can_be_played_against_a_bot(
    signed_in, live_server, club, game, players, seats, screenshot
):
    page = signed_in
    choose_game(page, live_server, club, game, BY_LANTERN, players=players)
    for seat, who in seats.items():
        choose_seat(page, seat, who)
    start_recording(page)
    humans = {seat for seat, who in seats.items() if who not in BOTS}
    rng = random.Random(3)
    for _ in range(6):
        if page.get_attribute("#recorder", "data-status") != "recording":
            break
        before = ply(page)
        action = record_any(page, rng)
        assert action["seat"] in humans
        recorded = page.eval_on_selector_all(
            "#rec-moves .move[data-ply]", "els => els.map(e => String(!!e.closest('.move-by-bot')))"
        )
        # The human's action, then whatever the bots answered, all saved.
        assert recorded[before] == "false" and len(recorded) == ply(page)
    if "mrx" not in humans and "mrx" in seats:
        # The detectives, playing together against Mister X, see what their team sees:
        # never where he is (the bot's moves in the list are redacted too).
        assert page.locator("#rec-board .mx-x").count() == 0
        assert page.locator("#rec-board .mx-path").count() == 0
    screenshot(page, f"bot-{game.split(':')[0].replace(' ', '-').lower()}-{players}")


def test_a_member_plays_against_a_bot_from_the_home_page(
    signed_in, live_server, club, people, screenshot
):
    page = signed_in
    page.goto(live_server.url)
    with page.expect_navigation(wait_until="load"):
        page.get_by_role("link", name=club.name).first.click()
    with page.expect_navigation(wait_until="load"):
        page.get_by_role("link", name="Play against a bot").click()
    # Lantern deals (a bot needs it), chosen already; the game is the person's to pick.
    assert page.get_by_label(BY_LANTERN).is_checked()
    assert page.locator(".errorlist").count() == 0
    page.get_by_label("Game").select_option(label="Cryptid: Urban Legends")
    with page.expect_navigation(wait_until="load"):
        page.get_by_role("button", name="Continue").click()
    # The person in the first seat (mia: a member with no handle yet, picked by name),
    # the medium bot in the other; either can be changed.
    first, second = (
        page.locator(f'select[name="seat.{seat}"]') for seat in ("cryptid", "scientist")
    )
    assert first.input_value() == f"member:{people['member'].pk}"
    assert second.evaluate("e => e.selectedOptions[0].textContent") == MEDIUM_BOT
    screenshot(page, "play-against-a-bot-setup")
    start_recording(page)
    assert page.get_attribute("#recorder", "data-status") == "recording"
    header = page.locator("#recorder").inner_text()
    assert "medium bot" in header and "bot-greedy" not in header
    screenshot(page, "play-against-a-bot")


def test_a_discarded_draft_stores_nothing_and_leaves_the_club_page(signed_in, live_server, club):
    page = signed_in
    cloak_draft(page, live_server, club, "bob", AT_THE_TABLE)
    record_any(page, random.Random(1))
    page.get_by_role("button", name="Stop recording…").click()
    # "Keep recording" backs out; nothing changed.
    page.get_by_role("button", name="Keep recording").click()
    assert page.get_by_role("button", name="Stop recording…").is_visible()
    page.get_by_role("button", name="Stop recording…").click()
    page.get_by_role("button", name="Discard this draft (store nothing)").click()
    page.wait_for_selector('#recorder[data-status="abandoned"]')
    assert "nothing was stored" in page.inner_text("#rec-done")
    assert not page.locator("#rec-entry-box").is_visible()
    assert not Match.objects.exists()
    page.goto(f"{live_server.url}/clubs/{club.slug}/")
    assert page.get_by_role("link", name="Record a game").is_visible()
    assert page.get_by_role("link", name="Resume", exact=False).count() == 0


def test_another_member_follows_without_controls(signed_in, live_server, club, people, chromium):
    page = signed_in
    cloak_draft(page, live_server, club, "bob", AT_THE_TABLE)
    record_any(page, random.Random(2))
    # Max, a member who did not start this draft, may watch it but not enter actions.
    context = chromium.new_context()
    follower = context.new_page()
    sign_in(follower, live_server, people["other"])
    follower.goto(page.url)
    wait_ready(follower)
    # Seated nowhere, they see what is announced to all: p1 dropped, not where.
    assert ply(follower) == 1 and moves(follower) == ["p1 drop ?"] != moves(page)
    assert "announced to all" in follower.inner_text(".rec-head")
    assert "You are following this game" in follower.inner_text("#rec-readonly")
    assert not follower.locator("#rec-entry-box").is_visible()
    assert follower.get_by_role("button", name="Undo last action").count() == 0
    assert not follower.get_by_role("button", name="Stop recording…").is_visible()
    context.close()


def test_a_seat_against_a_bot_opens_an_envelope_before_it_chooses(
    signed_in, live_server, club, screenshot
):
    page = signed_in
    cloak_draft(page, live_server, club, MEDIUM_BOT, BY_LANTERN)
    record_any(page, random.Random(3))  # p1's first turn: the drop of its spy pair
    wait_ready(page)
    page.locator("#rec-entry button.rec-choice", has_text="7").first.click()
    confirm = page.locator("#rec-entry .rec-confirm")
    assert json.loads(confirm.get_attribute("data-action"))["type"] == "open"
    version = page.eval_on_selector("#recorder", "e => Number(e.dataset.version)")
    confirm.click()
    page.wait_for_function(
        f"Number(document.querySelector('#recorder').dataset.version) > {version}"
    )
    wait_ready(page)
    assert page.locator('[data-opened="7"]').is_visible()
    choices = page.locator("#rec-entry").inner_text()
    assert "open" not in choices.lower() or "7" in choices
    screenshot(page, "bot-game-opened")
