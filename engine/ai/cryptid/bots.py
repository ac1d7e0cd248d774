"""Bots for Cryptid: Urban Legends: ``random`` and ``greedy``.

Both decide only from what their seat knows: the table, their own hand and the
public piles (``legal_actions`` reads nothing else).

The greedy bot looks one action ahead at the *best trace*: the most inactive-row
blocks one declaration could put presence markers on, given where the sensors
stand now. The cryptid maximises it, the scientist minimises it; ties prefer a
card to a draw and a draw to spending the wild card, then fall to chance.
"""

from __future__ import annotations

from typing import Any

from engine.ai.search import search_bot
from engine.core.rng import Rng
from engine.games.cryptid.legal import legal_actions
from engine.games.cryptid.rules import (
    blockade_sides,
    candidate_blocks,
    matching_blocks,
    read_trace,
)
from engine.games.cryptid.state import COLOR_INDEX, COLORS, MAX_BLOCKS, OTHER, CryptidState

Action = dict[str, Any]


def random_relocation(state: CryptidState, seat: str, rng: Rng) -> Action:
    """A relocation with each displaced sensor on a random inactive-row space."""
    spaces = len(state.sensors[OTHER[state.active]])
    to: dict[str, dict[str, int]] = {}
    for c, n in enumerate(state.displaced or ()):
        for _ in range(n):
            group = to.setdefault(str(rng.below(spaces)), {})
            group[COLORS[c]] = group.get(COLORS[c], 0) + 1
    return {"seat": seat, "type": "relocate", "to": to}


def random_bot(game: Any, state: CryptidState, seat: str, rng: Rng) -> Action:
    """Any legal action, uniformly (a relocation: each sensor to a random space)."""
    if state.phase == "relocate":
        return random_relocation(state, seat, rng)
    return rng.choice(legal_actions(state, seat))


def best_trace_size(state: CryptidState, spaces: list[list[int]]) -> int:
    """The most candidate blocks one trace matches, with the inactive row's sensors ``spaces``."""
    return _trace_size(candidate_blocks(state), spaces)


def _trace_size(candidates: list[int], spaces: list[list[int]]) -> int:
    """:func:`best_trace_size` over the candidate blocks ``candidates`` (the signature of
    :func:`~engine.games.cryptid.rules.block_signature` written out: the greedy bot asks
    this for every action of every playout's turn)."""
    tally: dict[int, int] = {}  # a count n as n, a colour mask m as -m
    get = tally.get
    for j in candidates:
        a, b = spaces[j], spaces[j + 1]
        r, w, k = a[0] + b[0], a[1] + b[1], a[2] + b[2]
        n = r + w + k
        tally[n] = get(n, 0) + 1
        if n:
            mask = -((1 if r else 0) | (2 if w else 0) | (4 if k else 0))
            tally[mask] = get(mask, 0) + 1
    return max(tally.values(), default=0)


def _after_effect(state: CryptidState, effect: str, action: Action) -> list[list[int]]:
    """The inactive row's spaces after ``effect`` resolves as ``action`` says (already legal)."""
    active = state.sensors[state.active]
    spaces = [list(space) for space in state.sensors[OTHER[state.active]]]
    if effect == "split":
        i = action["space"]
        for side, target in (("left", i), ("right", i + 1)):
            for colour, n in action[side].items():
                spaces[target][COLOR_INDEX[colour]] += n
    elif effect == "shuffle":
        i = action["space"]
        spaces[i - 1 if action["dir"] == "left" else i + 2][COLOR_INDEX[action["color"]]] += 1
    else:
        c = COLOR_INDEX[action["color"]]
        shift = 1 if action["dir"] == "right" else 0
        for i, group in enumerate(active):
            spaces[i + shift][c] += group[c]
    return spaces


_PREFERENCE = {"play": 2, "draw": 1, "wild": 0}


def _pick(rng: Rng, scored: list[tuple[Any, Action]]) -> Action:
    best = max(score for score, _ in scored)
    return rng.choice([action for score, action in scored if score == best])


def greedy_bot(game: Any, state: CryptidState, seat: str, rng: Rng) -> Action:
    phase = state.phase
    if phase == "relocate":
        return random_relocation(state, seat, rng)
    actions = legal_actions(state, seat)
    sign = 1 if seat == "cryptid" else -1
    if phase == "sensor":
        candidates = candidate_blocks(state)
        now = _trace_size(candidates, state.sensors[OTHER[state.active]])
        # a card and the wild card played as it resolve alike: each resolution sized once
        sizes: dict[tuple[Any, ...], int] = {}
        scored: list[tuple[Any, Action]] = []
        for action in actions:
            kind = action["type"]
            if kind == "draw":
                size = now
            else:
                effect = action["card"] if kind == "play" else action["as"]
                key = (
                    effect,
                    action.get("space"),
                    action.get("color"),
                    action.get("dir"),
                    *action.get("left", {}).items(),
                    None,
                    *action.get("right", {}).items(),
                )
                found = sizes.get(key)
                if found is None:
                    spaces = _after_effect(state, effect, action)
                    found = sizes[key] = _trace_size(candidates, spaces)
                size = found
            scored.append(((sign * size, _PREFERENCE[kind]), action))
        return _pick(rng, scored)
    if phase == "hiding":
        last = len(state.rows[OTHER[state.active]]) - 1
        seven = state.block_count() == MAX_BLOCKS
        inactive_row = state.rows[OTHER[state.active]]
        scored = []
        for action in actions:
            count, mask = read_trace(action)
            targets = matching_blocks(state, count, mask)
            escape = seven and bool(targets) and targets[0] == 0 and targets[-1] == last
            evidence = sum(1 for j in targets if inactive_row[j] in state.evidence)
            scored.append(((escape, len(targets), evidence), action))
        return _pick(rng, scored)
    if phase == "blockade":
        scored = []
        for side in blockade_sides(state):
            end = 0 if side == "left" else -1
            taken = sum(1 for row in state.rows.values() if row[end] in state.evidence)
            scored.append((taken, {"seat": seat, "type": "blockade", "side": side}))
        return _pick(rng, scored)
    return rng.choice(actions)


#: the search level's budget: iterations per decision (each a greedy playout to the end)
SEARCH_PLAYOUTS = 32
#: the UCB exploration constant per seat (bench/README.md: the cryptid's search wins
#: clearly only exploring less; the scientist's was measured at the core's default)
EXPLORATION = {"cryptid": 0.3, "scientist": 0.7}


def make_search_level(**options: Any) -> Any:
    """The ``search`` level with these :class:`~engine.ai.search.Search` options
    (``playouts``, ``exploration``, ...) over its defaults (the benchmark tunes with it)."""
    settings: dict[str, Any] = {"playouts": SEARCH_PLAYOUTS, **options}
    playouts = settings.pop("playouts")
    searches = {
        seat: search_bot(playouts, **{"exploration": exploration, **settings})
        for seat, exploration in EXPLORATION.items()
    }

    def search_level(game: Any, state: CryptidState, seat: str, rng: Rng) -> Action:
        """Sensor-phase turns, declarations and blockades by search (ISMCTS over the seat's
        beliefs, engine/ai/search.py); relocations and expansions as ``greedy`` makes them."""
        if state.phase in ("relocate", "expansion"):
            return greedy_bot(game, state, seat, rng)
        return searches[seat](game, state, seat, rng)

    return search_level


search_level = make_search_level()
