"""Two-seat Swiss against the criteria an arbiter applies (issue 23).

Random events — odd and even fields, withdrawals, late entries, forfeits, draws,
a pair kept apart, strict role parity on or off — are paired round by round by
``pair_swiss``; every round is judged by the independent oracle of
``swiss_oracle``, which enumerates every legal pairing of the round (fields of
at most ten) and measures each by the criteria in their order:

* the absolute criteria hold whenever some pairing satisfies them;
* score-group quality is no worse than the best pairing's, and roles are as good;
* every claim an explanation makes is true of the history and of the round.

``LANTERN_SLOW=1`` runs the long sweep as well (marker ``slow``).
"""

from __future__ import annotations

import os
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.tournaments.swiss_oracle import CLAIM_WORDS, FIRST, SECOND, Round
from tournaments.pairing import (
    SWISS_RULES,
    Bye,
    Entrant,
    History,
    PairingError,
    PlayedGame,
    pair_swiss,
)

ROLES = ("cryptid", "scientist")
SLOW = os.environ.get("LANTERN_SLOW", "").lower() in {"1", "true", "yes"}
slow = pytest.mark.skipif(not SLOW, reason="set LANTERN_SLOW=1 for the long sweep")


def play_event(data: st.DataObject, judge, max_field: int = 10, max_rounds: int = 7) -> int:
    """Draw an event and pair it round by round, calling ``judge(round, tables)`` on
    every round; results are drawn too. Returns the number of rounds judged."""
    start = data.draw(st.integers(3, max_field), label="players")
    rounds = data.draw(st.integers(3, max_rounds), label="rounds")
    strict = data.draw(st.booleans(), label="strict role parity")
    ratings = data.draw(
        st.lists(st.integers(1200, 2500), min_size=max_field * 2, max_size=max_field * 2),
        label="ratings",
    )
    everyone = [Entrant(i, f"p{i}", float(r)) for i, r in enumerate(ratings)]
    active = everyone[:start]
    late = iter(everyone[start:])
    forbidden = []
    if start >= 4 and data.draw(st.integers(0, 3), label="keep a pair apart") == 0:
        forbidden = [frozenset((0, 1))]
    history = History()
    judged = 0
    for round_no in range(1, rounds + 1):
        if round_no > 1 and len(active) > 2 and data.draw(st.integers(0, 3), label="withdraw") == 0:
            active.remove(data.draw(st.sampled_from(active), label="who withdraws"))
        if (
            round_no > 1
            and len(active) < max_field
            and data.draw(st.integers(0, 4), label="late entry") == 0
        ):
            active.append(next(late))
        field = sorted(active, key=lambda e: (-e.rating, e.id))  # seed order
        rnd = Round(field, history, ROLES, forbidden, strict)
        try:
            tables = pair_swiss(
                field, history, roles=ROLES, forbidden=forbidden, strict_roles=strict
            )
        except PairingError:
            assert not any(True for _ in rnd.every_pairing()), "a legal pairing existed"
            return judged
        judge(rnd, tables)
        judged += 1
        for table in tables:
            if table.is_bye:
                history.byes.append(Bye(round_no, table.players[0], 1.0))
                continue
            ((_s1, first), (_s2, second)) = table.games[0]
            outcome = data.draw(
                st.sampled_from(["first", "second", "draw", "first absent", "second absent"]),
                label="result",
            )
            if outcome == "draw":
                points = {first: 0.5, second: 0.5}
            else:
                winner = second if outcome.startswith("first") else first
                points = {first: float(first == winner), second: float(second == winner)}
            history.games.append(
                PlayedGame(round_no, table.games[0], points, forfeit=outcome.endswith("absent"))
            )
    return judged


# --- the pairing is the best by the criteria ---------------------------------------------


def judge_best(rnd: Round, tables) -> None:
    assert sorted(p for t in tables for p in t.players) == sorted(rnd.ids), "everyone once"
    pairs, bye = Round.seated(tables)
    assert (bye is None) == (len(rnd.ids) % 2 == 0)
    if bye is not None:
        assert bye in rnd.may_have_bye, "a second bye while someone has had none"
    ours = rnd.measure(pairs, bye, oriented=True)
    best = min(m for m, _p, _b in rnd.measured())
    explained = [t.explanation for t in tables]
    # Absolute: no repeat whenever some pairing has none; then no role break whenever
    # some pairing without more repeats has none.
    assert ours[0] == best[0], ("repeats", explained)
    assert ours[:2] == best[:2], ("role breaks", explained)
    # The bye in the lowest group that leaves the rest pairable by those.
    assert ours[:3] == best[:3], ("bye group", explained)
    # Score groups: floats per boundary from the top, then score differences.
    assert ours[:6] == best[:6], ("score groups", ours, best, explained)
    # Roles: due roles, then strong claims (each board seated its better way round).
    assert ours == best, ("roles", ours, best, explained)


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_each_round_is_the_best_pairing_by_the_criteria(data) -> None:
    play_event(data, judge_best)


# --- every claim of every explanation is true ----------------------------------------------


def pts(name: str) -> str:
    return rf"(?P<{name}>[\d.]+) pts?"


PAIR = re.compile(
    rf"^(?P<hi>\S+) \(#(?P<hr>\d+), {pts('hp')}\) v (?P<lo>\S+) \(#(?P<lr>\d+), {pts('lp')}\): "
    rf"(?:same score group \({pts('sp')}\), (?P<half>top half v bottom half|nearest to top half v "
    r"bottom half that the rules above allow)"
    r"|(?P<fl>\S+) floats down from the (?P<a>[\d.]+)-point group to meet (?P<fo>\S+) of the "
    r"(?P<b>[\d.]+)-point group \((?P<n>\d+) players? to pair stands? at "
    rf"{pts('at')} or more(?P<odd>, an odd number, so one floats down)?"
    r"(?:; fewer than (?P<k>\d+) of them floating down would need (?P<causes>[^)]*))?\)); "
    r"(?P<meeting>first meeting|meeting number (?P<mk>\d+): no pairing of this round avoids "
    r"every repeat meeting); (?P<roles>.*?)"
    r"(?P<parity>; a role difference of two could not be avoided \(strict role parity\))?$"
)
ROLE = re.compile(
    r"(?P<name>\S+) takes (?P<role>\w+) \((?P<r0>\w+) (?P<c0>\d+), (?P<r1>\w+) (?P<c1>\d+) "
    r"so far; (?:no role due|as due \((?P<as>\w+)\)|though due (?P<due>\w+) \((?P<claim>\w+)\): "
    r"(?P<reason>[^)]*))\)(?: \[(?P<brk>[^\]]*)\])?"
)
BYE = re.compile(
    rf"^bye: odd number of players; (?P<name>\S+) \(#(?P<rank>\d+), {pts('pts')}\) is in "
    rf"(?:the lowest score group \({pts('lowest')}\)|the lowest score group holding a player "
    rf"who may have it \({pts('eligible')}\)|the (?P<gp>[\d.]+)-point group, the lowest from "
    r"which the rest can be paired (?P<apart>keeping apart the players kept apart, )?"
    r"(?P<rules>without a repeat meeting or a role break|with no more repeat "
    r"meetings and role breaks than this round must have)), "
    r"(?:ranked lowest there among players who may take it|not the lowest-ranked there: "
    r"(?:the bye to (?P<blocked>[^;(]*) would leave players kept apart to meet(?:; )?)?"
    r"(?:the bye to (?P<below>[^(]*) pairs the rest worse \(more floats, fewer due roles, or "
    r"further from rating order\))?), and (?:has had no bye|every player has had a bye "
    r"already; this is \S+'s number (?P<num>\d+))$"
)


def judge_explanations(rnd: Round, tables) -> None:
    by_name = {v: k for k, v in rnd.name.items()}
    pairs, bye = Round.seated(tables)
    ours = rnd.measure(pairs, bye, oriented=True)
    measured = rnd.measured()
    for table in tables:
        if table.is_bye:
            check_bye(rnd, table, by_name, ours, measured)
        else:
            check_pair(rnd, table, by_name, pairs, bye, ours, measured)


def check_bye(rnd: Round, table, by_name, ours, measured) -> None:
    m = BYE.match(table.explanation)
    assert m, table.explanation
    p = by_name[m["name"]]
    assert p == table.players[0] and int(m["rank"]) == rnd.rank[p]
    assert float(m["pts"]) == rnd.points[p]
    lowest_points = min(rnd.points[q] for q in rnd.ids)
    if m["lowest"] is not None:  # "the lowest score group"
        assert rnd.points[p] == float(m["lowest"]) == lowest_points
    elif m["eligible"] is not None:  # the lowest group holding a player who may have the bye
        assert rnd.points[p] == float(m["eligible"]) == min(rnd.points[q] for q in rnd.may_have_bye)
        assert lowest_points < float(m["eligible"])
    else:  # a higher group: every pairing with the bye lower breaks more absolute rules
        assert rnd.points[p] == float(m["gp"])
        lower = [x for x, _pairs, b in measured if rnd.group[b] > rnd.group[p]]
        assert bool(m["apart"]) == bool(rnd.forbidden)
        # Without a pair kept apart, a bye in a lower group was possible (at a cost).
        assert lower or rnd.forbidden, "a lower group could have had the bye"
        if m["rules"].startswith("without"):
            assert ours[:2] == (0, 0)
        assert all(x[:2] > ours[:2] for x in lower), table.explanation
    blocked = set() if m["blocked"] is None else {by_name[n] for n in m["blocked"].split(", ")}
    worse = set() if m["below"] is None else {by_name[n] for n in m["below"].split(", ")}
    assert blocked | worse == {
        q for q in rnd.members[rnd.group[p]] if rnd.rank[q] > rnd.rank[p] and q in rnd.may_have_bye
    }
    for q in blocked:  # no legal pairing gives them the bye
        assert not [x for x, _pairs, b in measured if b == q], table.explanation
    for q in worse:
        assert min(x for x, _pairs, b in measured if b == q) >= ours, table.explanation
    if m["num"] is None:
        assert rnd.byes[p] == 0
    else:
        assert int(m["num"]) == rnd.byes[p] + 1 and all(rnd.byes[q] >= 1 for q in rnd.ids)


def check_pair(rnd: Round, table, by_name, pairs, bye, ours, measured) -> None:
    text = table.explanation
    m = PAIR.match(text)
    assert m, text
    hi, lo = by_name[m["hi"]], by_name[m["lo"]]
    assert {hi, lo} == set(table.players)
    assert (int(m["hr"]), float(m["hp"])) == (rnd.rank[hi], rnd.points[hi])
    assert (int(m["lr"]), float(m["lp"])) == (rnd.rank[lo], rnd.points[lo])
    assert rnd.rank[hi] < rnd.rank[lo]
    if m["half"] is not None:
        assert rnd.points[hi] == rnd.points[lo] == float(m["sp"])
        members = rnd.members[rnd.group[hi]]
        top_v_bottom = members.index(lo) - members.index(hi) == len(members) // 2
        assert top_v_bottom == (m["half"] == "top half v bottom half"), text
    else:
        assert (by_name[m["fl"]], by_name[m["fo"]]) == (hi, lo)
        assert (float(m["a"]), float(m["b"])) == (rnd.points[hi], rnd.points[lo])
        assert float(m["a"]) > float(m["b"]) and float(m["at"]) == float(m["a"])
        to_pair = [q for q in rnd.ids if q != bye and rnd.points[q] >= float(m["a"])]
        assert int(m["n"]) == len(to_pair)
        boundary = rnd.group[hi]
        crossing = ours[4][boundary]
        if m["odd"]:
            assert len(to_pair) % 2 == 1 and crossing == 1, text
        else:
            assert int(m["k"]) == crossing
            assert ("role difference of two" in m["causes"]) == rnd.strict
            assert ("kept-apart pair" in m["causes"]) == bool(rnd.forbidden)
            # Fewer floats across this boundary cost more at a higher criterion.
            for x, _pairs, _b in measured:
                if x[4][boundary] < crossing:
                    assert (x[:4], x[4][:boundary]) > (ours[:4], ours[4][:boundary]), text
    repeats = rnd.met[frozenset((hi, lo))]
    if m["mk"] is None:
        assert repeats == 0
    else:
        assert int(m["mk"]) == repeats + 1 and min(x[0] for x, _p, _b in measured) > 0
    ((s1, first), (s2, second)) = table.games[0]
    seated = {first: FIRST, second: SECOND}
    role_claims = list(ROLE.finditer(m["roles"]))
    assert [by_name[c["name"]] for c in role_claims] == [first, second], text
    for c in role_claims:
        check_role(rnd, c, by_name, seated, ours, measured, text)
    if m["parity"]:
        assert rnd.strict
        same_above = [x for x, _p, _b in measured if x[:3] == ours[:3]]
        assert min(x[3] for x in same_above) > 0


def check_role(rnd: Round, c, by_name, seated, ours, measured, text) -> None:
    p = by_name[c["name"]]
    other = next(q for q in seated if q != p)
    role = seated[p]
    h = rnd.history[p]
    assert c["role"] == ROLES[role] and (c["r0"], c["r1"]) == ROLES
    assert (int(c["c0"]), int(c["c1"])) == h.counts, text
    due, claim = h.due()
    if c["as"] is not None:
        assert due == role and c["as"] == CLAIM_WORDS[claim], text
    elif c["due"] is not None:
        assert due is not None and ROLES[due] == c["due"] != ROLES[role], text
        assert c["claim"] == CLAIM_WORDS[claim]
        check_reason(rnd, c["reason"], p, other, by_name, seated, text)
    else:
        assert due is None, text
    if c["brk"] is not None:
        assert h.breaks(role)
        if "a third time in a row" in c["brk"]:
            assert h.third_in_a_row(role)
        else:
            d = re.search(r"role difference of (\d+)", c["brk"])
            assert d and int(d[1]) == abs(h.difference + (1 if role == FIRST else -1)) > 2
        # No pairing keeps every role limit without more repeat meetings.
        assert not [x for x, _p, _b in measured if x[0] <= ours[0] and x[1] == 0], text
    else:
        assert not h.breaks(role), text


def check_reason(rnd: Round, reason: str, p, other, by_name, seated, text) -> None:
    """The reason a player did not get their due role."""
    first, second = sorted(seated, key=seated.get)
    chosen = rnd.role_costs(first, second)
    swapped = rnd.role_costs(second, first)
    h, ho = rnd.history[p], rnd.history[other]
    due, claim = h.due()
    other_due, other_claim = ho.due()
    m = re.fullmatch(r"the other way round breaks a role limit for (.+)", reason)
    if m:
        named = {by_name[n] for n in m[1].split(" and ")}
        assert named and all(rnd.history[q].breaks(1 - seated[q]) for q in named), text
        assert swapped[0] > chosen[0], text
        return
    if reason.startswith("strict role parity: "):
        assert rnd.strict and swapped[0] == chosen[0] and swapped[1] > chosen[1], text
        return
    assert other_due == due, text  # every other reason: both are due the same role
    m = re.fullmatch(r"(\S+)'s claim to it is stronger", reason)
    if m:
        assert by_name[m[1]] == other
        assert (other_claim, abs(ho.difference)) > (claim, abs(h.difference)), text
        return
    assert (other_claim, abs(ho.difference)) == (claim, abs(h.difference)), text
    common = [r for r in h.rounds if r in ho.rounds]
    differing = [r for r in common if h.roles[h.rounds.index(r)] != ho.roles[ho.rounds.index(r)]]
    m = re.fullmatch(r"(\S+) is due it too, and had (\w+) when their roles last differed", reason)
    if m:
        assert by_name[m[1]] == other and differing, text
        last = differing[-1]
        assert ROLES[ho.roles[ho.rounds.index(last)]] == m[2] != ROLES[due], text
        return
    m = re.fullmatch(r"(\S+) is due it too and ranks higher", reason)
    assert m, text
    assert by_name[m[1]] == other and rnd.rank[other] < rnd.rank[p] and not differing, text


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_claim_of_every_explanation_is_true(data) -> None:
    play_event(data, judge_explanations)


@pytest.mark.slow
@slow
@settings(max_examples=600, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_long_sweep_best_pairing_and_true_explanations(data) -> None:
    def judge(rnd: Round, tables) -> None:
        judge_best(rnd, tables)
        judge_explanations(rnd, tables)

    play_event(data, judge, max_rounds=9)


# --- the two histories of issue 23 ---------------------------------------------------------


def history_of(rounds: list[list[tuple[int, int, float]]]) -> History:
    """Games as (cryptid, scientist, cryptid's points), a list per round."""
    history = History()
    for round_no, games in enumerate(rounds, start=1):
        for cryptid, scientist, pts in games:
            history.games.append(
                PlayedGame(
                    round_no,
                    (("cryptid", cryptid), ("scientist", scientist)),
                    {cryptid: pts, scientist: 1 - pts},
                )
            )
    return history


def seatings(tables) -> list:
    return [
        (t.games[0][0][1], t.games[0][1][1]) if t.games else ("bye", t.players[0]) for t in tables
    ]


def test_issue_23_the_bye_goes_to_the_lowest_group_not_to_the_sole_leader() -> None:
    ratings = [2425, 2224, 2220, 2218, 2138, 2025, 1496, 1335]
    history = history_of(
        [
            [(1, 5, 1), (6, 2, 0), (3, 7, 1), (8, 4, 0)],
            [(4, 1, 0), (2, 3, 1), (5, 8, 1), (7, 6, 0)],
            [(1, 2, 1), (3, 5, 0), (6, 4, 0), (8, 7, 1)],
        ]
    )
    field = [Entrant(i, f"p{i}", ratings[i - 1]) for i in range(1, 9) if i != 7]  # p7 withdrew
    tables = pair_swiss(field, history, roles=ROLES)
    # p1 (3/3) has met all three 2-point players, so floats to the top of the 1-point
    # group; the bye goes to p8, lowest of the lowest group.
    assert seatings(tables) == [(3, 1), (2, 4), (5, 6), ("bye", 8)]
    assert "p8 (#7, 1 pt) is in the lowest score group (1 pt)" in tables[-1].explanation
    judge_explanations(Round(field, history, ROLES), tables)
    judge_best(Round(field, history, ROLES), tables)


def test_issue_23_no_third_role_in_a_row_when_the_board_can_be_turned_round() -> None:
    ratings = [2303, 2223, 2160, 2003, 1987, 1932, 1871, 1473]
    history = history_of(
        [
            [(1, 5, 1), (6, 2, 0), (3, 7, 0.5), (8, 4, 0)],
            [(2, 1, 0.5), (4, 3, 0), (7, 6, 1), (5, 8, 1)],
            [(1, 7, 1), (3, 2, 1), (5, 4, 0), (6, 8, 1)],
        ]
    )
    field = [Entrant(i, f"p{i}", ratings[i - 1]) for i in range(1, 9)]
    tables = pair_swiss(field, history, roles=ROLES)
    # p8 played scientist in rounds 2 and 3: cryptid now. p5 likewise had cryptid twice.
    assert seatings(tables) == [(3, 1), (4, 2), (8, 7), (6, 5)]
    assert (
        "p8 takes cryptid (cryptid 1, scientist 2 so far; as due (absolute))"
        in tables[2].explanation
    )
    judge_explanations(Round(field, history, ROLES), tables)
    judge_best(Round(field, history, ROLES), tables)


# --- strict role parity ----------------------------------------------------------------------


def test_strict_role_parity_trades_score_groups_for_roles_and_only_when_asked() -> None:
    # Round 1: p0 and p1 won as cryptid, so both are due scientist now, p2 and p3 cryptid.
    history = history_of([[(0, 2, 1), (1, 3, 1)]])
    field = [Entrant(i, f"p{i}", 2000 - 10 * i) for i in range(4)]
    # By default the leaders meet: one of them goes two roles ahead, which is allowed.
    default = pair_swiss(field, history, roles=ROLES)
    assert seatings(default) == [(1, 0), (2, 3)]
    assert (
        "p1 takes cryptid (cryptid 1, scientist 0 so far; though due scientist (strong): "
        "p0 is due it too and ranks higher)" in default[0].explanation
    )
    # Strict parity keeps everyone within one: the leaders float down to new opponents.
    strict = pair_swiss(field, history, roles=ROLES, strict_roles=True)
    assert seatings(strict) == [(3, 0), (2, 1)]
    assert (
        "fewer than 2 of them floating down would need a repeat meeting, a role break, "
        "a role difference of two, or more floats higher up" in strict[0].explanation
    )
    for tables, strict_roles in ((default, False), (strict, True)):
        rnd = Round(field, history, ROLES, strict=strict_roles)
        judge_best(rnd, tables)
        judge_explanations(rnd, tables)


def test_swiss_rules_shown_to_organisers_name_both_roles() -> None:
    text = " ".join(rule["id"] for _kind, rule, _about_roles in SWISS_RULES)
    assert "{first}" in text and "{second}" in text
    assert [kind for kind, _rule, _about_roles in SWISS_RULES][:4] == ["absolute"] * 4


def test_a_pair_kept_apart_moves_the_bye_and_the_explanation_says_so() -> None:
    # Round one of three, p0 and p1 kept apart: the bye cannot go to p2 (the lowest),
    # since p0 and p1 would then have to meet.
    field = [Entrant(i, f"p{i}", 2000 - 10 * i) for i in range(3)]
    tables = pair_swiss(field, History(), roles=ROLES, forbidden=[frozenset((0, 1))])
    assert [t.players for t in tables] == [(0, 2), (1,)]
    assert (
        "not the lowest-ranked there: the bye to p2 would leave players kept apart to "
        "meet" in tables[-1].explanation
    )
    judge_explanations(Round(field, History(), ROLES, [frozenset((0, 1))]), tables)
