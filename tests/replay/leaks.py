"""What a seat must not find in its replay: per game, the facts of the all-seeing frame
that the seat could not know at that moment, looked for in the seat's frame.

Each checker gets the all-seeing frame and the seat's frame of the same ply (and
the payload's ``static`` part, for the names a sentence uses) and returns the leaks
it finds, as sentences (empty: none).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from engine import play

Frame = dict[str, Any]


def _walk(value: Any, path: str = "") -> list[tuple[str, Any]]:
    """Every (path, leaf or dict) in a JSON value."""
    found = [(path, value)]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _walk(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += _walk(item, f"{path}[{i}]")
    return found


def cryptid_leaks(truth: Frame, seen: Frame, seat: str, static: Any = None) -> list[str]:
    other = "scientist" if seat == "cryptid" else "cryptid"
    view, action = seen["view"], seen["action"]
    leaks = []
    if "cards" in view["hands"][other]:
        leaks.append(f"{other}'s hand {truth['view']['hands'][other]['cards']}")
    if "cards" in view["decks"][other]:
        leaks.append(f"{other}'s deck contents")
    if "blocks" in view["block_deck"]:
        leaks.append("the block deck's contents")
    if view["drawn_blocks"] is not None and view["active_row"] != seat:
        leaks.append("the blocks the other seat drew for the expansion")
    if action and action["seat"] == other and action["type"] == "draw" and "cards" in action:
        leaks.append(f"the cards {other} drew: {action['cards']}")
    if action and action["seat"] == other and action["type"] == "draw":
        drawn = [card for card in truth["action"]["cards"] if card in seen["notation"]]
        if drawn:
            leaks.append(f"the cards {other} drew, {drawn}, in the notation {seen['notation']!r}")
        named = [card for card in truth["action"]["cards"] if card.capitalize() in seen["sentence"]]
        if named:
            leaks.append(f"the cards {other} drew, {named}, in the sentence {seen['sentence']!r}")
    return leaks


def _hidden_mrx_cities(truth: Frame, seen: Frame) -> set[int]:
    """Cities Mister X stood on (true path) that this seat has not been shown."""
    path = truth["view"]["mrx"]["path"]
    known = set(seen["view"]["mrx"]["known"].values())
    return set(path) - known


def misterx_leaks(truth: Frame, seen: Frame, seat: str, static: Any = None) -> list[str]:
    if seat == "mrx":
        return []
    view, action = seen["view"], seen["action"]
    leaks = []
    for key in ("path", "rack"):
        if key in view["mrx"]:
            leaks.append(f"Mister X's {key}")
    if "bag" in view:
        leaks.append("the bag")
    hidden = _hidden_mrx_cities(truth, seen)
    if view["mrx"]["position"] is not None and view["mrx"]["position"] in hidden:
        leaks.append("Mister X's unrevealed position")
    # Every city named in Mister X's part of the frame must be one the seat was shown.
    mrx_parts = {
        "view.mrx": view["mrx"],
        "view.checklist": view["checklist"],
        "view.reveals": view["reveals"],
    }
    if action and action["seat"] == "mrx":
        mrx_parts["action"] = action
    for where, part in mrx_parts.items():
        for path, value in _walk(part, where):
            key = path.rsplit(".", 1)[-1]
            if key in ("to", "city", "position") and value in hidden:
                leaks.append(f"unrevealed city {value} at {path}")
        if where == "view.checklist":
            leaks += [f"ticket at {p}" for p, _ in _walk(part, where) if p.endswith(".ticket")]
    if static and seen["sentence"] and action and action["seat"] == "mrx":
        # ``static``: the payload's board, for the city names a sentence uses.
        names = {c["id"]: c["name"] for c in static["board"]["cities"]}
        for city in hidden:
            if f" {names[city]}" in seen["sentence"]:
                leaks.append(f"unrevealed city {names[city]} in the sentence {seen['sentence']!r}")
    for other, rack in view["racks"].items():
        if "tickets" in rack and seat not in (other, "detectives"):
            leaks.append(f"{other}'s rack")
    return leaks


def cloak_leaks(truth: Frame, seen: Frame, seat: str, static: Any = None) -> list[str]:
    view, action = seen["view"], seen["action"]
    leaks = [f"the all-seeing {key}" for key in ("envelopes", "hands", "pile") if key in view]
    # A sheet entry is dated by the turn it was seen; every entry is checked at the ply it
    # appears, so it must be the seat's own turn or a win, which shows the envelope to all.
    acted = truth["action"]
    for sheet in view["check_sheet"]:
        if (
            sheet["seen_turn"] == seen["ply"]
            and acted["seat"] != seat
            and "win" not in (seen["action"] or {})
        ):
            leaks.append(f"envelope {sheet['envelope']} seen on {acted['seat']}'s turn")
    if action and action["seat"] != seat and "win" not in action:
        full = truth["action"]
        if action["type"] == "place" and "card" in action:
            leaks.append(f"the card {full.get('card')} another seat placed")
        if action["type"] == "take" and "second" in action:
            leaks.append("the second card another seat took")
        if (
            "envelope" in action
            and action["type"] in ("examine", "take", "drop")
            and not action.get("told")
        ):
            leaks.append(f"the envelope number of {action['seat']}'s {action['type']}")
        if "saw" in action:
            leaks.append("what another seat saw inside an envelope")
        envelope = full.get("envelope")
        if (
            action["type"] in ("examine", "take", "drop")
            and not action.get("told")
            and f"envelope {envelope}" in (seen["sentence"] or "")
        ):
            leaks.append(
                f"the envelope number of {action['seat']}'s {action['type']} in the sentence"
            )
    return leaks


LEAK_CHECKERS: dict[str, Callable[..., list[str]]] = {
    "cryptid-urban-legends": cryptid_leaks,
    "mister-x": misterx_leaks,
    "cloak-and-dagger": cloak_leaks,
}

#: The example logs (docs/examples/) that validate (the illegal one is left out).
EXAMPLES = [
    "cryptid-escape.json",
    "cryptid-timeout.json",
    "misterx-destination.json",
    "cloak-documents.json",
]


def bot_logs() -> list[tuple[str, dict[str, Any]]]:
    """The demo data's bot-played matches of every game (``pages.demo.demo_logs``: the
    first ``LANTERN_DEMO_LEAK_MATCHES`` of each, 25 by default, which includes one cut
    short; ``LANTERN_SLOW=1`` takes all 200), and games the demo does not play: other
    bots, six Mister X players, Cloak & Dagger's optional rules."""
    from pages.demo import demo_logs

    slow = os.environ.get("LANTERN_SLOW", "").lower() in {"1", "true", "yes"}
    per_game = int(os.environ.get("LANTERN_DEMO_LEAK_MATCHES", 200 if slow else 25))
    logs = [
        (f"demo {game} #{number}", log)
        for game in LEAK_CHECKERS
        for number, (_club, log) in enumerate(demo_logs(game, per_game))
    ]
    extra: list[tuple[str, int, list[str], dict[str, Any]]] = [
        ("cryptid-urban-legends", 5, ["greedy", "random"], {}),
        ("mister-x", 7, ["greedy", "random", "random"], {}),
        ("mister-x", 2, ["greedy"] * 6, {}),
        ("mister-x", 1, ["random", "random"], {}),
        ("cloak-and-dagger", 7, ["greedy", "random", "greedy", "random", "greedy", "greedy"], {}),
        (
            "cloak-and-dagger",
            3,
            ["greedy"] * 4,
            {"double_agents": True, "hazards": True, "document_copies": 3},
        ),
    ]
    return logs + [
        (
            f"{game}-{'-'.join(bots)}-seed{seed}",
            play(game, seed, bots, options=options, max_actions=400),
        )
        for game, seed, bots, options in extra
    ]
