"""The sum behind a rating change, written out for the player page (EL-7.1).

Works from stored RatingChange rows only: the player's own record and the other
records of the same match (for the team rating T and the pairwise terms)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ladder.models import RatingChange


def _n(value: float, places: int = 2) -> str:
    text = f"{value:.{places}f}"
    return "0" if text.strip("-0.") == "" else text


def _e(value: float) -> str:
    return f"{value:.4f}"


def explain(change: RatingChange, match_changes: list[RatingChange]) -> list[str]:
    """Lines of arithmetic, top to bottom, ending in the change itself."""
    lines: list[str] = []
    delta = change.after - change.before
    if change.opponent_rating is None:  # free-for-all (EL-6)
        n = len(match_changes)
        lines.append(f"Free-for-all, N = {n}: every other player is one pairwise game (EL-6).")
        for other in match_changes:
            if other.player_id == change.player_id:
                continue
            e = 1.0 / (1.0 + 10.0 ** ((other.before - change.before) / 400.0))
            s = 1.0 if change.won else (0.0 if other.won else 0.5)
            lines.append(
                f"vs {other.player} ({_n(other.before, 1)}): E = 1 / (1 + 10^(({_n(other.before, 1)}"
                f" − {_n(change.before, 1)}) / 400)) = {_e(e)}, S = {s:g}"
            )
        lines.append(f"ΣE = {_e(change.expected)}, ΣS = {change.score:g}")
        lines.append(
            f"Δ = K / (N − 1) × (ΣS − ΣE) = {change.k:g} / {n - 1} × ({change.score:g} − "
            f"{_e(change.expected)}) = {delta:+.2f}"
        )
        return lines
    if change.role == "detectives":  # EL-5.3
        solo = next((c for c in match_changes if c.role == "mrx"), None)
        team_rating = solo.opponent_rating if solo else None
        mrx_adv = -change.advantage
        lines.append(_team_line(match_changes, team_rating))
        lines.append(
            f"E(Mister X) = 1 / (1 + 10^(({_n(team_rating or 0.0)} − {_n(change.opponent_rating)}"
            f" − ({_n(mrx_adv)})) / 400)) = {_e(1.0 - change.expected)}"
        )
        lines.append(f"E(detectives) = 1 − E(Mister X) = {_e(change.expected)}")
        lines.append(
            f"Δ = K × w × (S − E) = {change.k:g} × {change.weight:g} × ({change.score:g} − "
            f"{_e(change.expected)}) = {delta:+.2f}   (w = your share of the 5 pawns)"
        )
        return lines
    if change.role == "mrx":
        lines.append(_team_line(match_changes, change.opponent_rating))
    lines.append(
        f"E = 1 / (1 + 10^(({_n(change.opponent_rating)} − {_n(change.before)} − "
        f"({_n(change.advantage)})) / 400)) = {_e(change.expected)}"
        + ("   (role advantage, EL-3)" if change.advantage else "")
    )
    lines.append(
        f"Δ = K × (S − E) = {change.k:g} × ({change.score:g} − {_e(change.expected)}) = {delta:+.2f}"
    )
    return lines


def _team_line(match_changes: list[RatingChange], team_rating: float | None) -> str:
    terms = " + ".join(
        f"{c.weight:g} × {_n(c.before, 1)}" for c in match_changes if c.role == "detectives"
    )
    return f"Team rating T = Σ w × R = {terms} = {_n(team_rating or 0.0)}"
