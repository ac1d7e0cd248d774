"""Leak test: for every seat (and team) view of every demo and bot-played match, the
frames JSON, the move list and the rendered page hold nothing that seat could not
know at that moment."""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlsplit

import pytest

from engine import replay
from engine.core.messages import render
from replay.frames import ALL, build_frames
from tests.examples import load_example
from tests.replay.browsing import board_ply, open_replay
from tests.replay.leaks import EXAMPLES, LEAK_CHECKERS, bot_logs

#: The only top-level keys of a payload; all of them public (seats, options, board; the
#: seats' labels are said from the players' names and the options alone).
PAYLOAD_KEYS = {
    "version",
    "match",
    "game",
    "game_name",
    "renderer",
    "rules_version",
    "viewer",
    "viewers",
    "seats",
    "seat_labels",
    "card_words",
    "options",
    "static",
    "legend",
    "phases",
    "status",
    "error",
    "page_size",
    "page",
    "frames",
}


@pytest.fixture(scope="module")
def all_logs():
    logs = [(name, load_example(name)) for name in EXAMPLES]
    return logs + bot_logs()


def seat_viewers(payload: dict) -> list[str]:
    return [v["id"] for v in payload["viewers"] if v["id"] != ALL]


def test_every_seat_payload_is_the_engines_redacted_view_and_holds_no_secret(all_logs):
    assert any(log["result"] is None for _name, log in all_logs), (
        "an unfinished demo match is included"
    )
    checked = 0
    for name, log in all_logs:
        rep = replay(log)
        truth = build_frames(log, ALL)
        checker = LEAK_CHECKERS[log["game"]]
        for viewer in seat_viewers(truth):
            payload = build_frames(log, viewer)
            assert set(payload) == PAYLOAD_KEYS, name
            assert payload["error"] is None
            # Nothing but the engine's own view and redacted action reaches the page...
            engine_frames = list(rep.frames(viewer))
            assert [f["view"] for f in payload["frames"]] == [f["view"] for f in engine_frames], (
                name
            )
            assert [f["action"] for f in payload["frames"]] == [
                f["action"] for f in engine_frames
            ], name
            assert [f["notation"] for f in payload["frames"]] == [
                f["notation"] for f in engine_frames
            ]
            # The words for cards are the game's, the same for every seat; the result is said
            # only beside the view of the state that ends the game, where every seat learns it.
            assert payload["card_words"] == truth["card_words"]
            assert [f["result_sentence"] is not None for f in payload["frames"]] == [
                log["result"] is not None and f["ply"] == len(log["actions"])
                for f in payload["frames"]
            ]
            # The sentence is the engine's, of that same redacted action.
            assert [f["sentence"] for f in payload["frames"]] == [
                None if f["message"] is None else render(f["message"]) for f in engine_frames
            ]
            # ...and that view holds none of the facts this seat could not know then.
            for real, seen in zip(truth["frames"], payload["frames"], strict=True):
                leaks = checker(real, seen, viewer, payload["static"])
                assert not leaks, f"{name}, {viewer}, ply {seen['ply']}: {leaks}"
            checked += len(payload["frames"])
    assert checked > 10000


def test_a_secret_planted_in_a_seat_frame_is_found(all_logs):
    """The checkers would see a leak: plant one per game and expect it reported."""
    planted = {"cryptid-urban-legends": False, "mister-x": False, "cloak-and-dagger": False}
    for _name, log in all_logs:
        game = log["game"]
        if planted[game]:
            continue
        truth = build_frames(log, ALL)["frames"]
        viewer = {
            "cryptid-urban-legends": "scientist",
            "mister-x": "det1",
            "cloak-and-dagger": "p2",
        }[game]
        seen = build_frames(log, viewer)["frames"]
        ply = len(seen) - 2
        frame = json.loads(json.dumps(seen[ply]))
        if game == "cryptid-urban-legends":
            frame["view"]["hands"]["cryptid"]["cards"] = truth[ply]["view"]["hands"]["cryptid"][
                "cards"
            ]
        elif game == "mister-x":
            frame["view"]["mrx"]["position"] = truth[ply]["view"]["mrx"]["path"][1]
            frame["view"]["mrx"]["known"] = {}
        else:
            frame["view"]["hands"] = truth[ply]["view"]["hands"]
        assert LEAK_CHECKERS[game](truth[ply], frame, viewer), game
        planted[game] = True
    # A secret planted in a sentence is found too.
    for _name, log in all_logs:
        if log["game"] != "mister-x":
            continue
        truth = build_frames(log, ALL)["frames"]
        payload = build_frames(log, "det1")
        seen = payload["frames"]
        ply = next(
            p
            for p, f in enumerate(seen)
            if f["action"]
            and f["action"]["seat"] == "mrx"
            and f["action"]["type"] == "move"
            and "to" not in f["action"]
        )
        frame = json.loads(json.dumps(seen[ply]))
        frame["sentence"] = truth[ply]["sentence"]
        assert LEAK_CHECKERS["mister-x"](truth[ply], frame, "det1", payload["static"])
        break
    assert all(planted.values())


# --- the page -----------------------------------------------------------------------------

PAGE_SECRETS = {
    # selector -> what it may never show in a seat's page (only the all-seeing one draws it)
    "cloak-and-dagger": [
        "g.envelope[data-contents]",
        ".board-panels [data-hand] .card-chip:not(.hidden-card)",
    ],
    "mister-x": ["polyline.mx-path", "text.mx-slot", '[data-rack="mrx"] .card-chip'],
    "cryptid-urban-legends": [],
}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("example", EXAMPLES)
def test_rendered_page_and_move_list_of_every_seat_hold_only_that_seats_frames(
    page, live_server, club, store_match, example_log, example
):
    log = example_log(example)
    match = store_match(club, log)
    requested: list[str] = []
    page.on(
        "request",
        lambda request: requested.append(request.url) if "/frames" in request.url else None,
    )
    truth = build_frames(log, ALL)
    for viewer in seat_viewers(truth):
        payload = build_frames(log, viewer)
        frames = payload["frames"]
        requested.clear()
        open_replay(page, live_server, match, f"?view={viewer}")
        # The page fetched this seat's frames (and pages of its views) and nothing else.
        assert requested and all(
            parse_qs(urlsplit(url).query)["view"] == [viewer] for url in requested
        ), requested
        # The move list is exactly the seat's sentences; with notation on, its notations.
        moves = page.eval_on_selector_all(
            "#replay-moves button[data-ply]", "els => els.map(e => e.textContent)"
        )
        assert moves == ["Setup"] + [f["sentence"] for f in frames[1:]]
        page.check("#replay-notation-toggle")
        notations = page.eval_on_selector_all(
            "#replay-moves button[data-ply]", "els => els.map(e => e.textContent)"
        )
        assert notations[1:] == [f["notation"] for f in frames[1:]]
        page.uncheck("#replay-notation-toggle")
        for ply in range(0, len(frames), max(1, len(frames) // 12)):
            page.click(f'#replay-moves button[data-ply="{ply}"]')
            assert board_ply(page) == ply
            for selector in PAGE_SECRETS[log["game"]]:
                if log["game"] == "cloak-and-dagger" and "card-chip" in selector:
                    # The seat's own hand is its to see; every other hand is a count.
                    selector = (
                        f'.board-panels [data-hand]:not([data-hand="{viewer}"]) '
                        ".card-chip:not(.hidden-card)"
                    )
                if log["game"] == "mister-x" and viewer == "mrx":
                    continue
                assert page.locator(selector).count() == 0, (
                    f"{example} {viewer} ply {ply}: {selector}"
                )
            _check_page_against_truth(page, log["game"], frames[ply], viewer)


def _check_page_against_truth(page, game: str, seen: dict, viewer: str) -> None:
    """What the board draws of hidden things is only what the seat's frame says."""
    if game == "cryptid-urban-legends":
        other = "scientist" if viewer == "cryptid" else "cryptid"
        chips = page.eval_on_selector_all(
            f'[data-hand="{other}"] .card-chip', "els => els.map(e => e.textContent)"
        )
        assert set(chips) <= {"?", "none"}, chips
    elif game == "mister-x" and viewer != "mrx":
        known = set(seen["view"]["mrx"]["known"].values())
        drawn = page.eval_on_selector_all(
            "g.mx-x, g.mx-known, .mx-ticket-board li",
            "els => els.map(e => e.getAttribute('data-city'))",
        )
        assert {int(c) for c in drawn if c} <= known
    elif game == "cloak-and-dagger":
        for entry in seen["view"]["check_sheet"]:
            drawn = page.get_attribute(
                f'g.envelope[data-envelope="{entry["envelope"]}"]', "data-seen"
            )
            assert drawn == ("never" if entry["seen"] is None else ",".join(entry["seen"]))
