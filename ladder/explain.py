"""The sum behind a rating change, written out for the player page (EL-7.1).

Works from stored RatingChange rows: the player's own record and the other records
of the same match (for the team rating T and the pairwise terms); the engine names
the roles (``Game.rating``) and, for a team, what its shares add up to with the
match's options (``Game.team_total``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext

from engine import ONE_AGAINST_TEAM, get_game

if TYPE_CHECKING:
    from ladder.models import RatingChange


def _n(value: float, places: int = 2) -> str:
    text = f"{value:.{places}f}"
    return "0" if text.strip("-0.") == "" else text


def _e(value: float) -> str:
    return f"{value:.4f}"


def explain(change: RatingChange, match_changes: list[RatingChange]) -> list[str]:
    """Lines of arithmetic, top to bottom, ending in the change itself. ``change.match``
    names the game; ``change.match_options`` (``selectors.player_history`` reads them)
    are the log's options."""
    lines: list[str] = []
    delta = change.after - change.before
    if change.opponent_rating is None:  # free-for-all (EL-6)
        n = len(match_changes)
        lines.append(
            gettext("Free-for-all, N = %(n)s: every other player is one pairwise game (EL-6).")
            % {"n": n}
        )
        for other in match_changes:
            if other.player_id == change.player_id:
                continue
            e = 1.0 / (1.0 + 10.0 ** ((other.before - change.before) / 400.0))
            s = 1.0 if change.won else (0.0 if other.won else 0.5)
            lines.append(
                gettext("vs %(player)s")
                % {"player": other.player}
                + f" ({_n(other.before, 1)}): E = 1 / (1 + 10^(({_n(other.before, 1)}"
                f" − {_n(change.before, 1)}) / 400)) = {_e(e)}, S = {s:g}"
            )
        lines.append(f"ΣE = {_e(change.expected)}, ΣS = {change.score:g}")
        lines.append(
            f"Δ = K / (N − 1) × (ΣS − ΣE) = {change.k:g} / {n - 1} × ({change.score:g} − "
            f"{_e(change.expected)}) = {delta:+.2f}"
        )
        return lines
    game = get_game(change.match.game)
    shape = None if game is None else game.rating
    solo_role, team_role = shape.roles if shape and shape.kind == ONE_AGAINST_TEAM else ("", "")
    if team_role and change.role == team_role:  # EL-5.3
        solo = next((c for c in match_changes if c.role == solo_role), None)
        team_rating = solo.opponent_rating if solo else None
        solo_adv = -change.advantage
        solo_name, team_name = shape.label(solo_role), shape.label(team_role)
        options: Any = getattr(change, "match_options", None)
        total = game.team_total(options if isinstance(options, dict) else {})
        lines.append(_team_line(match_changes, team_rating, team_role))
        lines.append(
            f"E({solo_name}) = 1 / (1 + 10^(({_n(team_rating or 0.0)} − "
            f"{_n(change.opponent_rating)}"
            f" − ({_n(solo_adv)})) / 400)) = {_e(1.0 - change.expected)}"
        )
        lines.append(f"E({team_name}) = 1 − E({solo_name}) = {_e(change.expected)}")
        lines.append(
            f"Δ = K × w × (S − E) = {change.k:g} × {change.weight:g} × ({change.score:g} − "
            f"{_e(change.expected)}) = {delta:+.2f}   "
            + gettext("(w = your share of the %(total)s %(share)s)")
            % {"total": total, "share": shape.share}
        )
        return lines
    if solo_role and change.role == solo_role:
        lines.append(_team_line(match_changes, change.opponent_rating, team_role))
    lines.append(
        f"E = 1 / (1 + 10^(({_n(change.opponent_rating)} − {_n(change.before)} − "
        f"({_n(change.advantage)})) / 400)) = {_e(change.expected)}"
        + ("   " + gettext("(role advantage, EL-3)") if change.advantage else "")
    )
    lines.append(
        f"Δ = K × (S − E) = {change.k:g} × ({change.score:g} − {_e(change.expected)}) = "
        f"{delta:+.2f}"
    )
    return lines


def _team_line(match_changes: list[RatingChange], team_rating: float | None, team_role: str) -> str:
    terms = " + ".join(
        f"{c.weight:g} × {_n(c.before, 1)}" for c in match_changes if c.role == team_role
    )
    return gettext("Team rating") + f" T = Σ w × R = {terms} = {_n(team_rating or 0.0)}"
