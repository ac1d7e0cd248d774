"""Reads for ladder pages and the API: standings, a player's history, head-to-head."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import F, QuerySet, Window
from django.db.models.functions import RowNumber
from django.http import Http404

from clubs.models import Club, Player
from clubs.policy import AnyUser, can_view_club
from engine import get_game
from games.display import rating_role
from ladder.charts import HistoryPoint
from ladder.models import Ladder, Rating, RatingChange, RecomputeJob

#: points in a standings row's sparkline
TREND_POINTS = 20


def visible_ladder(user: AnyUser, club_slug: str, key: str) -> Ladder:
    """The ladder of a page URL: ``key`` is the game id (the club's ladder) or the game id
    and ``-bots`` (its bot ladder, ``Ladder.url_key``)."""
    game, kind = Ladder.parse_url_key(key)
    ladder = (
        Ladder.objects.select_related("club")
        .filter(club__slug=club_slug, game=game, kind=kind)
        .first()
    )
    if ladder is None or not can_view_club(user, ladder.club):
        raise Http404("No such ladder")
    return ladder


def visible_ladders(user: AnyUser) -> QuerySet[Ladder]:
    from clubs.selectors import visible_clubs

    return Ladder.objects.filter(club__in=visible_clubs(user)).select_related("club")


def ladders_of_club(club: Club) -> QuerySet[Ladder]:
    """The club's ladders, each game's bot ladder after its normal one."""
    return Ladder.objects.filter(club=club).order_by("game", "-kind")


def ladder_player(ladder: Ladder, handle: str) -> Player:
    player = Player.objects.filter(club=ladder.club, handle=handle).first()
    if player is None:
        raise Http404("No such player in this club")
    return player


@dataclass
class StandingRow:
    rank: int
    rating: Rating
    trend: list[float] = field(default_factory=list)

    @property
    def player(self) -> Player:
        return self.rating.player


def standings(ladder: Ladder) -> list[StandingRow]:
    """Ranked by rating (ties: fewer games is not better — then by handle), each with
    the player's last TREND_POINTS ratings, in two queries."""
    ratings = list(
        Rating.objects.filter(ladder=ladder)
        .select_related("player")
        .order_by("-rating", "player__handle")
    )
    trends = recent_ratings(ladder, [r.player_id for r in ratings], TREND_POINTS)
    return [
        StandingRow(rank, rating, trends.get(rating.player_id, []))
        for rank, rating in enumerate(ratings, 1)
    ]


def recent_ratings(ladder: Ladder, player_ids: list[int], points: int) -> dict[int, list[float]]:
    """Per player, the rating before their last ``points`` matches then the current
    one (oldest first): a window query, not a query per player."""
    if not player_ids:
        return {}
    rows = (
        RatingChange.objects.filter(ladder=ladder, player_id__in=player_ids)
        .annotate(
            newest=Window(RowNumber(), partition_by=[F("player_id")], order_by=F("sequence").desc())
        )
        .filter(newest__lte=points)
        .order_by("player_id", "sequence")
        .values_list("player_id", "before", "after")
    )
    trends: dict[int, list[float]] = defaultdict(list)
    for player_id, before, after in rows:
        line = trends[player_id]
        if not line:
            line.append(before)
        line.append(after)
    return dict(trends)


def player_rating(ladder: Ladder, player: Player) -> Rating | None:
    return Rating.objects.filter(ladder=ladder, player=player).first()


def player_history(ladder: Ladder, player: Player, limit: int | None = None) -> list[RatingChange]:
    """The player's changes, newest first, with the match, its log's options and the other
    players' changes of the same match (for the pairwise sums of a free-for-all)."""
    changes = (
        RatingChange.objects.filter(ladder=ladder, player=player)
        .select_related("match")
        # the log's options, not the log: what a team's shares add up to (ladder.explain)
        .annotate(match_options=F("match__log__document__options"))
        .order_by("-sequence")
    )
    if limit is not None:
        changes = changes[:limit]
    changes = list(changes)
    others: dict[int, list[RatingChange]] = defaultdict(list)
    for other in (
        RatingChange.objects.filter(ladder=ladder, match_id__in=[c.match_id for c in changes])
        .select_related("player")
        .order_by("match_id", "id")
    ):
        others[other.match_id].append(other)
    for change in changes:
        change.match_changes = others[change.match_id]
    return changes


def rating_points(ladder: Ladder, player: Player) -> list[HistoryPoint]:
    """Every rated match of ``player`` on ``ladder``, oldest first, for the history chart:
    the rating before and after and the role played, named as the rating sums name it
    (a free-for-all has no roles: empty)."""
    game = get_game(ladder.game)
    shape = game.rating if game is not None else None

    def role(seat: str) -> str:
        if shape is None or shape.roles is None:
            return ""
        return shape.label(game.side_of(seat))

    rows = (
        RatingChange.objects.filter(ladder=ladder, player=player)
        .order_by("sequence")
        .values_list("played_at", "before", "after", "role", "match_id", "won")
    )
    named: dict[str, str] = {}  # a role's name, said once per role

    def point(
        at: Any, before: float, after: float, seat: str, match_id: int, won: bool
    ) -> HistoryPoint:
        label = role(seat)
        if label and label not in named:
            named[label] = rating_role(ladder.game, label)
        return HistoryPoint(at, before, after, label, match_id, won, named.get(label, ""))

    return [point(*row) for row in rows]


@dataclass
class HeadToHead:
    a: Player
    b: Player
    a_wins: int = 0  # a won, b lost
    b_wins: int = 0
    other: int = 0  # both lost (a free-for-all won by someone else) or same side
    matches: list[dict[str, Any]] = field(default_factory=list)

    @property
    def played(self) -> int:
        return len(self.matches)


def head_to_head(ladder: Ladder, a: Player, b: Player) -> HeadToHead:
    """Every rated match of the ladder both played, newest first, from their changes."""
    result = HeadToHead(a, b)
    changes: dict[int, dict[int, RatingChange]] = defaultdict(dict)
    for change in (
        RatingChange.objects.filter(ladder=ladder, player_id__in=[a.pk, b.pk])
        .select_related("match")
        .order_by("-sequence")
    ):
        changes[change.match_id][change.player_id] = change
    for by_player in changes.values():
        if len(by_player) != 2:
            continue
        ca, cb = by_player[a.pk], by_player[b.pk]
        if ca.won and not cb.won:
            result.a_wins += 1
            winner = a
        elif cb.won and not ca.won:
            result.b_wins += 1
            winner = b
        else:
            result.other += 1
            winner = None
        result.matches.append(
            {"match": ca.match, "a": ca, "b": cb, "winner": winner, "sequence": ca.sequence}
        )
    result.matches.sort(key=lambda m: -m["sequence"])
    return result


def latest_jobs(ladder: Ladder, limit: int = 5) -> QuerySet[RecomputeJob]:
    return RecomputeJob.objects.filter(ladder=ladder).order_by("-created_at", "-id")[:limit]


def match_changes(match_id: int) -> dict[int, RatingChange]:
    """The rating changes of one match by player id, with their ladder (the replay's header)."""
    return {
        change.player_id: change
        for change in RatingChange.objects.filter(match_id=match_id).select_related("ladder")
    }


def ratings_of(user: AnyUser, viewer: AnyUser | None = None) -> QuerySet[Rating]:
    """Every rating of the handles linked to ``user``'s account, in the clubs ``viewer``
    (by default ``user``) may see: their ratings across clubs (home page, profiles)."""
    if not user.is_authenticated:
        return Rating.objects.none()
    from clubs.selectors import visible_clubs

    return (
        Rating.objects.filter(player__user=user, ladder__club__in=visible_clubs(viewer or user))
        .select_related("ladder__club", "player")
        .order_by("ladder__club__name", "ladder__game", "ladder__kind")
    )


def ladder_by_id(user: AnyUser, ladder_id: int) -> Ladder:
    """The ladder ``user`` may see, by id (the API's): 404 otherwise, as if none."""
    # order_by(): not Ladder's default ordering, which joins the club again to sort.
    ladder = Ladder.objects.select_related("club").filter(pk=ladder_id).order_by().first()
    if ladder is None or not can_view_club(user, ladder.club):
        raise Http404("No such ladder")
    return ladder


def ratings_by_rank(ladder: Ladder) -> QuerySet[Rating]:
    """A ladder's ratings, highest first (ties by handle): the API's standings."""
    return (
        Rating.objects.filter(ladder=ladder)
        .select_related("player")
        .order_by("-rating", "player__handle")
    )


def rating_changes(ladder: Ladder, player_id: int) -> QuerySet[RatingChange]:
    """A player's rating changes in a ladder, newest first."""
    return RatingChange.objects.filter(ladder=ladder, player_id=player_id).order_by("-sequence")


def recompute_jobs(ladder: Ladder) -> QuerySet[RecomputeJob]:
    """A ladder's recompute jobs, newest first."""
    return RecomputeJob.objects.filter(ladder=ladder).order_by("-created_at", "-id")
