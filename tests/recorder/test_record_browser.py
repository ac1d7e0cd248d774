"""Recording whole games by clicking, in headless Chromium: a Cryptid: Urban Legends game
and a Cloak & Dagger game, each with an undo and a reload in the middle (Cloak & Dagger
also left and resumed from the club page), end as valid matches whose stored actions
are exactly the ones clicked."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine import get_game
from games.models import Match
from tests.recorder.recording import (
    agrees,
    choose_game,
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
    page: Any, log: dict[str, Any], undo_at: int, reload_at: int, resume_at: int | None = None,
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
        "cryptid-urban-legends", None,
        lambda log: {"draw", "expand", "relocate"} <= set(types(log)) and len(log["actions"]) <= 40,
    )
    choose_game(page, live_server, club, "Cryptid: Urban Legends", AT_THE_TABLE)
    setup = log["setup"]
    page.get_by_label("sensors 2r2w1b", exact=True).select_option(label=setup["sensors_2r2w1b"])
    for seat in ("cryptid", "scientist"):
        for i, card in enumerate(setup["hands"][seat], start=1):
            page.get_by_label(f"hands {seat} {i}", exact=True).select_option(label=card)
    for i, block in enumerate(setup["first_blocks"], start=1):
        page.get_by_label(f"first blocks {i}", exact=True).select_option(label=block)
    page.get_by_label("Seat cryptid", exact=True).select_option(label="alice")
    page.get_by_label("Seat scientist", exact=True).select_option(label="bob")
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
    page.get_by_label("Seat p1", exact=True).select_option(label="alice")
    page.get_by_label("Seat p2", exact=True).select_option(label="bob")
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
    log = scripted_game("mister-x", 3, lambda log: log["actions"][1]["type"] == "refill", seeds=range(4, 50))
    choose_game(page, live_server, club, "Mister X", AT_THE_TABLE, players=3)
    setup = log["setup"]
    # Options and setup both have "pawns" (shares of the pawns; their start cities): the
    # fieldsets' legends tell them apart.
    dealt = page.get_by_role("group", name="Setup: as it was dealt at the table")
    dealt.get_by_label("mission", exact=True).select_option(label=setup["mission"])
    dealt.get_by_label("start", exact=True).fill(str(setup["start"]))
    dealt.get_by_label("pawns (JSON)", exact=True).fill(json.dumps(setup["pawns"]))
    dealt.get_by_label("racks (JSON)", exact=True).fill(json.dumps(setup["racks"]))
    for seat, player in zip(("mrx", "det1", "det2"), ("alice", "bob", "carol"), strict=True):
        page.get_by_label(f"Seat {seat}", exact=True).select_option(label=player)
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
