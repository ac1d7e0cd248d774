"""Standings and tie-breaks of an event: pure functions, no Django.

Points are the sum of the points of every game and bye. The tie-breaks, each
with the arithmetic behind it in words (shown on the standings page):

* ``buchholz`` — for every game played over the board, the final points of the
  opponents; a game with several opponents (a table) counts their mean, so a
  two-seat game counts its opponent's points as in chess. Byes and forfeits
  count nothing (no opponent was met).
* ``sonneborn_berger`` — the same sum, each opponent's points weighted by the
  score against that opponent: 1 beaten, ½ neither beat the other, 0 lost to.
* ``head_to_head`` — among the players still tied on points and every earlier
  tie-break, the score in the games between them (two-seat games only).

Who is an opponent at a table: every player on another side (``side_of`` a
seat; by default every seat is its own side, while Mister X's detectives share
one). Who beat whom: the player who took more points in that game.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engine import Message
from tournaments.pairing import (
    Entrant,
    History,
    PlayedGame,
    PlayerId,
    english,
    fmt_points,
    sentence,
)
from tournaments.pairing.explanations import summed

#: Each tie-break by its name (the pages say it in the reader's language).
TIEBREAKS: dict[str, Message] = {
    "buchholz": sentence("Buchholz"),
    "sonneborn_berger": sentence("Sonneborn–Berger"),
    "head_to_head": sentence("Head-to-head"),
}


@dataclass
class Row:
    entrant: Entrant
    rank: int = 0
    #: shares its rank with the row above or below: tied on points and every tie-break
    shared: bool = False
    points: float = 0.0
    played: int = 0
    wins: int = 0
    byes: int = 0
    tiebreaks: dict[str, float] = field(default_factory=dict)
    #: per tie-break: the sum written out, in English
    explained: dict[str, str] = field(default_factory=dict)
    #: the same, as what to say (the engine's ``Message``, as the pairing's explanations):
    #: the pages say it in the reader's language
    said: dict[str, Message] = field(default_factory=dict)
    #: tie-breaks that did not apply to this row (head-to-head with no one tied)
    not_applied: set[str] = field(default_factory=set)


def _identity(seat: str) -> str:
    return seat


def _term(value: str, mean: str, players: str, round_number: int) -> Message:
    """One game's part of a sum: ``2+1 / 2 (Y, Z, r1)``."""
    return sentence(
        "{value}{mean} ({players}, r{round})",
        value=value,
        mean=mean,
        players=players,
        round=round_number,
    )


def _sum(total: float, terms: list[Message]) -> Message:
    """``5 = 2 (B, r1) + 2 (D, r2)``, or ``0 = 0 (no games)``."""
    return sentence(
        "{total} = {terms}",
        total=fmt_points(total),
        terms=summed(terms) if terms else sentence("0 (no games)"),
    )


def _explain(row: Row, key: str, said: Message) -> None:
    row.said[key] = said
    row.explained[key] = english(said)


def _opponents(game: PlayedGame, player: PlayerId, side_of: Callable[[str], str]) -> list[PlayerId]:
    side = next(side_of(seat) for seat, p in game.seats if p == player)
    return [p for seat, p in game.seats if side_of(seat) != side and p != player]


def _score_against(game: PlayedGame, a: PlayerId, b: PlayerId) -> float:
    pa, pb = game.points.get(a, 0.0), game.points.get(b, 0.0)
    return 1.0 if pa > pb else 0.0 if pa < pb else 0.5


def compute_standings(
    entrants: Sequence[Entrant],
    history: History,
    tiebreaks: Sequence[str] = ("buchholz", "sonneborn_berger", "head_to_head"),
    side_of: Callable[[str], str] = _identity,
) -> list[Row]:
    """Rows in standing order; players still tied after every tie-break share a
    rank and keep seed order between them."""
    unknown = [t for t in tiebreaks if t not in TIEBREAKS]
    if unknown:
        raise ValueError(f"unknown tie-break(s) {unknown}; known: {sorted(TIEBREAKS)}")
    names = {e.id: e.name for e in entrants}
    rows = {e.id: Row(e) for e in entrants}
    for game in history.games:
        for player, pts in game.points.items():
            row = rows[player]
            row.points += pts
            if game.forfeit:
                continue  # points only: no game was played
            row.played += 1
            others = _opponents(game, player, side_of)
            if others and all(pts > game.points.get(o, 0.0) for o in others):
                row.wins += 1
    for bye in history.byes:
        rows[bye.player].points += bye.points
        rows[bye.player].byes += 1
    final = {pid: row.points for pid, row in rows.items()}

    # Per player, the terms of Buchholz and Sonneborn–Berger, game by game.
    terms: dict[PlayerId, list[tuple[PlayedGame, list[PlayerId]]]] = defaultdict(list)
    for game in history.games:
        if game.forfeit:
            continue
        for player in game.points:
            terms[player].append((game, _opponents(game, player, side_of)))

    for pid, row in rows.items():
        bh, sb = 0.0, 0.0
        bh_parts, sb_parts = [], []
        for game, others in terms[pid]:
            if not others:
                continue
            bh += sum(final[o] for o in others) / len(others)
            sb += sum(final[o] * _score_against(game, pid, o) for o in others) / len(others)
            who = ", ".join(names[o] for o in others)
            mean = "" if len(others) == 1 else f" / {len(others)}"
            bh_parts.append(
                _term("+".join(fmt_points(final[o]) for o in others), mean, who, game.round)
            )
            sb_parts.append(
                _term(
                    "+".join(
                        f"{fmt_points(final[o])}×{fmt_points(_score_against(game, pid, o))}"
                        for o in others
                    ),
                    mean,
                    who,
                    game.round,
                )
            )
        if "buchholz" in tiebreaks:
            row.tiebreaks["buchholz"] = bh
            formula = _sum(bh, bh_parts)
            _explain(
                row,
                "buchholz",
                sentence("{formula}; byes and forfeits count 0", formula=formula)
                if row.byes
                else formula,
            )
        if "sonneborn_berger" in tiebreaks:
            row.tiebreaks["sonneborn_berger"] = sb
            _explain(row, "sonneborn_berger", _sum(sb, sb_parts))

    ordered = _rank(list(rows.values()), list(tiebreaks), terms, names)
    return ordered


def _close(a: float, b: float) -> bool:
    return abs(a - b) < 1e-9


def _rank(
    rows: list[Row],
    tiebreaks: list[str],
    terms: dict[PlayerId, list[tuple[PlayedGame, list[PlayerId]]]],
    names: dict[PlayerId, str],
) -> list[Row]:
    seed = {row.entrant.id: i for i, row in enumerate(rows)}

    # Split into groups tied on points, then refine by each tie-break in turn.
    groups: list[list[Row]] = []
    for row in sorted(rows, key=lambda r: -r.points):
        if groups and _close(groups[-1][0].points, row.points):
            groups[-1].append(row)
        else:
            groups.append([row])
    for tb in tiebreaks:
        refined: list[list[Row]] = []
        for group in groups:
            if tb == "head_to_head":
                _head_to_head(group, terms, names)
            if len(group) == 1:
                refined.append(group)
                continue
            ordered = sorted(group, key=lambda r: -r.tiebreaks[tb])
            current: list[Row] = []
            for row in ordered:
                if current and not _close(current[-1].tiebreaks[tb], row.tiebreaks[tb]):
                    refined.append(current)
                    current = []
                current.append(row)
            refined.append(current)
        groups = refined
    result: list[Row] = []
    for group in groups:
        rank = len(result) + 1
        for row in sorted(group, key=lambda r: seed[r.entrant.id]):
            row.rank, row.shared = rank, len(group) > 1
            result.append(row)
    return result


def _head_to_head(
    group: list[Row],
    terms: dict[PlayerId, list[tuple[PlayedGame, list[PlayerId]]]],
    names: dict[PlayerId, str],
) -> None:
    """Score of each member in the games among the members of ``group``."""
    members = {row.entrant.id for row in group}
    for row in group:
        pid = row.entrant.id
        score, parts = 0.0, []
        if len(group) > 1:
            for game, others in terms[pid]:
                for o in others:
                    if o in members:
                        s = _score_against(game, pid, o)
                        score += s
                        parts.append(
                            sentence(
                                "{points} v {player} (r{round})",
                                points=fmt_points(s),
                                player=names[o],
                                round=game.round,
                            )
                        )
        row.tiebreaks["head_to_head"] = score
        if len(group) == 1:
            _explain(row, "head_to_head", sentence("not needed (no one tied)"))
            row.not_applied.add("head_to_head")
        else:
            tied = ", ".join(sorted(names[m] for m in members if m != pid))
            _explain(
                row,
                "head_to_head",
                sentence(
                    "{formula} among the players tied so far ({tied})",
                    formula=_sum(score, parts),
                    tied=tied,
                ),
            )
