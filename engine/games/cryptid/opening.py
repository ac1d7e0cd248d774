"""Cryptid: Urban Legends: a game's options and its opening (CUL-2): the decks, the hands
and the board, as the log's setup records them or the seed deals them."""

from __future__ import annotations

from typing import Any

from engine.core.errors import IllegalAction
from engine.core.fields import get_str
from engine.core.messages import msg
from engine.core.rng import Rng
from engine.games.cryptid.rules import SIDES, read_cards, same_cards, take_cards
from engine.games.cryptid.state import (
    BLOCK_ORDER,
    BLOCK_RANK,
    CARDS_PER_DECK,
    DEFAULT_DECK,
    EFFECTS,
    GUARANTEED_NORMAL,
    NORMAL_BLOCKS,
    SEATS,
    CryptidState,
    deck_cards,
)


# --------------------------------------------------------------------------- options
def normalize_options(options: dict[str, Any]) -> dict[str, Any]:
    """``{"decks": {seat: {card: n}}}`` with the documented default filled in (CUL-1.2)."""
    unknown = sorted(set(options) - {"decks"})
    if unknown:
        raise IllegalAction(
            "LOG-OPTIONS", msg("cul.refuse.unknown_option_s_game_has", unknown=str(unknown))
        )
    decks = options.get("decks", {})
    if not isinstance(decks, dict):
        raise IllegalAction("CUL-1.2", msg("cul.refuse.options_decks_object_seat_deck"))
    extra = sorted(set(decks) - set(SEATS))
    if extra:
        raise IllegalAction(
            "CUL-1.2", msg("cul.refuse.options_decks_names_no_seat", extra=str(extra))
        )
    normalized: dict[str, dict[str, int]] = {}
    for seat in SEATS:
        mix = decks.get(seat, DEFAULT_DECK)
        if not isinstance(mix, dict):
            raise IllegalAction(
                "CUL-1.2", msg("cul.refuse.options_decks_object_card_count", seat=seat)
            )
        bad = sorted(set(mix) - set(EFFECTS))
        if bad:
            raise IllegalAction(
                "CUL-1.2", msg("cul.refuse.options_decks_unknown_card_s", seat=seat, bad=str(bad))
            )
        counts = {}
        for card in ("split", "shuffle", "align"):
            n = mix.get(card, 0)
            if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                raise IllegalAction(
                    "CUL-1.2",
                    msg("cul.refuse.options_decks_whole_number", seat=seat, card=card, n=repr(n)),
                )
            counts[card] = n
        if sum(counts.values()) != CARDS_PER_DECK:
            raise IllegalAction(
                "CUL-1.2",
                msg(
                    "cul.refuse.options_decks_holds_cards_deck",
                    seat=seat,
                    count=sum(counts.values()),
                    cards_per_deck=CARDS_PER_DECK,
                ),
            )
        normalized[seat] = counts
    return {"decks": normalized}


def new_state(options: dict[str, Any], setup: dict[str, Any], rng: Rng | None) -> CryptidState:
    """The table after the setup of CUL-2.3, from the log's ``setup`` and the seed."""
    side = get_str(setup, "sensors_2r2w1b", "CUL-2.3", msg("core.what.setup"), choices=SIDES)
    decks = {seat: deck_cards(options["decks"][seat]) for seat in SEATS}

    given_hands = setup.get("hands")
    if given_hands is not None and not isinstance(given_hands, dict):
        raise IllegalAction("CUL-2.3", msg("cul.refuse.setup_hands_object_seat_cards"))
    hands: dict[str, list[str]] = {}
    for seat in SEATS:
        given = None if given_hands is None else given_hands.get(seat)
        if given is not None:
            given = read_cards(given, 3, "CUL-2.3", f"setup.hands.{seat}")
        if rng is not None:
            drawn = rng.draw(decks[seat], 3)
            if given is not None and not same_cards(given, drawn):
                raise IllegalAction(
                    "CUL-2.4",
                    msg(
                        "cul.refuse.setup_hands_differs_from_seed",
                        seat=seat,
                        given=str(given),
                        drawn=str(sorted(drawn)),
                    ),
                )
            hands[seat] = sorted(drawn)
        else:
            if given is None:
                raise IllegalAction(
                    "CUL-2.4",
                    msg("cul.refuse.without_seed_setup_record_s", who=msg(f"cul.seat_word.{seat}")),
                )
            take_cards(decks[seat], given, "CUL-2.4", f"setup.hands.{seat}")
            hands[seat] = sorted(given)

    normals = list(NORMAL_BLOCKS)
    given_blocks = setup.get("first_blocks")
    if given_blocks is not None and (
        not isinstance(given_blocks, list)
        or len(given_blocks) != 3
        or any(b not in NORMAL_BLOCKS for b in given_blocks)
        or len(set(given_blocks)) != 3
    ):
        raise IllegalAction(
            "CUL-2.3",
            msg("cul.refuse.setup_first_blocks_different_normal", given_blocks=repr(given_blocks)),
        )
    if rng is not None:
        first = rng.draw(normals, 3)
        if given_blocks is not None and given_blocks != first:
            raise IllegalAction(
                "CUL-2.4",
                msg(
                    "cul.refuse.setup_first_blocks_differs_from",
                    given_blocks=str(given_blocks),
                    first=str(first),
                ),
            )
    else:
        if given_blocks is None:
            raise IllegalAction("CUL-2.4", msg("cul.refuse.without_seed_setup_record_first"))
        first = list(given_blocks)

    state = CryptidState()
    state.options = options
    state.rng = rng
    state.setup = {
        "sensors_2r2w1b": side,
        "hands": {s: list(h) for s, h in hands.items()},
        "first_blocks": list(first),
    }
    state.round = 1
    state.phase = "sensor"
    state.turn = "cryptid"
    state.active = "cryptid"
    state.rows = {"cryptid": [first[0]], "scientist": [first[1], first[2]]}
    group_a, group_b = [2, 2, 1], [2, 1, 2]  # CUL-2.3 step 5
    state.sensors = {
        "cryptid": [group_a, group_b] if side == "left" else [group_b, group_a],
        "scientist": [[0, 0, 0], [0, 0, 0], [0, 0, 0]],
    }
    state.active_sensors = 10
    state.presence = {first[0]}
    state.evidence = set()
    state.held = {"cryptid": 0, "scientist": 0}
    state.wild = {"cryptid": False, "scientist": False}
    state.hands = hands
    state.decks = decks
    state.discards = {"cryptid": [], "scientist": []}
    state.block_pool = sorted(
        (b for b in BLOCK_ORDER if b not in first), key=BLOCK_RANK.__getitem__
    )
    state.guaranteed = GUARANTEED_NORMAL
    state.pending_blocks = None
    state.displaced = None
    state.trace = None
    state.result = None
    return state
