"""Two-seat Swiss rounds, paired by the criteria below, in the order an arbiter applies
them (or both roles per pairing with ``double``).

The criteria, in order
----------------------

They follow the FIDE Dutch system, with the two roles of the game in place of
the colours (the first role, Cryptid's cryptid, counts as White). A player's
*role difference* is the number of games played in the first role minus those
in the second; games are those played over the board (byes, forfeits and absent
rounds are skipped, a double round plays both roles).

Absolute — broken only where no pairing of the round keeps them, and then the
board says so:

1. No two players meet twice (a forfeit counts as a meeting); pairs the
   organiser keeps apart never meet at all.
2. No player has a second bye while another player has had none.
3. No player's role difference goes beyond 2, and no player takes the same role
   three times in a row.
4. The bye goes to the lowest score group from which the rest of the field can
   be paired within 1–3 (to its lowest-ranked player, by 8).

With the event option *strict role parity*, a difference beyond 1 is avoided
next, wherever 1–4 allow it: before any score-group rule.

5. Score groups: as few players as possible float out of their score group,
   counted group by group from the top down (the leaders' group is kept whole
   first; a float across two groups counts in both); then the smallest score
   differences on the boards (the sum of their squares).
6. Roles: as many players as possible get their *due role* — the role that
   evens their difference, or, at an even difference, the one they did not play
   last; then as many *strong* claims (a difference of one) as possible. Two
   games in a row in one role make the other role absolute (3).
7. On each board the players get their due roles when these differ; otherwise
   the stronger claim wins (absolute, then strong, then mild; then the larger
   difference), then the role history (each takes the role opposite to the one
   they had in the last round in which their roles differed), then the
   higher-ranked player; with no claim at all (round one) the higher-ranked
   player takes the first role on odd boards, the second on even ones.
8. Rating order: within a score group the top half meets the bottom half in
   order (1st v n/2+1st, …); a player who floats down is the lowest-ranked of
   their group and meets the highest-ranked of the group below; the bye goes to
   the lowest-ranked player who may take it.

The pairing is one maximum-weight perfect matching
(``networkx.max_weight_matching``) over a graph whose edge weights encode these
criteria as a lexicographic cost (:data:`SWISS_COST_LEVELS`), so it is the best
pairing of the round by them, not a greedy approximation; roles are then given
board by board by 6–7 (``_choose_roles``), using the same costs. Every table
carries an explanation of why it was made, each claim of which the tests check
against the history.

Players are identified by opaque ids (``PlayerId``); the order of the entrant
list is the seed order and breaks every remaining tie, so pairing is
deterministic.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

import networkx as nx

from engine import Message
from tournaments.pairing.costs import cost, pack
from tournaments.pairing.explanations import sentence
from tournaments.pairing.records import (
    Entrant,
    History,
    PairingError,
    PlayerId,
    Seating,
    Table,
    identity,
)
from tournaments.pairing.standing import (
    Claim,
    RoleState,
    Standing,
    order_cost,
    rank_players,
    role_costs,
)
from tournaments.pairing.swiss_explanations import RoundFacts, explain_roles

_BYE = "__bye__"


def pair_swiss(
    entrants: Sequence[Entrant],
    history: History,
    *,
    roles: tuple[str, str],
    double: bool = False,
    forbidden: Collection[frozenset[PlayerId]] = (),
    role_class: Callable[[str], str] = identity,
    strict_roles: bool = False,
) -> list[Table]:
    """Pair the next Swiss round of a two-seat game by the criteria of the module.

    ``entrants`` are the players taking part in this round, in seed order;
    ``roles`` the two seats, first role first (``role_class`` maps a seat to the
    role it counts as). ``forbidden`` pairs are never paired (a
    :class:`PairingError` when that leaves no pairing), a second bye is given only
    when everyone has had one; everything else is a cost
    (:data:`SWISS_COST_LEVELS`). ``strict_roles`` adds the strict role parity level.
    """
    if len(entrants) < 2:
        raise PairingError("a Swiss round needs at least two players")
    ids = [e.id for e in entrants]
    if len(set(ids)) != len(ids):
        raise PairingError("a player is entered twice")
    rows = rank_players(entrants, history, role_class)
    classes = (role_class(roles[0]), role_class(roles[1]))
    sequences = history.role_sequences(role_class)
    states = {pid: RoleState.of(sequences.get(pid, ()), classes) for pid in ids}
    meetings = history.meetings()
    forbidden_pairs = {frozenset(p) for p in forbidden}
    group_count = max(r.group for r in rows.values()) + 1
    boards = len(ids) // 2
    # Float weights: crossing the boundary below group h costs base**(G-2-h), base
    # larger than the boards of a round, so one float lower down never outweighs one
    # higher up; prefix[g] sums the boundaries above group g.
    base = boards + 1
    prefix = [0]
    for h in range(group_count - 1):
        prefix.append(prefix[-1] + base ** (group_count - 2 - h))

    costs: dict[tuple[str, str], tuple[int, ...]] = {}
    key = {pid: f"p{rows[pid].seed}" for pid in ids}
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            if frozenset((a, b)) in forbidden_pairs:
                continue
            hi, lo = (rows[a], rows[b]) if rows[a].rank < rows[b].rank else (rows[b], rows[a])
            if double:
                role = (0, 0, 0, 0)
            else:
                # The better way round; _choose_roles seats the board that way.
                sa, sb = states[a], states[b]
                role = min(role_costs(sa, sb, strict_roles), role_costs(sb, sa, strict_roles))
            costs[(key[a], key[b])] = cost(
                repeat=meetings.get(frozenset((a, b)), 0),
                role_break=role[0],
                role_parity=role[1],
                floats=prefix[lo.group] - prefix[hi.group],
                score_gap=round(abs(hi.points - lo.points) * 100) ** 2,
                due_role=role[2],
                strong_role=role[3],
                order=order_cost(hi, lo),
            )
    bye_group = None
    if len(ids) % 2:
        # At most one bye per player: only those with the fewest byes may have it.
        fewest = min(r.byes for r in rows.values())
        eligible = [rows[pid] for pid in ids if rows[pid].byes == fewest]
        bye_group = max(r.group for r in eligible)
        for r in eligible:
            costs[(key[r.entrant.id], _BYE)] = cost(
                bye_group=bye_group - r.group, order=r.group_size - 1 - r.pos
            )
    node_count = len(ids) + len(ids) % 2
    weights = pack(costs, node_count // 2)
    graph = nx.Graph()
    graph.add_nodes_from(sorted(key.values()))
    for (u, v), w in weights.items():
        graph.add_edge(u, v, weight=w)
    matching = nx.max_weight_matching(graph, maxcardinality=True, weight="weight")
    by_key = {k: pid for pid, k in key.items()}
    if len(matching) * 2 != node_count:
        matched = {n for edge in matching for n in edge}
        left = sorted(rows[by_key[k]].entrant.name for k in key.values() if k not in matched)
        raise PairingError(
            "no pairing exists that respects the forbidden pairings; left unpaired: "
            + ", ".join(left)
        )

    pairs: list[tuple[Standing, Standing, tuple[int, ...]]] = []
    bye_row: Standing | None = None
    for u, v in matching:
        if _BYE in (u, v):
            bye_row = rows[by_key[v if u == _BYE else u]]
            continue
        a, b = rows[by_key[u]], rows[by_key[v]]
        hi, lo = (a, b) if a.rank < b.rank else (b, a)
        pairs.append((hi, lo, costs.get((u, v)) or costs[(v, u)]))
    pairs.sort(key=lambda t: (t[0].group, t[0].rank))

    round_ = RoundFacts(rows, pairs, bye_row, strict_roles, forbidden_pairs)
    tables: list[Table] = []
    for board, (hi, lo, c) in enumerate(pairs, start=1):
        if double:
            games: tuple[Seating, ...] = (
                ((roles[0], hi.entrant.id), (roles[1], lo.entrant.id)),
                ((roles[0], lo.entrant.id), (roles[1], hi.entrant.id)),
            )
            role_text: Message = sentence("double: each plays both roles")
        else:
            hi_first, reason = _choose_roles(
                hi, lo, states[hi.entrant.id], states[lo.entrant.id], board, strict_roles
            )
            first, second = (hi, lo) if hi_first else (lo, hi)
            games = (((roles[0], first.entrant.id), (roles[1], second.entrant.id)),)
            role_text = explain_roles(first, second, states, roles, reason)
        tables.append(
            Table(
                board,
                (hi.entrant.id, lo.entrant.id),
                games,
                round_.explain_pair(hi, lo, c, role_text),
            )
        )
    if bye_row is not None:
        tables.append(
            Table(
                len(tables) + 1, (bye_row.entrant.id,), (), round_.explain_bye(bye_row, bye_group)
            )
        )
    return tables


def _choose_roles(
    hi: Standing, lo: Standing, hs: RoleState, ls: RoleState, board: int, strict: bool
) -> tuple[bool, str]:
    """Whether the higher-ranked player takes the first role (criterion 7), and what
    decided it: ``costs`` (the cost levels: role limits, parity, due roles), ``claim``
    (the stronger claim), ``history``, ``rank``, ``board`` or ``both`` (both got their
    due roles, or neither had one to miss)."""
    hi_due, hi_claim = hs.due
    lo_due, lo_claim = ls.due
    # The latest round both played in different single roles: each now takes the other.
    lo_rounds = dict(ls.played)
    history_hi_first = None
    for rnd, role in reversed(hs.played):
        other = lo_rounds.get(rnd)
        if role is not None and other is not None and role != other:
            history_hi_first = role == 1
            break

    def key(hi_first: bool) -> tuple:
        hi_role, lo_role = (0, 1) if hi_first else (1, 0)
        costs = role_costs(hs, ls, strict) if hi_first else role_costs(ls, hs, strict)
        hi_miss = hi_due is not None and hi_due != hi_role
        lo_miss = lo_due is not None and lo_due != lo_role
        loser = (
            (hi_claim, abs(hs.difference))
            if hi_miss
            else ((lo_claim, abs(ls.difference)) if lo_miss else (Claim.NONE, 0))
        )
        return (
            costs,
            loser,
            int(history_hi_first is not None and history_hi_first != hi_first),
            int(hi_miss),
            int(hi_first != (board % 2 == 1)),
        )

    with_hi, with_lo = key(True), key(False)
    hi_first = with_hi <= with_lo
    reasons = ("costs", "claim", "history", "rank", "board")
    decided = next((reasons[i] for i in range(5) if with_hi[i] != with_lo[i]), "board")
    if decided == "costs":
        (hi_costs, lo_costs) = with_hi[0], with_lo[0]
        if hi_costs[0] == lo_costs[0]:
            decided = (
                "parity"
                if hi_costs[1] != lo_costs[1]
                # Only the due-role levels differ: both got their due roles, or a claim won.
                else ("both" if min(hi_costs[2], lo_costs[2]) == 0 else "claim")
            )
    return hi_first, decided
