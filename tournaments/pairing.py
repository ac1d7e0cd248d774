"""Pairing an event's rounds: pure Python, no Django.

Three formats share one vocabulary (:class:`Entrant`, :class:`PlayedGame`,
:class:`Bye`, :class:`Table`):

* :func:`round_robin` — the circle method (Berger tables), a bye for odd counts;
* :func:`pair_swiss` — two-seat Swiss rounds, paired by the criteria below, in
  the order an arbiter applies them (or both roles per pairing with ``double``);
* :func:`pair_swiss_tables` — tables of N players (Mister X, Cloak & Dagger)
  with seats rotated across rounds.

Two-seat Swiss: the criteria, in order
--------------------------------------

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
next, wherever 1–4 allow it: before any score-group rule, as this module did
before issue 23.

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

from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

import networkx as nx

PlayerId = int | str
Seating = tuple[tuple[str, PlayerId], ...]  # (seat, player) in seat order


class PairingError(Exception):
    """No pairing satisfies the hard constraints (forbidden pairings, table sizes)."""


@dataclass(frozen=True)
class Entrant:
    id: PlayerId
    name: str
    rating: float = 0.0


@dataclass(frozen=True)
class PlayedGame:
    """One game of a past round: who sat where and the points each player took."""

    round: int
    seats: Seating
    points: dict[PlayerId, float]
    #: a game scored without being played: counts as a meeting for pairing,
    #: and as nothing for the opponent-based tie-breaks
    forfeit: bool = False

    @property
    def players(self) -> list[PlayerId]:
        return [player for _seat, player in self.seats]


@dataclass(frozen=True)
class Bye:
    round: int
    player: PlayerId
    points: float


@dataclass(frozen=True)
class Table:
    """One pairing of a round: a board of two, a table of N, or a bye."""

    board: int
    players: tuple[PlayerId, ...]
    #: the games to play: one seating, or two (roles swapped) with ``double``;
    #: empty for a bye
    games: tuple[Seating, ...]
    #: why the table was made, as what to say (:data:`Said`): each reader is told it in
    #: their language (``tournaments.explanations``)
    why: Said

    @property
    def is_bye(self) -> bool:
        return not self.games

    @property
    def explanation(self) -> str:
        """Why, in English, as this module writes it (each claim of it is checked by the
        tests; the site keeps it beside ``why`` for search)."""
        return english(self.why)


@dataclass
class History:
    """What the pairing of the next round needs to know about the past ones."""

    games: list[PlayedGame] = field(default_factory=list)
    byes: list[Bye] = field(default_factory=list)

    def points(self) -> dict[PlayerId, float]:
        total: dict[PlayerId, float] = defaultdict(float)
        for game in self.games:
            for player, pts in game.points.items():
                total[player] += pts
        for bye in self.byes:
            total[bye.player] += bye.points
        return total

    def meetings(self) -> dict[frozenset[PlayerId], int]:
        """Rounds in which each pair of players met (a double pairing counts once)."""
        rounds: dict[frozenset[PlayerId], set[int]] = defaultdict(set)
        for game in self.games:
            players = game.players
            for i, a in enumerate(players):
                for b in players[i + 1 :]:
                    if a != b:
                        rounds[frozenset((a, b))].add(game.round)
        return {pair: len(rs) for pair, rs in rounds.items()}

    def seat_counts(self, role_class: Callable[[str], str]) -> dict[PlayerId, Counter[str]]:
        counts: dict[PlayerId, Counter[str]] = defaultdict(Counter)
        for game in self.games:
            if game.forfeit:
                continue
            for seat, player in game.seats:
                counts[player][role_class(seat)] += 1
        return counts

    def role_sequences(self, role_class: Callable[[str], str]
                       ) -> dict[PlayerId, list[tuple[int, str]]]:
        """Per player, the role (class) of each round played over the board, in round
        order; ``""`` for a round in which they played both roles (double)."""
        by_round: dict[PlayerId, dict[int, str]] = defaultdict(dict)
        for game in self.games:
            if game.forfeit:
                continue
            for seat, player in game.seats:
                role = role_class(seat)
                seen = by_round[player].get(game.round)
                by_round[player][game.round] = role if seen in (None, role) else ""
        return {player: sorted(rounds.items()) for player, rounds in by_round.items()}

    def bye_count(self) -> Counter[PlayerId]:
        return Counter(bye.player for bye in self.byes)


def fmt_points(value: float) -> str:
    """``3`` or ``2.5``: points as organisers write them."""
    return f"{value:g}"


def fmt_pts(value: float) -> str:
    """``1 pt``, ``2.5 pts``."""
    return f"{fmt_points(value)} pt" + ("" if value == 1 else "s")


def _identity(seat: str) -> str:
    return seat


# --------------------------------------------------------------------------------------
# Explanations, as what to say
# --------------------------------------------------------------------------------------

#: A sentence kept as what to say, so that each reader is told it in their language:
#: ``{"id": msgid, "params": {...}}``, the msgid an English template with ``{name}``
#: placeholders marked for the site's catalog; a plural adds ``"plural"`` and chooses by
#: ``params["count"]``. A parameter is text or a number written as it is (a player's
#: name), another sentence, or one of: ``{"role": id}`` (a role or seat, named as the
#: game names it; ``"seats"`` lists the table's seats when the name depends on them),
#: ``{"points": n}`` (a score, with its unit), ``{"list": [...], "join": "and" |
#: "comma" | "semicolon" | "plus"}`` (``plus``: the terms of a sum, `` + `` in every language).
Said = dict[str, Any]


def gettext_noop(text: str) -> str:
    """Marks ``text`` for the site's translation catalog (``makemessages`` extracts calls of
    this name) and returns it as it is: this module is pure Python; the pages translate
    what it says (``pairing_rules(translate=...)``, ``tournaments.explanations``)."""
    return text


def ngettext(singular: str, plural: str, count: int) -> tuple[str, str, int]:
    """Marks a plural pair for the site's catalog as :func:`gettext_noop` marks a text
    (``makemessages`` extracts both forms of calls of this name); translates nothing."""
    return singular, plural, count


def _say(msgid: str, **params: Any) -> Said:
    return {"id": msgid, "params": params}


def _say_count(forms: tuple[str, str, int], **params: Any) -> Said:
    singular, plural, count = forms
    return {"id": singular, "plural": plural, "params": {"count": count, **params}}


def _role(role: str, seats: Sequence[str] = ()) -> Said:
    return {"role": role, "seats": list(seats)} if seats else {"role": role}


def _points(value: float) -> Said:
    return {"points": value}


def _listed(items: Sequence[Any], join: str) -> Said:
    return {"list": list(items), "join": join}


_ENGLISH_JOINS = {"and": " and ", "comma": ", ", "semicolon": "; ", "plus": " + "}


def english(said: Any) -> str:
    """What ``said`` says, in English: roles by their ids, points as ``1 pt``."""
    if not isinstance(said, dict):
        return str(said)
    if "role" in said:
        return str(said["role"])
    if "points" in said:
        return fmt_pts(said["points"])
    if "list" in said:
        return _ENGLISH_JOINS[said["join"]].join(english(item) for item in said["list"])
    params = said.get("params") or {}
    template = said["plural"] if "plural" in said and params.get("count") != 1 else said["id"]
    return template.format(**{name: english(value) for name, value in params.items()})


# --------------------------------------------------------------------------------------
# Round-robin
# --------------------------------------------------------------------------------------


def round_robin(
    entrants: Sequence[Entrant],
    roles: tuple[str, str],
    *,
    double: bool = False,
) -> list[list[Table]]:
    """Every round of a round-robin, by the circle method, in Berger-table order.

    With an odd count a phantom joins the circle; whoever meets it has the bye.
    The rounds of the circle method are played in the order ``0, n/2, 2·n/2, …``
    (mod n−1), as Berger tables do, so that players alternate between the two
    rows of the circle and therefore between the two roles; the fixed player
    alternates by round. Each player's roles end within one of each other.
    """
    if len(entrants) < 2:
        raise PairingError("a round-robin needs at least two players")
    circle: list[Entrant | None] = list(entrants)
    if len(circle) % 2:
        circle.append(None)
    n = len(circle)
    fixed, others = circle[-1], circle[:-1]
    schedule: list[list[Table]] = []
    for round_index in range(n - 1):
        shift = (round_index * (n // 2)) % (n - 1)
        ring = others[shift:] + others[:shift]
        # (first, second): first takes roles[0]. The fixed player alternates.
        pairs = [(ring[0], fixed) if round_index % 2 == 0 else (fixed, ring[0])]
        pairs += [(ring[k], ring[n - 1 - k]) for k in range(1, n // 2)]
        tables: list[Table] = []
        bye_tables: list[Table] = []
        for first, second in pairs:
            if first is None or second is None:
                player = second if first is None else first
                assert player is not None
                bye_tables.append(
                    Table(0, (player.id,), (), _say(
                        gettext_noop("bye: {player} sits out round {round} of the circle (odd "
                                     "number of players)"), player=player.name, round=round_index + 1))
                )
                continue
            games: tuple[Seating, ...] = (((roles[0], first.id), (roles[1], second.id)),)
            if double:
                games += (((roles[0], second.id), (roles[1], first.id)),)
                why = _say(gettext_noop("round-robin (circle method, Berger order): {first} meets "
                                        "{second} in round {round}; both roles are played"),
                           first=first.name, second=second.name, round=round_index + 1)
            else:
                why = _say(gettext_noop("round-robin (circle method, Berger order): {first} meets "
                                        "{second} in round {round}; {first} takes {first_role}, "
                                        "{second} takes {second_role} (Berger tables alternate roles)"),
                           first=first.name, second=second.name, round=round_index + 1,
                           first_role=_role(roles[0]), second_role=_role(roles[1]))
            tables.append(Table(0, (first.id, second.id), games, why))
        numbered = [
            Table(i + 1, t.players, t.games, t.why)
            for i, t in enumerate(tables + bye_tables)
        ]
        schedule.append(numbered)
    return schedule


# --------------------------------------------------------------------------------------
# Swiss, two seats
# --------------------------------------------------------------------------------------

#: The criteria of the module docstring as an organiser reads them on the event page:
#: (kind, sentence, whether it is about roles — not shown when each pairing plays both).
#: ``{first}`` and ``{second}`` are the two roles; the ``strict`` rule only applies with
#: the strict role parity option.
SWISS_RULES: tuple[tuple[str, str, bool], ...] = (
    ("absolute", gettext_noop("No two players meet twice (a forfeit counts as a meeting), and players "
                              "kept apart by the organiser never meet."), False),
    ("absolute", gettext_noop("No player has a second bye while someone else has had none."), False),
    ("absolute", gettext_noop("No player's roles differ by more than two ({first} games minus {second} "
                              "games), and no one plays the same role three times in a row."), True),
    ("absolute", gettext_noop("The bye goes to the lowest score group from which everyone else can be "
                              "paired by the rules above."), False),
    ("strict", gettext_noop("Strict role parity (this event's option): no player's roles differ by "
                            "more than one, wherever the rules above allow it, before any score-group "
                            "rule."), True),
    ("score groups", gettext_noop("As few players as possible float out of their score group, counted "
                                  "from the top group down (the leaders' group is kept whole first); "
                                  "then the smallest score differences between opponents."), False),
    ("roles", gettext_noop("As many players as possible get their due role: the one that evens their "
                           "count, or with even counts the one they did not play last; a player one "
                           "role ahead (a strong claim) before one with even counts."), True),
    ("roles", gettext_noop("On a board where both are due the same role: the stronger claim, then the "
                           "role history (each takes the role opposite to the one they had when their "
                           "roles last differed), then the higher-ranked player. In round one the "
                           "higher-ranked player takes {first} on odd boards, {second} on even ones."), True),
    ("rating order", gettext_noop("Within a score group the top half meets the bottom half in rating "
                                  "order; a player floating down is the lowest-ranked of their group "
                                  "and meets the highest-ranked of the next; the bye goes to the "
                                  "lowest-ranked player of its group who may have it."), False),
)

#: The kinds of rule, as the page names them.
RULE_KINDS = {
    "absolute": gettext_noop("absolute"), "strict": gettext_noop("strict"),
    "score groups": gettext_noop("score groups"), "roles": gettext_noop("roles"),
    "rating order": gettext_noop("rating order"), "round-robin": gettext_noop("round-robin"),
    "tables": gettext_noop("tables"), "seats": gettext_noop("seats"),
}


def pairing_rules(*, swiss: bool, roles: tuple[str, str], table_size: int = 2,
                  double: bool = False, strict_roles: bool = False,
                  translate: Callable[[str], str] = gettext_noop) -> list[tuple[str, str]]:
    """How this module pairs an event, as (kind, sentence) for its page, in the order
    the rules are applied; ``translate`` says each in the reader's language."""
    def rule(kind: str, text: str, **values: object) -> tuple[str, str]:
        return translate(RULE_KINDS[kind]), translate(text).format(**values)

    if not swiss:
        return [rule("round-robin", gettext_noop("Everyone meets everyone once, in the order of Berger "
                                                 "tables (the circle method); with an odd number of "
                                                 "players one sits out each round.")),
                rule("roles", gettext_noop("Both roles in every pairing.")) if double else
                rule("roles", gettext_noop("Berger tables alternate {first} and {second}, so every "
                                           "player's roles end within one of each other."),
                     first=roles[0], second=roles[1])]
    if table_size > 2:
        return [rule("tables", gettext_noop("Tables of {size} are cut from the standings in order (one "
                                            "smaller at the end when the count does not divide); players "
                                            "are then swapped between tables while that avoids a "
                                            "forbidden pair, a repeat meeting, or a table spread over "
                                            "distant score groups."), size=table_size),
                rule("seats", gettext_noop("At each table, seats go to the players who have held that "
                                           "role (then that seat) least, the higher-ranked player first."))]
    rules = [rule(kind, text, first=roles[0], second=roles[1])
             for kind, text, about_roles in SWISS_RULES
             if (kind != "strict" or strict_roles) and not (double and about_roles)]
    if double:
        rules.append(rule("roles", gettext_noop("Every pairing plays both roles, one game each.")))
    return rules


#: The cost of pairing two players (or giving one the bye), compared level by
#: level, in the order of the criteria: a pairing is better than another when it
#: is better at the first level where they differ. Each level is an integer per
#: edge; the levels are packed into one integer weight with a base larger than
#: any total of the levels below, so networkx's maximum-weight perfect matching
#: minimises them in order.
SWISS_COST_LEVELS: tuple[tuple[str, str], ...] = (
    ("repeat", "the pair met before (per earlier meeting)"),
    ("role_break", "players whose role difference would pass 2 or who would play a role "
                   "a third time in a row"),
    ("bye_group", "the bye's score group lies this many groups above the lowest group "
                  "holding a player who may take it"),
    ("role_parity", "strict role parity only: how far past 1 the players' role "
                    "differences would go"),
    ("floats", "the score-group boundaries the pair crosses, a boundary nearer the top "
               "weighing more than every lower one together"),
    ("score_gap", "squared score difference of the two players, in hundredths of a point"),
    ("due_role", "players not getting their due role"),
    ("strong_role", "players not getting a strong (or absolute) claim"),
    ("order", "departure from top half v bottom half within a group; for a float, how "
              "far the floater is from the bottom of its group and its opponent from the "
              "top of theirs; for the bye, how far above the bottom of its group the "
              "player stands"),
)
_LEVEL = {name: i for i, (name, _text) in enumerate(SWISS_COST_LEVELS)}


def _cost(**levels: int) -> tuple[int, ...]:
    """A cost tuple in the order of :data:`SWISS_COST_LEVELS`; levels not named are 0."""
    unknown = set(levels) - set(_LEVEL)
    if unknown:
        raise ValueError(f"unknown cost levels {sorted(unknown)}")
    return tuple(levels.get(name, 0) for name, _text in SWISS_COST_LEVELS)

_BYE = "__bye__"


class Claim(IntEnum):
    """How much a player wants their due role (the colour preferences of a chess Swiss)."""

    NONE = 0  # no game played yet
    MILD = 1  # an even difference: the role not played last
    STRONG = 2  # one role ahead: the other role
    ABSOLUTE = 3  # two ahead, or the same role twice running: the other breaks rule 3


@dataclass
class _Standing:
    entrant: Entrant
    seed: int
    points: float
    rank: int = 0
    group: int = 0  # 0 = highest score group
    pos: int = 0  # position inside its group, 0 = top
    group_size: int = 0
    roles: Counter[str] = field(default_factory=Counter)
    byes: int = 0


@dataclass(frozen=True)
class _RoleState:
    """A player's two-seat role history: 0 is the first role, 1 the second."""

    difference: int  # games in the first role minus games in the second
    played: tuple[tuple[int, int | None], ...]  # (round, role); None: both (double)

    @classmethod
    def of(cls, sequence: Sequence[tuple[int, str]], classes: tuple[str, str]) -> _RoleState:
        played = tuple((rnd, classes.index(role) if role in classes else None)
                       for rnd, role in sequence)
        difference = sum(1 if role == 0 else -1 for _r, role in played if role is not None)
        return cls(difference, played)

    @property
    def streak(self) -> int | None:
        """The role of the last two games when it is the same role twice."""
        if len(self.played) >= 2 and self.played[-1][1] == self.played[-2][1]:
            return self.played[-1][1]
        return None

    @property
    def due(self) -> tuple[int | None, Claim]:
        """The role this player should play next, and how strongly."""
        d, streak = self.difference, self.streak
        if abs(d) >= 2:
            return (1 if d > 0 else 0), Claim.ABSOLUTE
        if streak is not None:
            return 1 - streak, Claim.ABSOLUTE
        if d:
            return (1 if d > 0 else 0), Claim.STRONG
        last = self.played[-1][1] if self.played else None
        return (None, Claim.NONE) if last is None else (1 - last, Claim.MILD)

    def breaks(self, role: int) -> bool:
        """Playing ``role`` passes a difference of 2 or makes three in a row."""
        return abs(self.after(role)) > 2 or self.streak == role

    def after(self, role: int) -> int:
        return self.difference + (1 if role == 0 else -1)


def _role_costs(first: _RoleState, second: _RoleState, strict: bool) -> tuple[int, ...]:
    """(role_break, role_parity, due_role, strong_role) when ``first`` takes the first
    role and ``second`` the second."""
    breaks = parity = missed = strong = 0
    for state, role in ((first, 0), (second, 1)):
        breaks += state.breaks(role)
        if strict:
            parity += max(0, abs(state.after(role)) - 1)
        due, claim = state.due
        if due is not None and due != role:
            missed += 1
            strong += claim >= Claim.STRONG
    return breaks, parity, missed, strong


def _standings(entrants: Sequence[Entrant], history: History,
               role_class: Callable[[str], str]) -> dict[PlayerId, _Standing]:
    points = history.points()
    seat_counts = history.seat_counts(role_class)
    byes = history.bye_count()
    rows = [
        _Standing(e, seed, points.get(e.id, 0.0), roles=seat_counts.get(e.id, Counter()),
                  byes=byes.get(e.id, 0))
        for seed, e in enumerate(entrants)
    ]
    rows.sort(key=lambda r: (-r.points, -r.entrant.rating, r.seed))
    groups = sorted({r.points for r in rows}, reverse=True)
    by_group: dict[float, list[_Standing]] = defaultdict(list)
    for rank, row in enumerate(rows):
        row.rank = rank + 1
        row.group = groups.index(row.points)
        by_group[row.points].append(row)
    for members in by_group.values():
        for pos, row in enumerate(members):
            row.pos, row.group_size = pos, len(members)
    return {r.entrant.id: r for r in rows}


def _order_cost(hi: _Standing, lo: _Standing) -> int:
    if hi.group == lo.group:
        return abs((lo.pos - hi.pos) - hi.group_size // 2)
    return (hi.group_size - 1 - hi.pos) + lo.pos


def _pack(costs: dict[tuple[str, str], tuple[int, ...]], matched_edges: int) -> dict:
    """Integer weights whose maximum-weight perfect matching minimises the cost levels
    lexicographically (networkx computes with integers exactly)."""
    levels = len(SWISS_COST_LEVELS)
    bounds = [matched_edges * max((c[k] for c in costs.values()), default=0) + 1
              for k in range(levels)]
    multipliers = [1] * levels
    for k in range(levels - 2, -1, -1):
        multipliers[k] = multipliers[k + 1] * bounds[k + 1]
    packed = {edge: sum(c[k] * multipliers[k] for k in range(levels))
              for edge, c in costs.items()}
    top = max(packed.values(), default=0) + 1
    return {edge: top - value for edge, value in packed.items()}


def pair_swiss(
    entrants: Sequence[Entrant],
    history: History,
    *,
    roles: tuple[str, str],
    double: bool = False,
    forbidden: Collection[frozenset[PlayerId]] = (),
    role_class: Callable[[str], str] = _identity,
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
    rows = _standings(entrants, history, role_class)
    classes = (role_class(roles[0]), role_class(roles[1]))
    sequences = history.role_sequences(role_class)
    states = {pid: _RoleState.of(sequences.get(pid, ()), classes) for pid in ids}
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
                role = min(_role_costs(sa, sb, strict_roles), _role_costs(sb, sa, strict_roles))
            costs[(key[a], key[b])] = _cost(
                repeat=meetings.get(frozenset((a, b)), 0), role_break=role[0],
                role_parity=role[1], floats=prefix[lo.group] - prefix[hi.group],
                score_gap=round(abs(hi.points - lo.points) * 100) ** 2,
                due_role=role[2], strong_role=role[3], order=_order_cost(hi, lo))
    bye_group = None
    if len(ids) % 2:
        # At most one bye per player: only those with the fewest byes may have it.
        fewest = min(r.byes for r in rows.values())
        eligible = [rows[pid] for pid in ids if rows[pid].byes == fewest]
        bye_group = max(r.group for r in eligible)
        for r in eligible:
            costs[(key[r.entrant.id], _BYE)] = _cost(
                bye_group=bye_group - r.group, order=r.group_size - 1 - r.pos)
    node_count = len(ids) + len(ids) % 2
    weights = _pack(costs, node_count // 2)
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
            + ", ".join(left))

    pairs: list[tuple[_Standing, _Standing, tuple[int, ...]]] = []
    bye_row: _Standing | None = None
    for u, v in matching:
        if _BYE in (u, v):
            bye_row = rows[by_key[v if u == _BYE else u]]
            continue
        a, b = rows[by_key[u]], rows[by_key[v]]
        hi, lo = (a, b) if a.rank < b.rank else (b, a)
        pairs.append((hi, lo, costs.get((u, v)) or costs[(v, u)]))
    pairs.sort(key=lambda t: (t[0].group, t[0].rank))

    round_ = _RoundFacts(rows, pairs, bye_row, strict_roles, forbidden_pairs)
    tables: list[Table] = []
    for board, (hi, lo, c) in enumerate(pairs, start=1):
        if double:
            games: tuple[Seating, ...] = (
                ((roles[0], hi.entrant.id), (roles[1], lo.entrant.id)),
                ((roles[0], lo.entrant.id), (roles[1], hi.entrant.id)))
            role_text: Said = _say(gettext_noop("double: each plays both roles"))
        else:
            hi_first, reason = _choose_roles(hi, lo, states[hi.entrant.id],
                                             states[lo.entrant.id], board, strict_roles)
            first, second = (hi, lo) if hi_first else (lo, hi)
            games = (((roles[0], first.entrant.id), (roles[1], second.entrant.id)),)
            role_text = _explain_roles(first, second, states, roles, reason)
        tables.append(Table(board, (hi.entrant.id, lo.entrant.id), games,
                            round_.explain_pair(hi, lo, c, role_text)))
    if bye_row is not None:
        tables.append(Table(len(tables) + 1, (bye_row.entrant.id,), (),
                            round_.explain_bye(bye_row, bye_group)))
    return tables


def _choose_roles(hi: _Standing, lo: _Standing, hs: _RoleState, ls: _RoleState, board: int,
                  strict: bool) -> tuple[bool, str]:
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
        costs = _role_costs(hs, ls, strict) if hi_first else _role_costs(ls, hs, strict)
        hi_miss = hi_due is not None and hi_due != hi_role
        lo_miss = lo_due is not None and lo_due != lo_role
        loser = (hi_claim, abs(hs.difference)) if hi_miss else (
            (lo_claim, abs(ls.difference)) if lo_miss else (Claim.NONE, 0))
        return (costs, loser, int(history_hi_first is not None and history_hi_first != hi_first),
                int(hi_miss), int(hi_first != (board % 2 == 1)))

    with_hi, with_lo = key(True), key(False)
    hi_first = with_hi <= with_lo
    reasons = ("costs", "claim", "history", "rank", "board")
    decided = next((reasons[i] for i in range(5) if with_hi[i] != with_lo[i]), "board")
    if decided == "costs":
        (hi_costs, lo_costs) = with_hi[0], with_lo[0]
        if hi_costs[0] == lo_costs[0]:
            decided = "parity" if hi_costs[1] != lo_costs[1] else (
                # Only the due-role levels differ: both got their due roles, or a claim won.
                "both" if min(hi_costs[2], lo_costs[2]) == 0 else "claim")
    return hi_first, decided


_CLAIM_WORD = {Claim.MILD: gettext_noop("mild"), Claim.STRONG: gettext_noop("strong"),
               Claim.ABSOLUTE: gettext_noop("absolute")}


def _explain_roles(first: _Standing, second: _Standing, states: dict[PlayerId, _RoleState],
                   roles: tuple[str, str], reason: str) -> Said:
    parts = []
    pair = ((first, 0), (second, 1))
    for i, (r, role) in enumerate(pair):
        other = pair[1 - i][0].entrant.name
        state = states[r.entrant.id]
        due, claim = state.due
        if due is None:
            why = _say(gettext_noop("no role due"))
        elif due == role:
            why = _say(gettext_noop("as due ({claim})"), claim=_say(_CLAIM_WORD[claim]))
        else:
            swapped = [x.entrant.name for x, x_role in pair
                       if states[x.entrant.id].breaks(1 - x_role)]
            because = {
                "costs": _say(gettext_noop("the other way round breaks a role limit for {players}"),
                              players=_listed(swapped, "and")),
                "parity": _say(gettext_noop("strict role parity: the other way round leaves the "
                                            "roles further from even")),
                "claim": _say(gettext_noop("{player}'s claim to it is stronger"), player=other),
                "history": _say(gettext_noop("{player} is due it too, and had {role} when their "
                                             "roles last differed"),
                                player=other, role=_role(roles[1 - due])),
                "rank": _say(gettext_noop("{player} is due it too and ranks higher"), player=other),
            }.get(reason) or _say(gettext_noop("{player} is due it too"), player=other)
            why = _say(gettext_noop("though due {role} ({claim}): {reason}"), role=_role(roles[due]),
                       claim=_say(_CLAIM_WORD[claim]), reason=because)
        counts = sum(1 for _r, x in state.played if x == 0), sum(
            1 for _r, x in state.played if x == 1)
        values = {"player": r.entrant.name, "role": _role(roles[role]), "first_role": _role(roles[0]),
                  "first_count": counts[0], "second_role": _role(roles[1]),
                  "second_count": counts[1], "why": why}
        if state.breaks(role):
            limit = (_say(gettext_noop("a third time in a row")) if state.streak == role
                     else _say(gettext_noop("for a role difference of {difference}"),
                               difference=abs(state.after(role))))
            parts.append(_say(gettext_noop(
                "{player} takes {role} ({first_role} {first_count}, {second_role} {second_count} "
                "so far; {why}) [{role} {limit}: no pairing of this round keeps every role limit "
                "without more repeat meetings]"), limit=limit, **values))
        else:
            parts.append(_say(gettext_noop(
                "{player} takes {role} ({first_role} {first_count}, {second_role} {second_count} "
                "so far; {why})"), **values))
    return _listed(parts, "semicolon")


class _RoundFacts:
    """What the explanations of one round say about the round as a whole."""

    def __init__(self, rows: dict[PlayerId, _Standing],
                 pairs: list[tuple[_Standing, _Standing, tuple[int, ...]]],
                 bye: _Standing | None, strict: bool,
                 forbidden: set[frozenset[PlayerId]]):
        self.rows, self.pairs, self.bye, self.strict = rows, pairs, bye, strict
        self.forbidden = forbidden
        self.violations = sum(c[_LEVEL["repeat"]] + c[_LEVEL["role_break"]]
                              for _h, _l, c in pairs)

    def explain_pair(self, hi: _Standing, lo: _Standing, costs: tuple[int, ...],
                     role_text: Said) -> Said:
        if hi.group == lo.group:
            half = (_say(gettext_noop("top half v bottom half")) if costs[_LEVEL["order"]] == 0 else
                    _say(gettext_noop("nearest to top half v bottom half that the rules above allow")))
            grouping = _say(gettext_noop("same score group ({points}), {half}"),
                            points=_points(hi.points), half=half)
        else:
            grouping = _say(gettext_noop("{floater} floats down from the {points}-point group to "
                                         "meet {opponent} of the {lower}-point group ({why})"),
                            floater=hi.entrant.name, points=fmt_points(hi.points),
                            opponent=lo.entrant.name, lower=fmt_points(lo.points),
                            why=self._why_float(hi))
        repeats = costs[_LEVEL["repeat"]]
        meeting = (_say(gettext_noop("first meeting")) if repeats == 0 else
                   _say(gettext_noop("meeting number {number}: no pairing of this round avoids "
                                     "every repeat meeting"), number=repeats + 1))
        values = {"hi": _who(hi), "lo": _who(lo), "grouping": grouping, "meeting": meeting,
                  "roles": role_text}
        if costs[_LEVEL["role_parity"]]:
            return _say(gettext_noop("{hi} v {lo}: {grouping}; {meeting}; {roles}; a role difference "
                                     "of two could not be avoided (strict role parity)"), **values)
        return _say(gettext_noop("{hi} v {lo}: {grouping}; {meeting}; {roles}"), **values)

    def _why_float(self, hi: _Standing) -> Said:
        """Why players float out at the boundary below ``hi``'s group."""
        at_or_above = [r for r in self.rows.values() if r.group <= hi.group and r is not self.bye]
        crossing = sum(1 for h, lo, _c in self.pairs if h.group <= hi.group < lo.group)
        count = len(at_or_above)
        players = _say_count(ngettext("{count} player to pair stands", "{count} players to pair stand",
                                      count))
        if count % 2 and crossing == 1:
            return _say(gettext_noop("{players} at {points} or more, an odd number, so one floats down"),
                        players=players, points=_points(hi.points))
        causes = {
            (False, False): gettext_noop("a repeat meeting, a role break, or more floats higher up"),
            (True, False): gettext_noop("a kept-apart pair, a repeat meeting, a role break, or more "
                                        "floats higher up"),
            (False, True): gettext_noop("a repeat meeting, a role break, a role difference of two, or "
                                        "more floats higher up"),
            (True, True): gettext_noop("a kept-apart pair, a repeat meeting, a role break, a role "
                                       "difference of two, or more floats higher up"),
        }[(bool(self.forbidden), self.strict)]
        return _say(gettext_noop("{players} at {points} or more; fewer than {crossing} of them "
                                 "floating down would need {causes}"),
                    players=players, points=_points(hi.points), crossing=crossing, causes=_say(causes))

    def explain_bye(self, r: _Standing, lowest: int | None) -> Said:
        lowest_points = next(x.points for x in self.rows.values() if x.group == lowest)
        may = [x for x in self.rows.values() if x.byes == r.byes]
        if r.group == lowest:
            where = (_say(gettext_noop("the lowest score group ({points})"), points=_points(lowest_points))
                     if lowest == max(x.group for x in self.rows.values()) else
                     _say(gettext_noop("the lowest score group holding a player who may have it "
                                       "({points})"), points=_points(lowest_points)))
        else:
            # A rule the organiser set, not a cost: named where it may be the cause.
            rules = {
                (False, True): gettext_noop("without a repeat meeting or a role break"),
                (False, False): gettext_noop("with no more repeat meetings and role breaks than this "
                                             "round must have"),
                (True, True): gettext_noop("keeping apart the players kept apart, without a repeat "
                                           "meeting or a role break"),
                (True, False): gettext_noop("keeping apart the players kept apart, with no more repeat "
                                            "meetings and role breaks than this round must have"),
            }[(bool(self.forbidden), self.violations == 0)]
            where = _say(gettext_noop("the {points}-point group, the lowest from which the rest can be "
                                      "paired {rules}"), points=fmt_points(r.points), rules=_say(rules))
        below = sorted((x for x in may if x.group == r.group and x.pos > r.pos),
                       key=lambda x: x.pos)
        if below:
            blocked = [x for x in below if not self._pairable_without(x)]
            worse = [x for x in below if x not in blocked]
            reasons = []
            if blocked:
                reasons.append(_say(gettext_noop("the bye to {players} would leave players kept apart "
                                                 "to meet"), players=_names(blocked)))
            if worse:
                reasons.append(_say(gettext_noop("the bye to {players} pairs the rest worse (more "
                                                 "floats, fewer due roles, or further from rating "
                                                 "order)"), players=_names(worse)))
            rank = _say(gettext_noop("not the lowest-ranked there: {reasons}"),
                        reasons=_listed(reasons, "semicolon"))
        else:
            rank = _say(gettext_noop("ranked lowest there among players who may take it"))
        previous = (_say(gettext_noop("has had no bye")) if r.byes == 0
                    else _say(gettext_noop("every player has had a bye already; this is {player}'s "
                                           "number {number}"), player=r.entrant.name, number=r.byes + 1))
        return _say(gettext_noop("bye: odd number of players; {player} is in {where}, {rank}, and "
                                 "{previous}"), player=_who(r), where=where, rank=rank, previous=previous)

    def _pairable_without(self, bye: _Standing) -> bool:
        """Whether everyone but ``bye`` can be paired with no kept-apart pair meeting."""
        if not self.forbidden:
            return True
        others = [pid for pid in self.rows if pid != bye.entrant.id]
        graph = nx.Graph()
        graph.add_nodes_from(others)
        graph.add_edges_from((a, b) for i, a in enumerate(others) for b in others[i + 1 :]
                             if frozenset((a, b)) not in self.forbidden)
        return len(nx.max_weight_matching(graph, maxcardinality=True)) * 2 == len(others)


def _names(rows: Sequence[_Standing]) -> Said:
    return _listed([r.entrant.name for r in rows], "comma")


def _who(r: _Standing) -> Said:
    """A player with their place and score: ``ann (#1, 2 pts)``."""
    return _say(gettext_noop("{player} (#{rank}, {points})"), player=r.entrant.name, rank=r.rank,
                points=_points(r.points))


# --------------------------------------------------------------------------------------
# Swiss, tables of N
# --------------------------------------------------------------------------------------

_TABLE_REPEAT = 10**6


def table_sizes(player_count: int, table_size: int, min_size: int) -> list[int]:
    """Tables of ``table_size``, the last ones one smaller when the count does not divide."""
    if player_count < min_size:
        raise PairingError(f"{player_count} players cannot fill a table of {min_size}")
    tables = -(-player_count // table_size)
    short = tables * table_size - player_count
    if short > tables or (short and table_size - 1 < min_size):
        raise PairingError(
            f"{player_count} players do not split into tables of {table_size} "
            f"(or {table_size - 1})")
    return [table_size] * (tables - short) + [table_size - 1] * short


def pair_swiss_tables(
    entrants: Sequence[Entrant],
    history: History,
    *,
    table_size: int,
    seat_names: Callable[[int], Sequence[str]],
    role_class: Callable[[str], str] = _identity,
    min_size: int = 2,
    forbidden: Collection[frozenset[PlayerId]] = (),
    max_passes: int = 30,
) -> list[Table]:
    """Pair the next Swiss round of an N-player game as tables.

    Tables are cut from the standings in order (the top ``table_size`` players
    at table 1, …; the last tables one smaller when the count does not divide),
    then players are swapped between tables while a swap lowers the table cost:
    forbidden pairs, then repeat meetings, then the spread of score groups at a
    table (sum of squared group distances). Seats are then assigned per table as a
    minimum-cost assignment (networkx matching) that rotates each player through
    the roles (``role_class``) and seats they have held least.
    """
    rows = _standings(entrants, history, role_class)
    ranked = sorted(rows.values(), key=lambda r: r.rank)
    sizes = table_sizes(len(ranked), table_size, min_size)
    meetings = history.meetings()
    forbidden_pairs = {frozenset(p) for p in forbidden}

    def pair_cost(a: _Standing, b: _Standing) -> int:
        pair = frozenset((a.entrant.id, b.entrant.id))
        if pair in forbidden_pairs:
            return _TABLE_REPEAT * 1000
        return meetings.get(pair, 0) * _TABLE_REPEAT + (a.group - b.group) ** 2

    def table_cost(members: list[_Standing]) -> int:
        return sum(pair_cost(a, b) for i, a in enumerate(members) for b in members[i + 1 :])

    tables: list[list[_Standing]] = []
    start = 0
    for size in sizes:
        tables.append(ranked[start : start + size])
        start += size
    swapped: list[tuple[str, str]] = []
    for _ in range(max_passes):
        improved = False
        for ti in range(len(tables)):
            for tj in range(ti + 1, len(tables)):
                for i in range(len(tables[ti])):
                    for j in range(len(tables[tj])):
                        before = table_cost(tables[ti]) + table_cost(tables[tj])
                        a, b = tables[ti][i], tables[tj][j]
                        tables[ti][i], tables[tj][j] = b, a
                        after = table_cost(tables[ti]) + table_cost(tables[tj])
                        if after < before:
                            improved = True
                            swapped.append((a.entrant.name, b.entrant.name))
                        else:
                            tables[ti][i], tables[tj][j] = a, b
        if not improved:
            break
    if any(table_cost(t) >= _TABLE_REPEAT * 1000 for t in tables):
        raise PairingError("no table plan keeps the forbidden pairings apart")

    seat_counts = history.seat_counts(_identity)
    result: list[Table] = []
    for board, members in enumerate(tables, start=1):
        members.sort(key=lambda r: r.rank)
        seats = list(seat_names(len(members)))
        seating = _assign_seats(members, seats, role_class, seat_counts)
        repeats = sum(meetings.get(frozenset((a.entrant.id, b.entrant.id)), 0)
                      for i, a in enumerate(members) for b in members[i + 1 :])
        names = _listed([_who(r) for r in members], "comma")
        seat_text = _listed([_say_count(
            ngettext("{player} sits {seat} (held {role} {count} time before)",
                     "{player} sits {seat} (held {role} {count} times before)",
                     rows[p].roles[role_class(seat)]),
            player=rows[p].entrant.name, seat=_role(seat, seats), role=_role(role_class(seat)))
            for seat, p in seating], "semicolon")
        moved = [_listed(list(s), "and") for s in swapped
                 if any(r.entrant.name in s for r in members)]
        meetings = (_say_count(ngettext("{count} repeat meeting could not be avoided",
                                        "{count} repeat meetings could not be avoided", repeats))
                    if repeats else _say(gettext_noop("no one has met before")))
        values = {"size": len(members), "players": names, "meetings": meetings, "seats": seat_text}
        text = (_say(gettext_noop("table of {size} cut from the standings: {players}; swaps to avoid "
                                  "repeat meetings or forbidden pairs: {swaps}; {meetings}; {seats}"),
                     swaps=_listed(moved, "comma"), **values) if moved else
                _say(gettext_noop("table of {size} cut from the standings: {players}; {meetings}; "
                                  "{seats}"), **values))
        result.append(Table(board, tuple(r.entrant.id for r in members), (seating,), text))
    return result


def _assign_seats(members: list[_Standing], seats: list[str],
                  role_class: Callable[[str], str],
                  seat_counts: dict[PlayerId, Counter[str]]) -> Seating:
    """Seats for one table: fewest times in the seat's role first, then in the exact
    seat, then the higher-ranked player in the earlier seat; a maximum-weight
    perfect matching of players to seats."""
    graph = nx.Graph()
    costs: dict[tuple[str, str], int] = {}
    n = len(members)
    for i, r in enumerate(members):
        for j, seat in enumerate(seats):
            role_times = r.roles[role_class(seat)]
            seat_times = seat_counts.get(r.entrant.id, Counter())[seat]
            costs[(f"p{i}", f"s{j}")] = (role_times * (n + 1) + seat_times) * (n * n + 1) \
                + abs(i - j)
    top = max(costs.values()) + 1
    for (u, v), c in costs.items():
        graph.add_edge(u, v, weight=top - c)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    seat_of: dict[int, int] = {}
    for u, v in matching:
        p, s = (u, v) if u.startswith("p") else (v, u)
        seat_of[int(s[1:])] = int(p[1:])
    return tuple((seat, members[seat_of[j]].entrant.id) for j, seat in enumerate(seats))
