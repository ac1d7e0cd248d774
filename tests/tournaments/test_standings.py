"""Standings and tie-breaks against hand-computed examples (arithmetic in comments)."""

from __future__ import annotations

import pytest

from tournaments.pairing import Bye, Entrant, History, PlayedGame
from tournaments.standings import compute_standings

FIELD = [Entrant(name, name, 1500) for name in "ABCDE"]


def won(round_no: int, cryptid: str, scientist: str, winner: str) -> PlayedGame:
    return PlayedGame(
        round_no,
        (("cryptid", cryptid), ("scientist", scientist)),
        {cryptid: float(winner == cryptid), scientist: float(winner == scientist)},
    )


def five_player_swiss() -> History:
    # R1: A beat B, D beat C, E bye.  R2: D beat A, B beat E, C bye.
    # R3: A beat C, E beat D, B bye.
    return History(
        games=[
            won(1, "A", "B", "A"),
            won(1, "C", "D", "D"),
            won(2, "D", "A", "D"),
            won(2, "E", "B", "B"),
            won(3, "C", "A", "A"),
            won(3, "D", "E", "E"),
        ],
        byes=[Bye(1, "E", 1.0), Bye(2, "C", 1.0), Bye(3, "B", 1.0)],
    )


def test_points_buchholz_sonneborn_berger_head_to_head_by_hand() -> None:
    rows = {r.entrant.id: r for r in compute_standings(FIELD, five_player_swiss())}
    # Points: A 1+0+1 = 2; B 0+1+bye 1 = 2; C 0+bye 1+0 = 1; D 1+1+0 = 2; E bye 1+0+1 = 2.
    assert {p: r.points for p, r in rows.items()} == {"A": 2, "B": 2, "C": 1, "D": 2, "E": 2}
    # Buchholz = opponents' final points, byes count 0:
    #   A: B 2 + D 2 + C 1 = 5    B: A 2 + E 2 = 4    C: D 2 + A 2 = 4
    #   D: C 1 + A 2 + E 2 = 5    E: B 2 + D 2 = 4
    assert {p: r.tiebreaks["buchholz"] for p, r in rows.items()} == {
        "A": 5,
        "B": 4,
        "C": 4,
        "D": 5,
        "E": 4,
    }
    # Sonneborn–Berger = points of the opponents beaten (x1), lost to (x0):
    #   A: B 2x1 + D 2x0 + C 1x1 = 3     B: A 2x0 + E 2x1 = 2     C: 0
    #   D: C 1x1 + A 2x1 + E 2x0 = 3     E: B 2x0 + D 2x1 = 2
    assert {p: r.tiebreaks["sonneborn_berger"] for p, r in rows.items()} == {
        "A": 3,
        "B": 2,
        "C": 0,
        "D": 3,
        "E": 2,
    }
    # Still tied: A and D (2, 5, 3): D beat A in R2 -> D 1, A 0.
    #             B and E (2, 4, 2): B beat E in R2 -> B 1, E 0.
    assert rows["D"].tiebreaks["head_to_head"] == 1 and rows["A"].tiebreaks["head_to_head"] == 0
    assert rows["B"].tiebreaks["head_to_head"] == 1 and rows["E"].tiebreaks["head_to_head"] == 0
    # C is alone on 1 point: head-to-head did not apply (shown as a dash, not a 0).
    assert rows["C"].not_applied == {"head_to_head"} and rows["A"].not_applied == set()
    order = [r.entrant.id for r in compute_standings(FIELD, five_player_swiss())]
    assert order == ["D", "A", "B", "E", "C"]
    assert [rows[p].rank for p in order] == [1, 2, 3, 4, 5]
    assert rows["A"].explained["buchholz"] == "5 = 2 (B, r1) + 2 (D, r2) + 1 (C, r3)"
    assert rows["A"].explained["sonneborn_berger"] == "3 = 2×1 (B, r1) + 2×0 (D, r2) + 1×1 (C, r3)"
    assert rows["E"].explained["buchholz"].endswith("; byes and forfeits count 0")
    assert rows["A"].explained["head_to_head"] == "0 = 0 v D (r2) among the players tied so far (D)"


def test_order_of_tiebreaks_matters_and_is_respected() -> None:
    # Head-to-head first: A and D are tied on points; D beat A, so D leads at once.
    rows = compute_standings(FIELD, five_player_swiss(), tiebreaks=["head_to_head"])
    ids = [r.entrant.id for r in rows]
    # The four on 2 points: games among them: A beat B, D beat A, B beat E, E beat D
    # -> every one of A, B, D, E scores 1 among the four: all still tied, rank 1 shared.
    assert ids[:4] == ["A", "B", "D", "E"] and ids[4] == "C"
    assert [r.rank for r in rows] == [1, 1, 1, 1, 5]
    assert all(r.shared for r in rows[:4]) and not rows[4].shared


def test_tables_count_the_mean_of_the_opponents() -> None:
    # Mister X, detectives share a side. R1: X is mrx v Y, Z; the detectives win.
    # R2: Y is mrx v X, Z; Mister X wins. Points: X 0, Y 1+1 = 2, Z 1+0 = 1.
    def side(seat: str) -> str:
        return "mrx" if seat == "mrx" else "detectives"

    history = History(
        games=[
            PlayedGame(1, (("mrx", "X"), ("det1", "Y"), ("det2", "Z")), {"X": 0, "Y": 1, "Z": 1}),
            PlayedGame(2, (("mrx", "Y"), ("det1", "X"), ("det2", "Z")), {"Y": 1, "X": 0, "Z": 0}),
        ]
    )
    field = [Entrant(p, p) for p in "XYZ"]
    rows = {
        r.entrant.id: r
        for r in compute_standings(
            field, history, tiebreaks=["buchholz", "sonneborn_berger"], side_of=side
        )
    }
    # Buchholz: X: R1 (Y 2 + Z 1)/2 = 1.5, R2 Y 2 -> 3.5
    #           Y: R1 X 0, R2 (X 0 + Z 1)/2 = 0.5 -> 0.5;   Z: R1 X 0, R2 Y 2 -> 2
    assert {p: r.tiebreaks["buchholz"] for p, r in rows.items()} == {"X": 3.5, "Y": 0.5, "Z": 2}
    # SB: Y: R1 beat X (0x1), R2 beat X and Z (0x1 + 1x1)/2 = 0.5 -> 0.5; X and Z 0.
    assert {p: r.tiebreaks["sonneborn_berger"] for p, r in rows.items()} == {
        "X": 0,
        "Y": 0.5,
        "Z": 0,
    }
    assert rows["X"].explained["buchholz"] == "3.5 = 2+1 / 2 (Y, Z, r1) + 2 (Y, r2)"
    assert rows["Y"].wins == 2 and rows["Z"].wins == 1


def test_forfeits_score_points_but_no_tiebreak() -> None:
    history = History(
        games=[
            PlayedGame(
                1, (("cryptid", "A"), ("scientist", "B")), {"A": 1.0, "B": 0.0}, forfeit=True
            )
        ]
    )
    rows = {r.entrant.id: r for r in compute_standings(FIELD[:2], history)}
    assert rows["A"].points == 1 and rows["A"].played == 0
    assert rows["A"].tiebreaks["buchholz"] == 0 and rows["A"].tiebreaks["sonneborn_berger"] == 0


def test_unknown_tiebreak_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown tie-break"):
        compute_standings(FIELD, History(), tiebreaks=["median"])
