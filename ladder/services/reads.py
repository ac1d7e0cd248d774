"""Reading matches in rating order (EL-1.3: played_at, then match id), in bulk."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Q, QuerySet
from django.db.models.functions import Coalesce

from engine import ONE_AGAINST_TEAM, Game, get_game
from games.models import Match, MatchLog, MatchSeat
from ladder.kernel import (
    SeatPlayer,
    rating_shape,
)

#: rows per INSERT when swapping a recompute in
BATCH = 5000


class Outcome(enum.StrEnum):
    """What ``apply_match`` did."""

    RATED = "rated"  # rated incrementally (the newest match of its ladder)
    ALREADY_RATED = "already_rated"  # nothing to do: running it twice changes nothing
    NOT_RATED = "not_rated"  # not a rated match (EL-1.2) and never was
    RECOMPUTED = "recomputed"  # back-dated, or a rated match changed: ladder recomputed


def rated_matches() -> QuerySet[Match]:
    """EL-1.2: valid (which means finished: unfinished has its own status), not void."""
    return Match.objects.filter(status=Match.Status.VALID, is_void=False).exclude(winner="")


def rating_time(match: Match) -> datetime:
    """When a match counts as played: ``played_at``, or its upload time when the log
    does not say (EL-1.3 orders by this, then by id)."""
    return match.played_at or match.uploaded_at


def is_rated_match(match: Match) -> bool:
    return (
        match.status == Match.Status.VALID
        and not match.is_void
        and bool(match.winner)
        and rating_shape(match.game) is not None
    )


@dataclass(frozen=True, slots=True)
class RatedMatch:
    """What the kernel needs of one match, read in bulk."""

    id: int
    at: datetime
    seats: tuple[SeatPlayer, ...]
    winner: str


def read_matches(
    club_id: int,
    game: str,
    *,
    match_ids: list[int] | None = None,
    since: tuple[datetime, int] | None = None,
    with_bots: bool | None = None,
) -> list[RatedMatch]:
    """The rated matches of one ladder in rating order (all, the given ids, or those
    from ``since`` = (time, match id) on), in three queries. ``with_bots``: only the
    matches with a bot seat (True: a bot ladder) or only those without (False: the
    normal ladder); None: both."""
    matches = (
        rated_matches()
        .filter(club_id=club_id, game=game)
        .annotate(at=Coalesce("played_at", "uploaded_at"))
    )
    if with_bots is not None:
        matches = matches.filter(with_bots=with_bots)
    if match_ids is not None:
        matches = matches.filter(id__in=match_ids)
    if since is not None:
        matches = matches.filter(Q(at__gt=since[0]) | Q(at=since[0], id__gte=since[1]))
    rows = list(matches.order_by("at", "id").values_list("id", "at", "winner"))
    if not rows:
        return []
    ids = [row[0] for row in rows]
    id_filter = Q(match_id__in=ids) if match_ids is not None else Q(match__in=matches.values("id"))
    seats: dict[int, list[tuple[str, int]]] = {}
    for match_id, seat, player_id in (
        MatchSeat.objects.filter(id_filter)
        .order_by("match_id", "id")
        .values_list("match_id", "seat", "player_id")
    ):
        seats.setdefault(match_id, []).append((seat, player_id))
    options: dict[int, Any] = {}
    team = team_game(game)
    if team is not None:
        options = dict(
            MatchLog.objects.filter(id_filter).values_list("match_id", "document__options")
        )
    no_seats: list[tuple[str, int]] = []
    return [
        RatedMatch(
            match_id,
            at,
            seat_players(seats.get(match_id, no_seats), team, options.get(match_id)),
            winner,
        )
        for match_id, at, winner in rows
    ]


def team_game(game_id: str) -> Game | None:
    """The engine's game when it is rated one against a team (its team seats weigh by
    their shares, which depend on the log's options), else None."""
    game = get_game(game_id)
    rating = None if game is None else game.rating
    return game if rating is not None and rating.kind == ONE_AGAINST_TEAM else None


def seat_players(
    seats: list[tuple[str, int]], team: Game | None, options: Any
) -> tuple[SeatPlayer, ...]:
    """The kernel's seats of one match from its (seat, player id) pairs in seat order;
    ``team``: the game when it is rated one against a team, whose team seats weigh by
    their shares with the log's ``options`` (EL-5.1: ``Game.team_shares``)."""
    if team is not None:
        shares = team.team_shares(
            options if isinstance(options, dict) else {}, [seat for seat, _ in seats]
        )
        return tuple(
            [
                _seat_player(SeatPlayer, (seat, player, shares.get(seat, 0)))
                for seat, player in seats
            ]
        )
    return tuple([_seat_player(SeatPlayer, (seat, player, 0)) for seat, player in seats])


#: SeatPlayer without its Python-level __new__: read_matches builds one per seat
_seat_player = tuple.__new__
