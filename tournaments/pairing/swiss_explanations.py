"""Why each table of a two-seat Swiss round was made: the score group, the meeting, the
roles, the bye, each claim of which the tests check against the history."""

from __future__ import annotations

from collections.abc import Sequence

import networkx as nx

from engine import Message
from tournaments.pairing.costs import LEVEL
from tournaments.pairing.explanations import (
    Counted,
    clauses,
    fmt_points,
    listing,
    role_name,
    score,
    sentence,
)
from tournaments.pairing.records import PlayerId
from tournaments.pairing.standing import Claim, RoleState, Standing

PLAYERS_TO_PAIR = Counted("{count} player to pair stands", "{count} players to pair stand")
CLAIM_WORD = {
    Claim.MILD: sentence("mild"),
    Claim.STRONG: sentence("strong"),
    Claim.ABSOLUTE: sentence("absolute"),
}


def explain_roles(
    first: Standing,
    second: Standing,
    states: dict[PlayerId, RoleState],
    roles: tuple[str, str],
    reason: str,
) -> Message:
    parts = []
    pair = ((first, 0), (second, 1))
    for i, (r, role) in enumerate(pair):
        other = pair[1 - i][0].entrant.name
        state = states[r.entrant.id]
        due, claim = state.due
        if due is None:
            why = sentence("no role due")
        elif due == role:
            why = sentence("as due ({claim})", claim=CLAIM_WORD[claim])
        else:
            swapped = [
                x.entrant.name for x, x_role in pair if states[x.entrant.id].breaks(1 - x_role)
            ]
            because = {
                "costs": sentence(
                    "the other way round breaks a role limit for {players}", players=swapped
                ),
                "parity": sentence(
                    "strict role parity: the other way round leaves the roles further from even"
                ),
                "claim": sentence("{player}'s claim to it is stronger", player=other),
                "history": sentence(
                    "{player} is due it too, and had {role} when their roles last differed",
                    player=other,
                    role=role_name(roles[1 - due]),
                ),
                "rank": sentence("{player} is due it too and ranks higher", player=other),
            }.get(reason) or sentence("{player} is due it too", player=other)
            why = sentence(
                "though due {role} ({claim}): {reason}",
                role=role_name(roles[due]),
                claim=CLAIM_WORD[claim],
                reason=because,
            )
        counts = (
            sum(1 for _r, x in state.played if x == 0),
            sum(1 for _r, x in state.played if x == 1),
        )
        values = {
            "player": r.entrant.name,
            "role": role_name(roles[role]),
            "first_role": role_name(roles[0]),
            "first_count": counts[0],
            "second_role": role_name(roles[1]),
            "second_count": counts[1],
            "why": why,
        }
        if state.breaks(role):
            limit = (
                sentence("a third time in a row")
                if state.streak == role
                else sentence(
                    "for a role difference of {difference}", difference=abs(state.after(role))
                )
            )
            parts.append(
                sentence(
                    "{player} takes {role} ({first_role} {first_count}, {second_role} "
                    "{second_count} "
                    "so far; {why}) [{role} {limit}: no pairing of this round keeps every role "
                    "limit "
                    "without more repeat meetings]",
                    limit=limit,
                    **values,
                )
            )
        else:
            parts.append(
                sentence(
                    "{player} takes {role} ({first_role} {first_count}, {second_role} "
                    "{second_count} "
                    "so far; {why})",
                    **values,
                )
            )
    return clauses(parts)


class RoundFacts:
    """What the explanations of one round say about the round as a whole."""

    def __init__(
        self,
        rows: dict[PlayerId, Standing],
        pairs: list[tuple[Standing, Standing, tuple[int, ...]]],
        bye: Standing | None,
        strict: bool,
        forbidden: set[frozenset[PlayerId]],
    ):
        self.rows, self.pairs, self.bye, self.strict = rows, pairs, bye, strict
        self.forbidden = forbidden
        self.violations = sum(c[LEVEL["repeat"]] + c[LEVEL["role_break"]] for _h, _l, c in pairs)

    def explain_pair(
        self, hi: Standing, lo: Standing, costs: tuple[int, ...], role_text: Message
    ) -> Message:
        if hi.group == lo.group:
            half = (
                sentence("top half v bottom half")
                if costs[LEVEL["order"]] == 0
                else sentence("nearest to top half v bottom half that the rules above allow")
            )
            grouping = sentence(
                "same score group ({points}), {half}", points=score(hi.points), half=half
            )
        else:
            grouping = sentence(
                "{floater} floats down from the {points}-point group to "
                "meet {opponent} of the {lower}-point group ({why})",
                floater=hi.entrant.name,
                points=fmt_points(hi.points),
                opponent=lo.entrant.name,
                lower=fmt_points(lo.points),
                why=self._why_float(hi),
            )
        repeats = costs[LEVEL["repeat"]]
        meeting = (
            sentence("first meeting")
            if repeats == 0
            else sentence(
                "meeting number {number}: no pairing of this round avoids every repeat meeting",
                number=repeats + 1,
            )
        )
        values = {
            "hi": said_who(hi),
            "lo": said_who(lo),
            "grouping": grouping,
            "meeting": meeting,
            "roles": role_text,
        }
        if costs[LEVEL["role_parity"]]:
            return sentence(
                "{hi} v {lo}: {grouping}; {meeting}; {roles}; a role difference "
                "of two could not be avoided (strict role parity)",
                **values,
            )
        return sentence("{hi} v {lo}: {grouping}; {meeting}; {roles}", **values)

    def _why_float(self, hi: Standing) -> Message:
        """Why players float out at the boundary below ``hi``'s group."""
        at_or_above = [r for r in self.rows.values() if r.group <= hi.group and r is not self.bye]
        crossing = sum(1 for h, lo, _c in self.pairs if h.group <= hi.group < lo.group)
        count = len(at_or_above)
        players = PLAYERS_TO_PAIR(count)
        if count % 2 and crossing == 1:
            return sentence(
                "{players} at {points} or more, an odd number, so one floats down",
                players=players,
                points=score(hi.points),
            )
        causes = {
            (False, False): sentence("a repeat meeting, a role break, or more floats higher up"),
            (True, False): sentence(
                "a kept-apart pair, a repeat meeting, a role break, or more floats higher up"
            ),
            (False, True): sentence(
                "a repeat meeting, a role break, a role difference of two, or more floats higher up"
            ),
            (True, True): sentence(
                "a kept-apart pair, a repeat meeting, a role break, a role "
                "difference of two, or more floats higher up"
            ),
        }[(bool(self.forbidden), self.strict)]
        return sentence(
            "{players} at {points} or more; fewer than {crossing} of them "
            "floating down would need {causes}",
            players=players,
            points=score(hi.points),
            crossing=crossing,
            causes=causes,
        )

    def explain_bye(self, r: Standing, lowest: int | None) -> Message:
        lowest_points = next(x.points for x in self.rows.values() if x.group == lowest)
        may = [x for x in self.rows.values() if x.byes == r.byes]
        if r.group == lowest:
            where = (
                sentence("the lowest score group ({points})", points=score(lowest_points))
                if lowest == max(x.group for x in self.rows.values())
                else sentence(
                    "the lowest score group holding a player who may have it ({points})",
                    points=score(lowest_points),
                )
            )
        else:
            # A rule the organiser set, not a cost: named where it may be the cause.
            rules = {
                (False, True): sentence("without a repeat meeting or a role break"),
                (False, False): sentence(
                    "with no more repeat meetings and role breaks than this round must have"
                ),
                (True, True): sentence(
                    "keeping apart the players kept apart, without a repeat meeting or a role break"
                ),
                (True, False): sentence(
                    "keeping apart the players kept apart, with no more repeat "
                    "meetings and role breaks than this round must have"
                ),
            }[(bool(self.forbidden), self.violations == 0)]
            where = sentence(
                "the {points}-point group, the lowest from which the rest can be paired {rules}",
                points=fmt_points(r.points),
                rules=rules,
            )
        below = sorted(
            (x for x in may if x.group == r.group and x.pos > r.pos), key=lambda x: x.pos
        )
        if below:
            blocked = [x for x in below if not self._pairable_without(x)]
            worse = [x for x in below if x not in blocked]
            reasons = []
            if blocked:
                reasons.append(
                    sentence(
                        "the bye to {players} would leave players kept apart to meet",
                        players=said_names(blocked),
                    )
                )
            if worse:
                reasons.append(
                    sentence(
                        "the bye to {players} pairs the rest worse (more "
                        "floats, fewer due roles, or further from rating "
                        "order)",
                        players=said_names(worse),
                    )
                )
            rank = sentence("not the lowest-ranked there: {reasons}", reasons=clauses(reasons))
        else:
            rank = sentence("ranked lowest there among players who may take it")
        previous = (
            sentence("has had no bye")
            if r.byes == 0
            else sentence(
                "every player has had a bye already; this is {player}'s number {number}",
                player=r.entrant.name,
                number=r.byes + 1,
            )
        )
        return sentence(
            "bye: odd number of players; {player} is in {where}, {rank}, and {previous}",
            player=said_who(r),
            where=where,
            rank=rank,
            previous=previous,
        )

    def _pairable_without(self, bye: Standing) -> bool:
        """Whether everyone but ``bye`` can be paired with no kept-apart pair meeting."""
        if not self.forbidden:
            return True
        others = [pid for pid in self.rows if pid != bye.entrant.id]
        graph = nx.Graph()
        graph.add_nodes_from(others)
        graph.add_edges_from(
            (a, b)
            for i, a in enumerate(others)
            for b in others[i + 1 :]
            if frozenset((a, b)) not in self.forbidden
        )
        return len(nx.max_weight_matching(graph, maxcardinality=True)) * 2 == len(others)


def said_names(rows: Sequence[Standing]) -> Message:
    return listing([r.entrant.name for r in rows])


def said_who(r: Standing) -> Message:
    """A player with their place and score: ``ann (#1, 2 pts)``."""
    return sentence(
        "{player} (#{rank}, {points})", player=r.entrant.name, rank=r.rank, points=score(r.points)
    )
