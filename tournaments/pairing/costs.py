"""The cost of a Swiss pairing, level by level, and its packing into the integer weights
of one maximum-weight matching."""

from __future__ import annotations

#: The cost of pairing two players (or giving one the bye), compared level by
#: level, in the order of the criteria: a pairing is better than another when it
#: is better at the first level where they differ. Each level is an integer per
#: edge; the levels are packed into one integer weight with a base larger than
#: any total of the levels below, so networkx's maximum-weight perfect matching
#: minimises them in order.
SWISS_COST_LEVELS: tuple[tuple[str, str], ...] = (
    ("repeat", "the pair met before (per earlier meeting)"),
    (
        "role_break",
        "players whose role difference would pass 2 or who would play a role a third time in a row",
    ),
    (
        "bye_group",
        "the bye's score group lies this many groups above the lowest group "
        "holding a player who may take it",
    ),
    (
        "role_parity",
        "strict role parity only: how far past 1 the players' role differences would go",
    ),
    (
        "floats",
        "the score-group boundaries the pair crosses, a boundary nearer the top "
        "weighing more than every lower one together",
    ),
    ("score_gap", "squared score difference of the two players, in hundredths of a point"),
    ("due_role", "players not getting their due role"),
    ("strong_role", "players not getting a strong (or absolute) claim"),
    (
        "order",
        "departure from top half v bottom half within a group; for a float, how "
        "far the floater is from the bottom of its group and its opponent from the "
        "top of theirs; for the bye, how far above the bottom of its group the "
        "player stands",
    ),
)
LEVEL = {name: i for i, (name, _text) in enumerate(SWISS_COST_LEVELS)}


def cost(**levels: int) -> tuple[int, ...]:
    """A cost tuple in the order of :data:`SWISS_COST_LEVELS`; levels not named are 0."""
    unknown = set(levels) - set(LEVEL)
    if unknown:
        raise ValueError(f"unknown cost levels {sorted(unknown)}")
    return tuple(levels.get(name, 0) for name, _text in SWISS_COST_LEVELS)


def pack(costs: dict[tuple[str, str], tuple[int, ...]], matched_edges: int) -> dict:
    """Integer weights whose maximum-weight perfect matching minimises the cost levels
    lexicographically (networkx computes with integers exactly)."""
    levels = len(SWISS_COST_LEVELS)
    bounds = [
        matched_edges * max((c[k] for c in costs.values()), default=0) + 1 for k in range(levels)
    ]
    multipliers = [1] * levels
    for k in range(levels - 2, -1, -1):
        multipliers[k] = multipliers[k + 1] * bounds[k + 1]
    packed = {edge: sum(c[k] * multipliers[k] for k in range(levels)) for edge, c in costs.items()}
    top = max(packed.values(), default=0) + 1
    return {edge: top - value for edge, value in packed.items()}
