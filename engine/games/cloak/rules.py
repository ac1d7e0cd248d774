"""Cloak & Dagger rules (``docs/rules/cloak-and-dagger.md``, ids ``CD-*``): options,
seats, setup, turns and the result, as functions of the state (:mod:`.state`; who may
act and what they may do: :mod:`.legal`); the
:class:`~engine.games.cloak.game.CloakGame` game plugs them into the engine.

Chance: the pile is the deck (:func:`~engine.games.cloak.state.deck`) shuffled once
at setup with ``Rng(seed).shuffle``; a ``place`` draws its top card. A log may
also write the pile in ``setup`` (checked against the seed when there is one) or,
without a seed, leave it out: then every ``place`` names its card, checked
against the cards not drawn yet.
"""

from __future__ import annotations

from typing import Any

from engine.core.errors import IllegalAction
from engine.core.game import Action
from engine.core.messages import msg
from engine.core.rng import Rng
from engine.games.cloak.state import (
    DOCUMENT_COPIES,
    DOUBLE_AGENTS,
    ENVELOPES,
    HAZARDS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SEAT_IDS,
    CloakState,
    Entry,
    deck,
)

DEFAULT_OPTIONS: dict[str, Any] = {"document_copies": 1, "double_agents": False, "hazards": False}
ACTION_TYPES = ("examine", "place", "take", "drop", "hazard")


def _envelope(action: Action) -> int:
    n = action.get("envelope")
    if type(n) is not int or not 1 <= n <= ENVELOPES:
        raise IllegalAction(
            "CD-1.1", msg("cd.refuse.envelope_number_from", envelopes=ENVELOPES, n=repr(n))
        )
    return n


def normalize_options(options: dict[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(options) - set(DEFAULT_OPTIONS))
    if unknown:
        raise IllegalAction(
            "LOG-OPTIONS", msg("cd.refuse.unknown_cloak_dagger_option_s", unknown=str(unknown))
        )
    merged = {**DEFAULT_OPTIONS, **options}
    copies = merged["document_copies"]
    if type(copies) is not int or copies not in DOCUMENT_COPIES:
        raise IllegalAction("CD-1.2", msg("cd.refuse.document_copies", copies=repr(copies)))
    for flag in ("double_agents", "hazards"):
        if not isinstance(merged[flag], bool):
            raise IllegalAction(
                "CD-6", msg("cd.refuse.true_false", flag=flag, merged=repr(merged[flag]))
            )
    return merged


def check_seats(seats: list[dict[str, Any]], options: dict[str, Any]) -> None:
    ids = [entry["seat"] for entry in seats]
    if not MIN_PLAYERS <= len(ids) <= MAX_PLAYERS:
        raise IllegalAction("CD-1.3", msg("cd.refuse.cloak_dagger_needs_players", count=len(ids)))
    if ids != SEAT_IDS[: len(ids)]:
        expected = ", ".join(SEAT_IDS[: len(ids)])
        raise IllegalAction(
            "CD-1.3", msg("cd.refuse.seats_turn_order", expected=expected, ids=", ".join(ids))
        )


def new_state(
    options: dict[str, Any], seats: list[str], setup: dict[str, Any], rng: Rng | None
) -> CloakState:
    """The state after setup (CD-2): the pile from the seed, the log's setup, or left to
    each ``place`` to name."""
    cards = deck(options)
    recorded = setup.get("pile")
    if recorded is not None and (
        not isinstance(recorded, list)
        or not all(isinstance(card, str) for card in recorded)
        or sorted(recorded) != sorted(cards)
    ):
        raise IllegalAction(
            "CD-2.2",
            msg(
                "cd.refuse.pile_hold_exactly_cards_with",
                cards="".join(sorted(cards)),
                recorded=repr(recorded),
            ),
        )
    if rng is not None:
        pile = list(cards)
        rng.shuffle(pile)
        if recorded is not None and recorded != pile:
            raise IllegalAction(
                "CD-2.2",
                msg("cd.refuse.pile_disagrees_with_seed_s", recorded=str(recorded), pile=str(pile)),
            )
        return CloakState(options, seats, pile, None)
    if recorded is not None:
        return CloakState(options, seats, list(recorded), None)
    return CloakState(options, seats, [], sorted(cards))


def setup_record(state: CloakState) -> dict[str, Any]:
    return {} if state.setup_pile is None else {"pile": list(state.setup_pile)}


def result(state: CloakState) -> dict[str, Any] | None:
    if state.winner is None:
        return None
    return {"winner": state.seats[state.winner], "reason": "documents"}


def apply(state: CloakState, action: Action) -> Action:
    if state.winner is not None:
        raise IllegalAction("CD-7.2", msg("cd.refuse.game_already_over_nothing_may"))
    i = state.turn
    seat = state.seats[i]
    if action.get("seat") != seat:
        raise IllegalAction(
            "CD-1.3", msg("cd.refuse.s_turn_s", seat=seat, seat2=str(action.get("seat")))
        )
    kind = action.get("type")
    if kind not in ACTION_TYPES:
        raise IllegalAction(
            "CD-3.5", msg("cd.refuse.unknown_action_type_turn_one", kind=repr(kind))
        )
    n = _envelope(action)
    hand = state.hands[i]
    if hand and kind != "drop":
        raise IllegalAction(
            "CD-3.5",
            msg("cd.refuse.holds_card_s_finish_transfer", seat=seat, count=len(hand), kind=kind),
        )
    contents = state.envelopes[n]
    saw = tuple(contents)
    cards = 0
    if kind == "drop":
        if not hand:
            raise IllegalAction("CD-7.1", msg("cd.refuse.holds_no_cards_there_no", seat=seat))
        cards = len(hand)
        contents.extend(hand)
        hand.clear()
        recorded = {"seat": seat, "type": "drop", "envelope": n}
    elif kind == "examine":
        recorded = {"seat": seat, "type": "examine", "envelope": n}
    elif kind == "place":
        recorded = {
            "seat": seat,
            "type": "place",
            "envelope": n,
            "card": _draw(state, n, contents, action.get("card")),
        }
    elif kind == "take":
        recorded = _take(state, i, n, contents, hand, action)
        cards = len(hand)
    else:
        recorded = _hazard(state, i, n, contents, action)

    told = state.owed[i]
    if told:
        state.owed[i] = ()
    win = None
    if not hand and "X" in contents and "Y" in contents and "Z" in contents:
        own, enemies = state.spies[i], state.enemies[i]
        if any(card in own for card in contents) and not any(card in enemies for card in contents):
            state.winner = i
            win = tuple(contents)
    state.history.append(Entry(recorded, i, saw, cards, told, win))
    if win is None:
        state.turn = (i + 1) % len(state.seats)
    return recorded


def _draw(state: CloakState, n: int, contents: list[str], card: Any) -> str:
    if contents:
        raise IllegalAction("CD-3.2", msg("cd.refuse.envelope_empty_card_placed_only", n=n))
    if card is not None and not isinstance(card, str):
        raise IllegalAction("CD-3.2", msg("cd.refuse.card_card_letter", card=repr(card)))
    unknown = state.pile_unknown
    if unknown:
        if card is None:
            raise IllegalAction("CD-3.2", msg("cd.refuse.without_seed_recorded_pile_place"))
        if card not in unknown:
            raise IllegalAction("CD-3.2", msg("cd.refuse.pile_holds_no_any_more", card=repr(card)))
        unknown.remove(card)
    else:
        if not state.pile:
            raise IllegalAction("CD-3.2", msg("cd.refuse.pile_empty_nothing_can_placed"))
        top = state.pile[0]
        if card is not None and card != top:
            raise IllegalAction(
                "CD-3.2", msg("cd.refuse.top_card_pile", top=repr(top), card=repr(card))
            )
        card = state.pile.pop(0)
    contents.append(card)
    return card


def _take(
    state: CloakState, i: int, n: int, contents: list[str], hand: list[str], action: Action
) -> Action:
    seat = state.seats[i]
    spy = action.get("spy")
    second = action.get("second")
    if isinstance(second, list):
        raise IllegalAction(
            "CD-3.3", msg("cd.refuse.never_more_than_cards_transfer", second=repr(second))
        )
    if not isinstance(spy, str):
        raise IllegalAction("CD-3.3", msg("cd.refuse.spy_letter_spy_shown", spy=repr(spy)))
    if spy in DOUBLE_AGENTS and not state.options["double_agents"]:
        raise IllegalAction(
            "CD-6.1", msg("cd.refuse.double_agents_game_options_double", spy=repr(spy))
        )
    if spy not in state.spies[i] and spy not in DOUBLE_AGENTS:
        raise IllegalAction(
            "CD-3.3",
            msg(
                "cd.refuse.can_start_transfer_only_with",
                seat=seat,
                spies=", ".join(sorted(state.spies[i])),
                spy=repr(spy),
            ),
        )
    if spy not in contents:
        raise IllegalAction(
            "CD-3.3", msg("cd.refuse.envelope_holds_no_transfer_starts", n=n, spy=repr(spy))
        )
    if second is not None and (
        not isinstance(second, str) or contents.count(second) < 1 + (second == spy)
    ):
        raise IllegalAction(
            "CD-3.3",
            msg(
                "cd.refuse.envelope_holds_no_besides_take", n=n, second=repr(second), spy=repr(spy)
            ),
        )
    contents.remove(spy)
    hand.append(spy)
    if second is not None:
        contents.remove(second)
        hand.append(second)
    return {"seat": seat, "type": "take", "envelope": n, "spy": spy, "second": second}


def _hazard(state: CloakState, i: int, n: int, contents: list[str], action: Action) -> Action:
    if not state.options["hazards"]:
        raise IllegalAction("CD-6.2", msg("cd.refuse.hazard_cards_game_options_hazards"))
    card = action.get("card")
    if not isinstance(card, str) or card not in HAZARDS:
        raise IllegalAction("CD-6.2", msg("cd.refuse.hazard_card", card=repr(card)))
    if card not in contents:
        raise IllegalAction(
            "CD-6.2", msg("cd.refuse.envelope_holds_no_reveal", n=n, card=repr(card))
        )
    contents.remove(card)
    state.pile.append(card)
    for j, hand in enumerate(state.hands):
        if j != i and not hand and i not in state.owed[j]:
            state.owed[j] = (*state.owed[j], i)
    return {"seat": state.seats[i], "type": "hazard", "envelope": n, "card": card}
