"""Why each table of a two-seat Swiss round was made: the score group, the meeting, the
roles, the bye, each claim of which the tests check against the history."""

from __future__ import annotations

from collections.abc import Sequence

import networkx as nx

from tournaments.pairing.costs import LEVEL
from tournaments.pairing.explanations import (
    Said,
    fmt_points,
    gettext_noop,
    listed,
    ngettext,
    said_points,
    said_role,
    say,
    say_count,
)
from tournaments.pairing.records import PlayerId
from tournaments.pairing.standing import Claim, RoleState, Standing

CLAIM_WORD = {Claim.MILD: gettext_noop("mild"), Claim.STRONG: gettext_noop("strong"),
               Claim.ABSOLUTE: gettext_noop("absolute")}


def explain_roles(first: Standing, second: Standing, states: dict[PlayerId, RoleState],
                   roles: tuple[str, str], reason: str) -> Said:
    parts = []
    pair = ((first, 0), (second, 1))
    for i, (r, role) in enumerate(pair):
        other = pair[1 - i][0].entrant.name
        state = states[r.entrant.id]
        due, claim = state.due
        if due is None:
            why = say(gettext_noop("no role due"))
        elif due == role:
            why = say(gettext_noop("as due ({claim})"), claim=say(CLAIM_WORD[claim]))
        else:
            swapped = [x.entrant.name for x, x_role in pair
                       if states[x.entrant.id].breaks(1 - x_role)]
            because = {
                "costs": say(gettext_noop("the other way round breaks a role limit for {players}"),
                              players=listed(swapped, "and")),
                "parity": say(gettext_noop("strict role parity: the other way round leaves the "
                                            "roles further from even")),
                "claim": say(gettext_noop("{player}'s claim to it is stronger"), player=other),
                "history": say(gettext_noop("{player} is due it too, and had {role} when their "
                                             "roles last differed"),
                                player=other, role=said_role(roles[1 - due])),
                "rank": say(gettext_noop("{player} is due it too and ranks higher"), player=other),
            }.get(reason) or say(gettext_noop("{player} is due it too"), player=other)
            why = say(gettext_noop("though due {role} ({claim}): {reason}"), role=said_role(roles[due]),
                       claim=say(CLAIM_WORD[claim]), reason=because)
        counts = sum(1 for _r, x in state.played if x == 0), sum(
            1 for _r, x in state.played if x == 1)
        values = {"player": r.entrant.name, "role": said_role(roles[role]), "first_role": said_role(roles[0]),
                  "first_count": counts[0], "second_role": said_role(roles[1]),
                  "second_count": counts[1], "why": why}
        if state.breaks(role):
            limit = (say(gettext_noop("a third time in a row")) if state.streak == role
                     else say(gettext_noop("for a role difference of {difference}"),
                               difference=abs(state.after(role))))
            parts.append(say(gettext_noop(
                "{player} takes {role} ({first_role} {first_count}, {second_role} {second_count} "
                "so far; {why}) [{role} {limit}: no pairing of this round keeps every role limit "
                "without more repeat meetings]"), limit=limit, **values))
        else:
            parts.append(say(gettext_noop(
                "{player} takes {role} ({first_role} {first_count}, {second_role} {second_count} "
                "so far; {why})"), **values))
    return listed(parts, "semicolon")


class RoundFacts:
    """What the explanations of one round say about the round as a whole."""

    def __init__(self, rows: dict[PlayerId, Standing],
                 pairs: list[tuple[Standing, Standing, tuple[int, ...]]],
                 bye: Standing | None, strict: bool,
                 forbidden: set[frozenset[PlayerId]]):
        self.rows, self.pairs, self.bye, self.strict = rows, pairs, bye, strict
        self.forbidden = forbidden
        self.violations = sum(c[LEVEL["repeat"]] + c[LEVEL["role_break"]]
                              for _h, _l, c in pairs)

    def explain_pair(self, hi: Standing, lo: Standing, costs: tuple[int, ...],
                     role_text: Said) -> Said:
        if hi.group == lo.group:
            half = (say(gettext_noop("top half v bottom half")) if costs[LEVEL["order"]] == 0 else
                    say(gettext_noop("nearest to top half v bottom half that the rules above allow")))
            grouping = say(gettext_noop("same score group ({points}), {half}"),
                            points=said_points(hi.points), half=half)
        else:
            grouping = say(gettext_noop("{floater} floats down from the {points}-point group to "
                                         "meet {opponent} of the {lower}-point group ({why})"),
                            floater=hi.entrant.name, points=fmt_points(hi.points),
                            opponent=lo.entrant.name, lower=fmt_points(lo.points),
                            why=self._why_float(hi))
        repeats = costs[LEVEL["repeat"]]
        meeting = (say(gettext_noop("first meeting")) if repeats == 0 else
                   say(gettext_noop("meeting number {number}: no pairing of this round avoids "
                                     "every repeat meeting"), number=repeats + 1))
        values = {"hi": said_who(hi), "lo": said_who(lo), "grouping": grouping, "meeting": meeting,
                  "roles": role_text}
        if costs[LEVEL["role_parity"]]:
            return say(gettext_noop("{hi} v {lo}: {grouping}; {meeting}; {roles}; a role difference "
                                     "of two could not be avoided (strict role parity)"), **values)
        return say(gettext_noop("{hi} v {lo}: {grouping}; {meeting}; {roles}"), **values)

    def _why_float(self, hi: Standing) -> Said:
        """Why players float out at the boundary below ``hi``'s group."""
        at_or_above = [r for r in self.rows.values() if r.group <= hi.group and r is not self.bye]
        crossing = sum(1 for h, lo, _c in self.pairs if h.group <= hi.group < lo.group)
        count = len(at_or_above)
        players = say_count(ngettext("{count} player to pair stands", "{count} players to pair stand",
                                      count))
        if count % 2 and crossing == 1:
            return say(gettext_noop("{players} at {points} or more, an odd number, so one floats down"),
                        players=players, points=said_points(hi.points))
        causes = {
            (False, False): gettext_noop("a repeat meeting, a role break, or more floats higher up"),
            (True, False): gettext_noop("a kept-apart pair, a repeat meeting, a role break, or more "
                                        "floats higher up"),
            (False, True): gettext_noop("a repeat meeting, a role break, a role difference of two, or "
                                        "more floats higher up"),
            (True, True): gettext_noop("a kept-apart pair, a repeat meeting, a role break, a role "
                                       "difference of two, or more floats higher up"),
        }[(bool(self.forbidden), self.strict)]
        return say(gettext_noop("{players} at {points} or more; fewer than {crossing} of them "
                                 "floating down would need {causes}"),
                    players=players, points=said_points(hi.points), crossing=crossing, causes=say(causes))

    def explain_bye(self, r: Standing, lowest: int | None) -> Said:
        lowest_points = next(x.points for x in self.rows.values() if x.group == lowest)
        may = [x for x in self.rows.values() if x.byes == r.byes]
        if r.group == lowest:
            where = (say(gettext_noop("the lowest score group ({points})"), points=said_points(lowest_points))
                     if lowest == max(x.group for x in self.rows.values()) else
                     say(gettext_noop("the lowest score group holding a player who may have it "
                                       "({points})"), points=said_points(lowest_points)))
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
            where = say(gettext_noop("the {points}-point group, the lowest from which the rest can be "
                                      "paired {rules}"), points=fmt_points(r.points), rules=say(rules))
        below = sorted((x for x in may if x.group == r.group and x.pos > r.pos),
                       key=lambda x: x.pos)
        if below:
            blocked = [x for x in below if not self._pairable_without(x)]
            worse = [x for x in below if x not in blocked]
            reasons = []
            if blocked:
                reasons.append(say(gettext_noop("the bye to {players} would leave players kept apart "
                                                 "to meet"), players=said_names(blocked)))
            if worse:
                reasons.append(say(gettext_noop("the bye to {players} pairs the rest worse (more "
                                                 "floats, fewer due roles, or further from rating "
                                                 "order)"), players=said_names(worse)))
            rank = say(gettext_noop("not the lowest-ranked there: {reasons}"),
                        reasons=listed(reasons, "semicolon"))
        else:
            rank = say(gettext_noop("ranked lowest there among players who may take it"))
        previous = (say(gettext_noop("has had no bye")) if r.byes == 0
                    else say(gettext_noop("every player has had a bye already; this is {player}'s "
                                           "number {number}"), player=r.entrant.name, number=r.byes + 1))
        return say(gettext_noop("bye: odd number of players; {player} is in {where}, {rank}, and "
                                 "{previous}"), player=said_who(r), where=where, rank=rank, previous=previous)

    def _pairable_without(self, bye: Standing) -> bool:
        """Whether everyone but ``bye`` can be paired with no kept-apart pair meeting."""
        if not self.forbidden:
            return True
        others = [pid for pid in self.rows if pid != bye.entrant.id]
        graph = nx.Graph()
        graph.add_nodes_from(others)
        graph.add_edges_from((a, b) for i, a in enumerate(others) for b in others[i + 1 :]
                             if frozenset((a, b)) not in self.forbidden)
        return len(nx.max_weight_matching(graph, maxcardinality=True)) * 2 == len(others)


def said_names(rows: Sequence[Standing]) -> Said:
    return listed([r.entrant.name for r in rows], "comma")


def said_who(r: Standing) -> Said:
    """A player with their place and score: ``ann (#1, 2 pts)``."""
    return say(gettext_noop("{player} (#{rank}, {points})"), player=r.entrant.name, rank=r.rank,
                points=said_points(r.points))
