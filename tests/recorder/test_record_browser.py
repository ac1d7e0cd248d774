"""Recording whole games by clicking, in headless Chromium: a Cryptid: Urban Legends game
and a Cloak & Dagger game, each with an undo and a reload in the middle (Cloak & Dagger
also left and resumed from the club page), end as valid matches whose stored actions
are exactly the ones clicked."""

from __future__ import annotations

from typing import Any

import pytest

from engine import get_game
from games.models import Match
from tests.recorder.recording import (
    EASY_BOT,
    MEDIUM_BOT,
    agrees,
    choose_game,
    fill_setup,
    moves,
    ply,
    record,
    scripted_game,
    start_recording,
    wait_ready,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AT_THE_TABLE = "dealt at the table: I enter what came out"


def types(log: dict[str, Any]) -> list[str]:
    return [action["type"] for action in log["actions"]]


def record_whole_game(
    page: Any,
    log: dict[str, Any],
    undo_at: int,
    reload_at: int,
    resume_at: int | None = None,
) -> list[dict[str, Any]]:
    """Enter every action of ``log``; take the one at ``undo_at`` back once and enter it
    again; reload the page before ``reload_at``; before ``resume_at``, leave for the club
    page and come back by its "Resume" link. Returns the actions as clicked."""
    clicked: list[dict[str, Any]] = []
    for index, target in enumerate(log["actions"]):
        if index in (reload_at, resume_at):
            shown = moves(page)
            if index == reload_at:
                page.reload()
            else:
                draft = page.get_attribute("#recorder", "data-draft")
                page.goto(page.url.split("/record/")[0] + "/")
                page.get_by_role("link", name=f"Resume {log_game_name(log)} #{draft}").click()
            wait_ready(page)
            # Every action was saved on the server: the page resumes exactly there.
            assert ply(page) == index
            assert moves(page) == shown
        if index == undo_at:
            shown = moves(page)
            record(page, target)
            assert ply(page) == index + 1
            page.get_by_role("button", name="Undo last action").click()
            page.wait_for_function(f"document.querySelector('#recorder').dataset.ply === '{index}'")
            wait_ready(page)
            assert moves(page) == shown
        clicked.append(record(page, target))
        assert agrees(clicked[-1], target), (clicked[-1], target)
        assert ply(page) == index + 1
    return clicked


def log_game_name(log: dict[str, Any]) -> str:
    return get_game(log["game"]).name


def store_and_check(page: Any, log: dict[str, Any], clicked: list[dict[str, Any]]) -> Match:
    assert page.get_attribute("#recorder", "data-status") == "over"
    page.get_by_role("button", name="Store the match").click()
    page.wait_for_selector('[data-link="match"]')
    match = Match.objects.get()
    assert match.status == Match.Status.VALID
    document = match.log.document
    assert document["actions"] == clicked
    assert document["seed"] is None  # every outcome came from the table
    assert document["result"] == log["result"]
    assert [s["player"] for s in document["seats"]] == ["alice", "bob"]
    # The links lead to the match page and its replay.
    assert page.get_attribute('[data-link="match"]', "href").endswith(f"/matches/{match.pk}/")
    page.click('[data-link="replay"]')
    page.wait_for_selector('#replay[data-ready="true"]')
    return match


def test_record_a_whole_cryptid_game(signed_in, live_server, club, screenshot):
    page = signed_in
    # A game with drawn cards, expansions (blocks drawn) and a relocation, whose
    # thousands of placements the server narrows field by field.
    log = scripted_game(
        "cryptid-urban-legends",
        None,
        lambda log: {"draw", "expand", "relocate"} <= set(types(log)) and len(log["actions"]) <= 40,
    )
    choose_game(page, live_server, club, "Cryptid: Urban Legends", AT_THE_TABLE)
    setup = log["setup"]
    # Said as players say it: which side the 2 red, 2 white, 1 black sensors go; cards by name.
    page.get_by_label("Sensors beside the cryptid row's block").select_option(
        label=f"2 red, 2 white, 1 black on the {setup['sensors_2r2w1b']}"
    )
    hand = page.get_by_role("group", name="Cryptid's hand")
    hand.get_by_label("card 1", exact=True).select_option(
        label=setup["hands"]["cryptid"][0].capitalize()
    )
    fill_setup(page, {"hands": setup["hands"], "first_blocks": setup["first_blocks"]})
    page.get_by_label("Cryptid", exact=True).select_option(label="alice")
    page.get_by_label("Scientist", exact=True).select_option(label="bob")
    screenshot(page, "cryptid-setup")
    start_recording(page)
    screenshot(page, "cryptid-start")
    # The board is the replay viewer's: two rows of blocks.
    assert page.locator("#rec-board svg.cul-board g.cul-block").count() == 3

    relocate = types(log).index("relocate")
    clicked = record_whole_game(page, log, undo_at=types(log).index("draw"), reload_at=relocate)
    screenshot(page, "cryptid-over")
    store_and_check(page, log, clicked)


def test_record_a_whole_cloak_and_dagger_game(signed_in, live_server, club, screenshot):
    page = signed_in
    log = scripted_game("cloak-and-dagger", 2, lambda log: "place" in types(log))
    choose_game(page, live_server, club, "Cloak & Dagger", AT_THE_TABLE, players=2)
    page.get_by_label("Player 1 (spies D/d)", exact=True).select_option(label="alice")
    page.get_by_label("Player 2 (spies E/e)", exact=True).select_option(label="bob")
    start_recording(page)
    assert page.locator("#rec-board g.envelope").count() == 20

    place = types(log).index("place")
    clicked = record_whole_game(page, log, undo_at=place, reload_at=place + 3, resume_at=place + 6)
    screenshot(page, "cloak-over")
    match = store_and_check(page, log, clicked)
    # The envelopes' cards were entered as they came out: the log has no pile.
    assert "pile" not in match.log.document["setup"]


def test_record_mister_x_at_the_table(signed_in, live_server, club, screenshot):
    """The opening of a Mister X game at the table: a secret move paid with tickets, the
    detectives' pawns (two seats to act at once), and refills whose tickets drawn from
    the bag are entered field by field; stopped early, an unfinished match."""
    page = signed_in
    log = scripted_game(
        "mister-x", 3, lambda log: log["actions"][1]["type"] == "refill", seeds=range(4, 50)
    )
    choose_game(page, live_server, club, "Mister X", AT_THE_TABLE, players=3)
    setup = log["setup"]
    # The board by name; the mission, the cities and every ticket from drop-downs.
    assert page.get_by_label("Board").locator("option:checked").inner_text().startswith("Europe")
    assert "JSON" not in page.locator("#rec-setup").inner_text()
    page.get_by_label("Mission card").select_option(
        label=f"{setup['mission'].capitalize()} mission"
    )
    fill_setup(page, {key: value for key, value in setup.items() if key != "mission"})
    page.get_by_label("Mister X", exact=True).select_option(label="alice")
    page.get_by_label("Detectives red, blue and green", exact=True).select_option(label="bob")
    page.get_by_label("Detectives yellow and black", exact=True).select_option(label="carol")
    start_recording(page)
    opening = log["actions"][:12]
    assert {"refill", "move"} <= {action["type"] for action in opening}
    clicked = []
    for target in opening:
        clicked.append(record(page, target))
        assert agrees(clicked[-1], target), (clicked[-1], target)
    screenshot(page, "misterx-table")
    page.get_by_role("button", name="Stop recording…").click()
    page.get_by_role("button", name="Stop here and store as an unfinished match").click()
    page.wait_for_selector('[data-link="match"]')
    match = Match.objects.get()
    assert match.status == Match.Status.UNFINISHED
    assert match.log.document["actions"] == clicked
    assert match.log.document["setup"] == setup


def test_options_are_set_by_clicking(signed_in, live_server, club):
    """Options as choices: Cloak & Dagger's documents and optional cards; Mister X's pawns
    shared out among the detective players by checkboxes (MX-6.10), the seats then named
    by the pawns they move."""
    from recorder.models import Draft

    page = signed_in
    choose_game(
        page,
        live_server,
        club,
        "Cloak & Dagger",
        "dealt by Lantern (needed to play against a bot)",
        players=3,
    )
    page.get_by_label("Copies of each document (X, Y, Z)").select_option(
        label="3 of each (9 document cards)"
    )
    page.get_by_label("Play with the hazard cards (CD-6.2)").check()
    page.get_by_label("Player 1 (spies D/d)", exact=True).select_option(label="alice")
    page.get_by_label("Player 2 (spies E/e)", exact=True).select_option(label=MEDIUM_BOT)
    page.get_by_label("Player 3 (spies F/f)", exact=True).select_option(label=EASY_BOT)
    start_recording(page)
    assert Draft.objects.get().options == {
        "document_copies": 3,
        "double_agents": False,
        "hazards": True,
    }

    choose_game(
        page,
        live_server,
        club,
        "Mister X",
        "dealt by Lantern (needed to play against a bot)",
        players=3,
    )
    pawns = page.get_by_role("group", name="Pawns of each detective player")
    pawns.get_by_role("group", name="Detective player 1").get_by_label("Green").uncheck()
    pawns.get_by_role("group", name="Detective player 2").get_by_label("Green").check()
    page.get_by_label("Mister X", exact=True).select_option(label=MEDIUM_BOT)
    # The seats are named by their pawns as the pawns are shared out, before submitting.
    page.get_by_label("Detectives red and blue", exact=True).select_option(label="bob")
    page.get_by_label("Detectives green, yellow and black", exact=True).select_option(label="carol")
    start_recording(page)
    draft = Draft.objects.latest("pk")
    assert draft.options["pawns"] == {"det1": ["red", "blue"], "det2": ["green", "yellow", "black"]}
    chip = page.locator(".rec-head .replay-players li", has_text="Detectives red and blue")
    assert chip.inner_text().endswith("bob")


def test_mister_x_seat_names_follow_the_pawns_as_they_are_shared_out(
    signed_in, live_server, club, screenshot
):
    page = signed_in
    choose_game(page, live_server, club, "Mister X", AT_THE_TABLE, players=3)
    second = page.locator('label[for="id_seat.det2"]')
    before = second.inner_text()
    # Every pawn to the second detective player but red: its seat's name says so at once.
    first_pawns = page.get_by_role("group", name="Detective player 1")
    second_pawns = page.get_by_role("group", name="Detective player 2")
    for colour in ("Blue", "Green", "Yellow", "Black"):
        first_pawns.get_by_label(colour, exact=True).uncheck()
        second_pawns.get_by_label(colour, exact=True).check()
    # Four changes, four answers: wait for the last one drawn (both seats' names).
    page.wait_for_function("""() => {
        const first = document.querySelector('label[for="id_seat.det1"]').textContent.toLowerCase();
        const second = document.querySelector('label[for="id_seat.det2"]')
            .textContent.toLowerCase();
        return !first.includes('blue')
            && ['blue', 'green', 'yellow', 'black'].every(c => second.includes(c));
    }""")
    assert second.inner_text() != before
    for colour in ("blue", "green", "yellow", "black"):
        assert colour in second.inner_text().lower()
    assert "blue" not in page.locator('label[for="id_seat.det1"]').inner_text().lower()
    screenshot(page, "mister-x-seats-follow-pawns")
