"""The rules of Cryptid: Urban Legends (``docs/rules/cryptid-urban-legends.md``).

Setup, and the checking/applying of every action (who may act and what they may do:
:mod:`.legal`). Every rejection cites the rule it enforces. ``apply`` mutates the
state in place and returns the action as recorded, every chance outcome written in.

Chance with a seed, in the order the generator is consumed: the cryptid's
opening hand (3 draws), the scientist's, the three first blocks (cryptid row,
scientist row left, right) from the normal blocks; then, as the game goes, each
movement-card draw (one ``Rng.draw`` per card, a reshuffle being the discard
pile becoming the deck) and, when an Expansion phase begins, its two blocks (the
first four from the normal blocks left, CUL-2.3, then from the whole deck).
"""

from __future__ import annotations

from bisect import insort
from typing import Any

from engine.core.errors import IllegalAction
from engine.core.fields import get_dict, get_int, get_str
from engine.core.messages import Text, msg
from engine.core.rng import Rng
from engine.games.cryptid.groups import describe_group, group_from, read_group
from engine.games.cryptid.state import (
    BLOCK_ORDER,
    CARDS,
    COLOR_INDEX,
    COLORS,
    EFFECTS,
    GUARANTEED_NORMAL,
    HAND_LIMIT,
    MAX_BLOCKS,
    MYSTERIOUS,
    OTHER,
    PRESENCE_MARKERS,
    SEATS,
    CryptidState,
)

SIDES = ("left", "right")


# --------------------------------------------------------------------------- setup
def take_cards(pile: list[str], cards: list[str], rule: str, what: Text) -> None:
    """Remove the multiset ``cards`` from the sorted ``pile``; IllegalAction if it cannot hold
    them."""
    for card in cards:
        try:
            pile.remove(card)
        except ValueError:
            raise IllegalAction(
                rule, msg("cul.refuse.deck_holds_no_more_cards", what=what, card=repr(card))
            ) from None


def read_cards(value: Any, count: int, rule: str, what: Text) -> list[str]:
    if not isinstance(value, list):
        raise IllegalAction(
            rule, msg("cul.refuse.list_movement_cards", what=what, value=repr(value))
        )
    if len(value) != count:
        raise IllegalAction(
            rule, msg("cul.refuse.exactly_cards", what=what, count=count, n_value=len(value))
        )
    for card in value:
        if card not in EFFECTS:
            raise IllegalAction(
                "CUL-1.2",
                msg("cul.refuse.unknown_movement_card_align_shuffle", what=what, card=repr(card)),
            )
    return value


def same_cards(a: list[str], b: list[str]) -> bool:
    return sorted(a) == sorted(b)


# --------------------------------------------------------------------------- movement effects
def _split(state: CryptidState, action: dict[str, Any], what: Text) -> None:
    active = state.sensors[state.active]
    inactive = state.sensors[OTHER[state.active]]
    space = action.get("space")
    if type(space) is not int or not 0 <= space < len(active):
        space = get_int(action, "space", "CUL-3.3", what, lo=0, hi=len(active) - 1)
    here = active[space]
    total = here[0] + here[1] + here[2]
    if not total:
        raise IllegalAction(
            "CUL-3.3", msg("cul.refuse.active_row_space_holds_no", what=what, space=space)
        )
    left = read_group(action, "left", "CUL-3.3", what)
    right = read_group(action, "right", "CUL-3.3", what)
    for i in range(3):
        if left[i] + right[i] != here[i]:
            raise IllegalAction(
                "CUL-3.3",
                msg(
                    "cul.refuse.space_holds_split_moves_exactly",
                    what=what,
                    space=space,
                    here=describe_group(here),
                    value=describe_group(
                        [left[0] + right[0], left[1] + right[1], left[2] + right[2]]
                    ),
                ),
            )
    if total > 1 and (not any(left) or not any(right)):
        raise IllegalAction(
            "CUL-3.3", msg("cul.refuse.split_sensors_sends_least_one", what=what, count=total)
        )
    down_left, down_right = inactive[space], inactive[space + 1]
    for i in range(3):
        down_left[i] += left[i]
        down_right[i] += right[i]
    active[space] = [0, 0, 0]
    state.active_sensors -= total


def _shuffle(state: CryptidState, action: dict[str, Any], what: Text) -> None:
    active = state.sensors[state.active]
    inactive = state.sensors[OTHER[state.active]]
    last = len(active) - 1
    space, colour, direction = action.get("space"), action.get("color"), action.get("dir")
    if type(space) is not int or not 0 <= space <= last:
        space = get_int(action, "space", "CUL-3.4", what, lo=0, hi=last)
    c = COLOR_INDEX.get(colour) if type(colour) is str else None
    if c is None:
        c = COLOR_INDEX[get_str(action, "color", "CUL-3.4", what, choices=COLOR_INDEX)]
    if direction != "left" and direction != "right":
        get_str(action, "dir", "CUL-3.4", what, choices=SIDES)
    if not active[space][c]:
        raise IllegalAction(
            "CUL-3.4",
            msg(
                "cul.refuse.active_row_space_holds_no2",
                what=what,
                space=space,
                colour=msg(f"cul.colour.{colour}"),
            ),
        )
    if direction == "left":
        if space == 0:
            raise IllegalAction("CUL-3.4", msg("cul.refuse.sensor_left_end_active_row", what=what))
        target = space - 1
    else:
        if space == last:
            raise IllegalAction("CUL-3.4", msg("cul.refuse.sensor_right_end_active_row", what=what))
        target = space + 2
    active[space][c] -= 1
    inactive[target][c] += 1
    state.active_sensors -= 1


def _align(state: CryptidState, action: dict[str, Any], what: Text) -> None:
    active = state.sensors[state.active]
    inactive = state.sensors[OTHER[state.active]]
    colour, direction = action.get("color"), action.get("dir")
    c = COLOR_INDEX.get(colour) if type(colour) is str else None
    if c is None:
        c = COLOR_INDEX[get_str(action, "color", "CUL-3.5", what, choices=COLOR_INDEX)]
    if direction != "left" and direction != "right":
        get_str(action, "dir", "CUL-3.5", what, choices=SIDES)
    shift = 1 if direction == "right" else 0
    moved = 0
    for i, space in enumerate(active):
        n = space[c]
        if n:
            space[c] = 0
            inactive[i + shift][c] += n
            moved += n
    if not moved:
        raise IllegalAction(
            "CUL-3.5",
            msg(
                "cul.refuse.no_sensor_left_active_row",
                what=what,
                colour=msg(f"cul.colour.{colour}"),
            ),
        )
    state.active_sensors -= moved


_EFFECTS = {"split": _split, "shuffle": _shuffle, "align": _align}
#: How a rejection names the action, built once (validation formats no string on the legal path).
# What a refusal calls the action it stops, in words ("the Cryptid's Split").
_PLAY_WHAT = {
    (seat, card): msg("cul.what.play", seat=msg(f"cul.seat.{seat}"), card=msg(f"cul.card.{card}"))
    for seat in SEATS
    for card in CARDS
}
_WILD_WHAT = {
    (seat, card): msg("cul.what.wild", seat=msg(f"cul.seat.{seat}"), card=msg(f"cul.card.{card}"))
    for seat in SEATS
    for card in CARDS
}


# --------------------------------------------------------------------------- drawing cards
def _reshuffle(state: CryptidState, seat: str) -> None:
    state.decks[seat] = state.discards[seat]
    state.discards[seat] = []


def _draw(state: CryptidState, seat: str, action: dict[str, Any]) -> dict[str, Any]:
    what = msg("cul.what.draw", seat=msg(f"cul.seat.{seat}") if seat in SEATS else str(seat))
    hand = state.hands[seat]
    size = len(hand)
    if size >= HAND_LIMIT:
        raise IllegalAction(
            "CUL-3.7",
            msg(
                "cul.refuse.hand_cards_cannot_draw_limit",
                what=what,
                count=size,
                hand_limit=HAND_LIMIT,
            ),
        )
    count = 1 if size == HAND_LIMIT - 1 else 2
    given = action.get("cards")
    if given is not None:
        given = read_cards(
            given, count, "CUL-3.7", msg("core.what.field", what=what, name=msg("cul.field.drawn"))
        )
    if state.rng is not None:
        rng = state.rng
        drawn = []
        for _ in range(count):
            if not state.decks[seat]:
                _reshuffle(state, seat)
            drawn += rng.draw(state.decks[seat])
        if given is not None and not same_cards(given, drawn):
            raise IllegalAction(
                "CUL-2.4",
                msg(
                    "cul.refuse.cards_differ_from_seed_s",
                    what=what,
                    given=str(given),
                    drawn=str(drawn),
                ),
            )
        recorded = action if given is not None else {**action, "cards": drawn}
    else:
        if given is None:
            raise IllegalAction(
                "CUL-2.4", msg("cul.refuse.without_seed_draw_list_cards", what=what)
            )
        deck = state.decks[seat]
        if count <= len(deck):
            take_cards(deck, given, "CUL-2.4", what)
        else:
            rest = list(given)
            for card in deck:  # the whole deck is drawn before the discards are reshuffled
                try:
                    rest.remove(card)
                except ValueError:
                    raise IllegalAction(
                        "CUL-6.1",
                        msg(
                            "cul.refuse.deck_ran_out_mid_draw",
                            what=what,
                            deck=str(deck),
                            given=str(given),
                        ),
                    ) from None
            _reshuffle(state, seat)
            take_cards(state.decks[seat], rest, "CUL-6.1", msg("cul.what.reshuffled", what=what))
        drawn = given
        recorded = action
    for card in drawn:
        insort(hand, card)
    return recorded


# --------------------------------------------------------------------------- Sensor phase
def _sensor_phase(
    state: CryptidState, seat: str, kind: object, action: dict[str, Any]
) -> dict[str, Any]:
    if seat != state.turn:
        raise IllegalAction(
            "CUL-3.1",
            msg(
                "cul.refuse.s_turn_sensor_phase_s",
                turn=msg(f"cul.seat_word.{state.turn}"),
                seat=msg(f"cul.seat_word.{seat}"),
            ),
        )
    recorded = action
    if kind == "play":
        hand = state.hands[seat]
        if not hand:
            raise IllegalAction(
                "CUL-3.2",
                msg(
                    "cul.refuse.play_has_no_card_hand", seat=seat, who=msg(f"cul.seat_word.{seat}")
                ),
            )
        card = action.get("card")
        if card not in EFFECTS:
            raise IllegalAction(
                "CUL-1.2",
                msg("cul.refuse.play_unknown_movement_card_align", seat=seat, card=repr(card)),
            )
        if card not in hand:
            raise IllegalAction(
                "CUL-3.2",
                msg(
                    "cul.refuse.play_holds_no_card",
                    seat=seat,
                    who=msg(f"cul.seat_word.{seat}"),
                    card=msg(f"cul.card_word.{card}"),
                ),
            )
        _EFFECTS[card](state, action, _PLAY_WHAT[seat, card])
        hand.remove(card)
        insort(state.discards[seat], card)
    elif kind == "wild":
        if not state.wild[seat]:
            raise IllegalAction(
                "CUL-3.6",
                msg(
                    "cul.refuse.wild_s_wild_card_down", seat=seat, who=msg(f"cul.seat_word.{seat}")
                ),
            )
        effect = action.get("as")
        if effect not in EFFECTS:
            raise IllegalAction(
                "CUL-3.6",
                msg("cul.refuse.wild_as_one_align_shuffle", seat=seat, effect=repr(effect)),
            )
        _EFFECTS[effect](state, action, _WILD_WHAT[seat, effect])
        state.wild[seat] = False
    elif kind == "draw":
        recorded = _draw(state, seat, action)
        state.turn = OTHER[seat]
        return recorded
    else:
        raise IllegalAction(
            "CUL-3.1",
            msg("cul.refuse.sensor_phase_goes_while_sensors", kind=repr(kind)),
        )
    if state.active_sensors:
        state.turn = OTHER[seat]
    else:
        state.phase = "hiding"
    return recorded


# --------------------------------------------------------------------------- Hiding phase
def read_trace(action: dict[str, Any]) -> tuple[int | None, int]:
    """(count, 0) or (None, colour mask) of a declaration (CUL-6.3)."""
    has_count, has_colors = "count" in action, "colors" in action
    if has_count == has_colors:
        raise IllegalAction("CUL-6.3", msg("cul.refuse.trace_has_exactly_one_count"))
    if has_count:
        return get_int(action, "count", "CUL-6.3", msg("cul.what.declaration"), lo=0, hi=10), 0
    colours = action["colors"]
    if not isinstance(colours, list) or not colours:
        raise IllegalAction(
            "CUL-6.3", msg("cul.refuse.colors_non_empty_list_colours", colours=repr(colours))
        )
    mask = 0
    for colour in colours:
        i = COLOR_INDEX.get(colour) if isinstance(colour, str) else None
        if i is None:
            raise IllegalAction(
                "CUL-6.3", msg("cul.refuse.unknown_sensor_colour_red_white2", colour=repr(colour))
            )
        if mask & (1 << i):
            raise IllegalAction(
                "CUL-6.3", msg("cul.refuse.colors_names_twice", colour=msg(f"cul.colour.{colour}"))
            )
        mask |= 1 << i
    return None, mask


def block_signature(spaces: list[list[int]], j: int) -> tuple[int, int]:
    """(sensor count, colour mask) seen by inactive block ``j`` in its two side spaces."""
    a, b = spaces[j], spaces[j + 1]
    r, w, k = a[0] + b[0], a[1] + b[1], a[2] + b[2]
    return r + w + k, (1 if r else 0) | (2 if w else 0) | (4 if k else 0)


def candidate_blocks(state: CryptidState) -> list[int]:
    """Inactive-row blocks diagonally adjacent to an active-row block with presence."""
    presence = state.presence
    found: list[int] = []
    for i, block in enumerate(state.rows[state.active]):
        if block in presence:
            if not found or found[-1] != i:
                found.append(i)
            found.append(i + 1)
    return found


def matching_blocks(state: CryptidState, count: int | None, mask: int) -> list[int]:
    spaces = state.sensors[OTHER[state.active]]
    matched = []
    for j in candidate_blocks(state):
        if _signature_matches(block_signature(spaces, j), count, mask):
            matched.append(j)
    return matched


def _gain_evidence(state: CryptidState, seat: str, count: int) -> None:
    if count:
        state.held[seat] += count
        state.wild[OTHER[seat]] = True  # CUL-3.8


def _declare(state: CryptidState, seat: str, kind: object, action: dict[str, Any]) -> None:
    if seat != "cryptid" or kind != "declare":
        raise IllegalAction("CUL-3.9", msg("cul.refuse.hiding_phase_cryptid_declares_trace"))
    count, mask = read_trace(action)
    targets = matching_blocks(state, count, mask)
    active_row, inactive_row = state.rows[state.active], state.rows[OTHER[state.active]]
    presence = state.presence
    presence.difference_update(active_row)  # returned to supply (or moved, when it runs out)
    if len(presence) + len(targets) > PRESENCE_MARKERS:  # CUL-4.4 says this cannot happen
        raise IllegalAction("CUL-4.4", msg("cul.refuse.hiding_phase_would_need_more"))
    gained = 0
    for j in targets:
        block = inactive_row[j]
        presence.add(block)
        if block in state.evidence:
            state.evidence.discard(block)
            gained += 1
    _gain_evidence(state, "cryptid", gained)
    state.trace = (
        {"count": count}
        if count is not None
        else {"colors": [COLORS[i] for i in range(3) if mask & (1 << i)]}
    )
    # For the replay: every inactive-row block the trace matches (CUL-3.9), and those of
    # them that received a presence marker, as they stood at the declaration (CUL-6.3).
    spaces = state.sensors[OTHER[state.active]]
    state.trace["matching"] = [
        block
        for j, block in enumerate(inactive_row)
        if _signature_matches(block_signature(spaces, j), count, mask)
    ]
    state.trace["marked"] = [inactive_row[j] for j in targets]
    _victory(state)


def _signature_matches(signature: tuple[int, int], count: int | None, mask: int) -> bool:
    n, m = signature
    return n == count if count is not None else m == mask


# --------------------------------------------------------------------------- Victory phase
def _victory(state: CryptidState) -> None:
    inactive_row = state.rows[OTHER[state.active]]
    presence = state.presence
    if (
        state.block_count() == MAX_BLOCKS
        and inactive_row[0] in presence
        and inactive_row[-1] in presence
    ):
        state.result = {"winner": "cryptid", "reason": "escape", "evidence": dict(state.held)}
    elif len(presence) <= 1:
        state.result = {"winner": "scientist", "reason": "capture", "evidence": dict(state.held)}
    elif not state.block_pool:
        evidence = {
            seat: state.held[seat] + sum(1 for b in state.rows[seat] if b in state.evidence)
            for seat in SEATS
        }
        # 5 markers, all distributed once the deck is empty: never a tie
        winner = "cryptid" if evidence["cryptid"] > evidence["scientist"] else "scientist"
        state.result = {"winner": winner, "reason": "timeout", "evidence": evidence}
    if state.result is not None:
        state.phase = "over"
    elif state.block_count() >= MAX_BLOCKS:
        state.phase = "blockade"
    else:
        begin_expansion(state)


# --------------------------------------------------------------------------- Blockade phase
def blockade_sides(state: CryptidState) -> list[str]:
    """The sides the scientist may choose (a pair holding a presence marker is not allowed)."""
    active_row, inactive_row = state.rows[state.active], state.rows[OTHER[state.active]]
    presence = state.presence
    sides = []
    if active_row[0] not in presence and inactive_row[0] not in presence:
        sides.append("left")
    if active_row[-1] not in presence and inactive_row[-1] not in presence:
        sides.append("right")
    return sides


def _blockade(state: CryptidState, seat: str, kind: object, action: dict[str, Any]) -> None:
    if seat != "scientist" or kind != "blockade":
        raise IllegalAction("CUL-3.11", msg("cul.refuse.blockade_phase_scientist_removes_pair"))
    side = get_str(action, "side", "CUL-3.11", msg("cul.what.blockade"), choices=SIDES)
    if side not in blockade_sides(state):
        raise IllegalAction(
            "CUL-3.11",
            msg("cul.refuse.pair_includes_block_with_presence", side=msg(f"cul.side.{side}")),
        )
    end = 0 if side == "left" else -1
    inactive = OTHER[state.active]
    gained = 0
    for row in (state.active, inactive):
        block = state.rows[row].pop(end)
        if block in state.evidence:
            state.evidence.discard(block)
            gained += 1
    _gain_evidence(state, "scientist", gained)
    state.sensors[state.active].pop(end)  # empty: the active row holds no sensors now
    outside = state.sensors[inactive].pop(end)
    if any(outside):
        state.displaced = outside
        state.phase = "relocate"
    else:
        begin_expansion(state)


def _relocate(state: CryptidState, seat: str, kind: object, action: dict[str, Any]) -> None:
    if seat != "cryptid" or kind != "relocate":
        raise IllegalAction("CUL-6.4", msg("cul.refuse.after_blockade_cryptid_relocates_displaced"))
    spaces = state.sensors[OTHER[state.active]]
    target = get_dict(action, "to", "CUL-6.4", msg("cul.what.relocation"))
    moves = []
    total = [0, 0, 0]
    for key, value in target.items():
        index = int(key) if isinstance(key, str) and key.isascii() and key.isdigit() else -1
        if not 0 <= index < len(spaces):
            raise IllegalAction(
                "CUL-6.4",
                msg(
                    "cul.refuse.relocation_names_space_inactive_row",
                    key=repr(key),
                    n_spaces=str(len(spaces) - 1),
                ),
            )
        if not isinstance(value, dict):
            raise IllegalAction(
                "CUL-6.4",
                msg("cul.refuse.relocation_space_colour_counts", key=key, value=repr(value)),
            )
        group = group_from(value, "CUL-6.4", msg("cul.what.relocation_to", space=key))
        moves.append((index, group))
        for i in range(3):
            total[i] += group[i]
    displaced = state.displaced
    assert displaced is not None, "the relocate phase keeps the sensors it displaced"
    if total != displaced:
        raise IllegalAction(
            "CUL-6.4",
            msg(
                "cul.refuse.relocation_places_place_exactly_displaced",
                total=describe_group(total),
                displaced=describe_group(displaced),
            ),
        )
    for index, group in moves:
        for i in range(3):
            spaces[index][i] += group[i]
    state.displaced = None
    begin_expansion(state)


# --------------------------------------------------------------------------- Expansion phase
def _draw_block(state: CryptidState, rng: Rng) -> str:
    pool = state.block_pool
    if state.guaranteed:
        # the pool is sorted normal-first: the normal blocks left are its head
        normals = sum(1 for b in pool if b not in MYSTERIOUS)
        state.guaranteed -= 1
        return pool.pop(rng.below(normals))
    return pool.pop(rng.below(len(pool)))


def begin_expansion(state: CryptidState) -> None:
    state.phase = "expansion"
    if state.rng is not None:
        state.pending_blocks = [_draw_block(state, state.rng), _draw_block(state, state.rng)]


def possible_blocks(state: CryptidState) -> list[str]:
    """Blocks the next draw from the block deck could be (CUL-2.3, CUL-2.4)."""
    if state.guaranteed:
        return [b for b in state.block_pool if b not in MYSTERIOUS]
    return list(state.block_pool)


def _expand(state: CryptidState, seat: str, kind: object, action: dict[str, Any]) -> dict[str, Any]:
    expander = state.active
    if seat != expander or kind != "expand":
        raise IllegalAction(
            "CUL-3.12",
            msg(
                "cul.refuse.expansion_phase_nearer_active_row",
                expander=msg(f"cul.seat_word.{expander}"),
            ),
        )
    left, right = action.get("left"), action.get("right")
    recorded = action
    if state.rng is not None and state.pending_blocks is not None:
        drawn = state.pending_blocks
        if left is None and right is None:
            left, right = drawn
            recorded = {**action, "left": left, "right": right}
        elif sorted((str(left), str(right))) != sorted(drawn):
            raise IllegalAction(
                "CUL-2.4",
                msg(
                    "cul.refuse.blocks_placed_differ_from_seed",
                    left=left,
                    right=right,
                    drawn=str(drawn),
                ),
            )
        state.pending_blocks = None
    else:
        if left is None or right is None:
            raise IllegalAction("CUL-2.4", msg("cul.refuse.without_seed_expand_name_both"))
        for block in (left, right):
            if block not in BLOCK_ORDER:
                raise IllegalAction(
                    "CUL-1.4", msg("cul.refuse.unknown_city_block_n_n", block=repr(block))
                )
        if left == right:
            raise IllegalAction(
                "CUL-2.4", msg("cul.refuse.same_block_cannot_drawn_twice", left=left)
            )
        possible = possible_blocks(state)
        for block in (left, right):
            if block not in possible:
                if block in MYSTERIOUS and state.guaranteed:
                    reason = msg("cul.refuse.reason.first_normal", count=GUARANTEED_NORMAL)
                else:
                    reason = msg("cul.refuse.reason.not_in_deck")
                raise IllegalAction(
                    "CUL-2.4", msg("cul.refuse.block_cannot_drawn", block=block, reason=reason)
                )
        state.block_pool.remove(left)
        state.block_pool.remove(right)
        state.guaranteed = max(0, state.guaranteed - 2)
    row = state.rows[expander]
    # Both are block names by now (the seed's draw, or checked against BLOCK_ORDER).
    row.insert(0, str(left))
    row.append(str(right))
    spaces = state.sensors[expander]
    spaces.insert(0, [0, 0, 0])
    spaces.append([0, 0, 0])
    for block in (left, right):
        if block in MYSTERIOUS:
            state.evidence.add(block)
    # a new round: the row holding the sensors becomes the active row
    state.round += 1
    state.active = OTHER[expander]
    state.turn = state.active
    state.phase = "sensor"
    state.active_sensors = sum(sum(space) for space in state.sensors[state.active])
    return recorded


# --------------------------------------------------------------------------- apply
def apply(state: CryptidState, action: dict[str, Any]) -> dict[str, Any]:
    if not isinstance(action, dict):
        raise IllegalAction("CUL-3.1", msg("cul.refuse.action_object"))
    seat = action.get("seat")
    if seat not in SEATS:
        raise IllegalAction(
            "CUL-1.1", msg("cul.refuse.unknown_seat_seats_cryptid_scientist", seat=repr(seat))
        )
    kind = action.get("type")
    phase = state.phase
    if phase == "sensor":
        return _sensor_phase(state, seat, kind, action)
    if phase == "hiding":
        _declare(state, seat, kind, action)
    elif phase == "expansion":
        return _expand(state, seat, kind, action)
    elif phase == "blockade":
        _blockade(state, seat, kind, action)
    elif phase == "relocate":
        _relocate(state, seat, kind, action)
    else:
        raise IllegalAction("CUL-3.10", msg("cul.refuse.game_over_nothing_may_follow"))
    return action
