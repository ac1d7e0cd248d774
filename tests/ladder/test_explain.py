"""The sum on the player page (EL-7.1), written from the stored records."""

from __future__ import annotations

import pytest

from ladder import selectors
from ladder.explain import explain
from ladder.models import Ladder
from ladder.services import apply_match
from tests.ladder.factories import BASE, make_match, player

pytestmark = pytest.mark.django_db


def lines_for(club, game, handle):
    ladder = Ladder.objects.get(club=club, game=game)
    (change,) = selectors.player_history(ladder, player(club, handle))
    return explain(change, change.match_changes)


def test_detective_sum_shows_the_team_rating_and_the_pawn_share(club):
    # New players, K 64, no history: adv 0. Detectives ann (2 pawns), ben (2), cat (1):
    # T = 0.4*1500 + 0.4*1500 + 0.2*1500 = 1500; E_mrx = 0.5; detectives win:
    # cat: 64 * 0.2 * (1 - 0.5) = +6.40.
    match = make_match(
        club,
        "mister-x",
        [("mrx", "xav"), ("det1", "ann"), ("det2", "ben"), ("det3", "cat")],
        "detectives",
        played_at=BASE,
        pawns={"det1": ["red", "blue"], "det2": ["green", "yellow"], "det3": ["black"]},
    )
    apply_match(match.pk)
    assert lines_for(club, "mister-x", "cat") == [
        "Team rating T = Σ w × R = 0.4 × 1500.0 + 0.4 × 1500.0 + 0.2 × 1500.0 = 1500.00",
        "E(Mister X) = 1 / (1 + 10^((1500.00 − 1500.00 − (0)) / 400)) = 0.5000",
        "E(detectives) = 1 − E(Mister X) = 0.5000",
        "Δ = K × w × (S − E) = 64 × 0.2 × (1 − 0.5000) = +6.40   (w = your share of the 5 pawns)",
    ]
    assert lines_for(club, "mister-x", "xav")[-1] == "Δ = K × (S − E) = 64 × (0 − 0.5000) = -32.00"


def test_free_for_all_sum_lists_every_pair(club):
    # 3 new players, p2 (ben) wins: ben vs ann and vs cat S = 1, E = 0.5 each;
    # ΣS = 2, ΣE = 1; Δ = 64 / 2 × (2 − 1) = +32.
    match = make_match(
        club,
        "cloak-and-dagger",
        [("p1", "ann"), ("p2", "ben"), ("p3", "cat")],
        "p2",
        played_at=BASE,
    )
    apply_match(match.pk)
    assert lines_for(club, "cloak-and-dagger", "ben") == [
        "Free-for-all, N = 3: every other player is one pairwise game (EL-6).",
        "vs ann (1500.0): E = 1 / (1 + 10^((1500.0 − 1500.0) / 400)) = 0.5000, S = 1",
        "vs cat (1500.0): E = 1 / (1 + 10^((1500.0 − 1500.0) / 400)) = 0.5000, S = 1",
        "ΣE = 1.0000, ΣS = 2",
        "Δ = K / (N − 1) × (ΣS − ΣE) = 64 / 2 × (2 − 1.0000) = +32.00",
    ]
    # A loser draws the other loser: ann vs cat S = 1/2.
    assert "vs cat (1500.0): E = 1 / (1 + 10^((1500.0 − 1500.0) / 400)) = 0.5000, S = 0.5" in (
        lines_for(club, "cloak-and-dagger", "ann")
    )
