"""Rating one match as it is stored: incrementally after the newest rated match, or
by recomputing the ladder from a back-dated one."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from django.db import transaction
from django.db.models import Exists, F, OuterRef
from django.db.models.functions import Coalesce

from games.models import Match, MatchLog, MatchSeat
from ladder.kernel import (
    LadderState,
    RatingKernel,
    rate_seats,
    rating_shape,
)
from ladder.models import Ladder, Rating, RatingChange, RecomputeJob
from ladder.services.reads import (
    Outcome,
    RatedMatch,
    is_rated_match,
    rated_matches,
    rating_time,
    seat_players,
    team_game,
)
from ladder.services.recompute import recompute_ladder
from ladder.services.standings import (
    Standings,
    change_tuples,
    insert_changes,
    rating_rows,
    upsert_ratings,
)

log = logging.getLogger(__name__)


def locked_ladder(club_id: int, game: str, with_bots: bool) -> Ladder:
    """The ladder of a club's game (EL-1.1: one per club and game, and one for the
    matches against bots), locked until the transaction ends; created with the default
    options the first time the club's game is rated."""
    kind = Ladder.Kind.BOTS if with_bots else Ladder.Kind.STANDARD
    # get(), not first(): no ORDER BY, which for Ladder's ordering would join the club
    # and lock its row too.
    ladders = Ladder.objects.select_for_update()
    try:
        return ladders.get(club_id=club_id, game=game, kind=kind)
    except Ladder.DoesNotExist:
        Ladder.objects.get_or_create(club_id=club_id, game=game, kind=kind)
        return ladders.get(club_id=club_id, game=game, kind=kind)


#: what apply_match reads of a match under the ladder's lock (is_rated_match, rating_time)
_RATING_FIELDS = ("game", "status", "is_void", "winner", "played_at", "uploaded_at")


def apply_match(match_id: int) -> Outcome:
    """Rate one stored match. Safe to run any number of times, from any number of
    workers: the ladder is locked, a rated match is never rated again.

    The newest match of its ladder is rated incrementally. A back-dated match makes the
    ladder recompute from that match on, a rated match that is no longer rated (voided)
    the whole ladder, so the result always equals rating every match in order.
    """
    # Which ladder: a match's club, game and kind of players never change.
    found = (
        Match.objects.filter(pk=match_id)
        .order_by()
        .values_list("club_id", "game", "with_bots")
        .first()
    )
    if found is None or rating_shape(found[1]) is None:
        return Outcome.NOT_RATED
    with transaction.atomic():
        ladder = locked_ladder(*found)
        # Read under the lock: whether it counts (a void may have just committed) and
        # whether it is rated already, in one query.
        match = (
            Match.objects.only(*_RATING_FIELDS)
            .annotate(
                already=Exists(RatingChange.objects.filter(ladder=ladder, match=OuterRef("pk")))
            )
            .get(pk=match_id)
        )
        already = match.already
        if is_rated_match(match) == already:
            return Outcome.ALREADY_RATED if already else Outcome.NOT_RATED
        key = (rating_time(match), match.pk)
        newest = ladder.last_rated_at is None or key > (
            ladder.last_rated_at,
            ladder.last_rated_match_id or 0,
        )
        if not already and newest:
            return Outcome.RATED if _rate_newest(ladder, match) else Outcome.NOT_RATED
    if already:  # rated, now void: everything from scratch
        recompute_ladder(ladder.pk, reason=RecomputeJob.Reason.CHANGED)
    else:  # back-dated: from that match on (or an earlier one still waiting)
        recompute_ladder(
            ladder.pk,
            reason=RecomputeJob.Reason.BACKDATED,
            since=min(key, earliest_unrated(ladder)),
            hold_lock=True,
        )
    return Outcome.RECOMPUTED


def earliest_unrated(ladder: Ladder) -> tuple[datetime, int]:
    """(time, id) of the ladder's first rated match that has no rating yet. A bulk
    import queues one task per match: the first back-dated one rates them all in one
    recompute, and the tasks of the others then find them rated."""
    first = (
        rated_matches()
        .filter(club_id=ladder.club_id, game=ladder.game, with_bots=ladder.with_bots)
        .exclude(Exists(RatingChange.objects.filter(match=OuterRef("pk"))))
        .annotate(at=Coalesce("played_at", "uploaded_at"))
        .order_by("at", "id")
        .values_list("at", "id")
        .first()
    )
    return first if first else (datetime.max.replace(tzinfo=UTC), 0)


def _rate_newest(ladder: Ladder, match: Match) -> bool:
    """Rate the ladder's newest match (a rated match: is_rated_match) from the stored
    ratings (lock held)."""
    team = team_game(ladder.game)
    options = (
        MatchLog.objects.filter(match_id=match.pk)
        .values_list("document__options", flat=True)
        .first()
        if team is not None
        else None
    )
    seats = list(
        MatchSeat.objects.filter(match_id=match.pk).order_by("id").values_list("seat", "player_id")
    )
    rated = RatedMatch(
        match.pk, rating_time(match), seat_players(seats, team, options), match.winner
    )
    state = LadderState(role_tallies={role: list(t) for role, t in ladder.role_tallies.items()})
    standings = Standings()
    for player, rating, games, wins, losses, roles, last_played_at in (
        Rating.objects.filter(ladder=ladder, player_id__in=[player for _, player in seats])
        .order_by()  # Rating's ordering would join the ladder and the club to sort
        .values_list("player_id", "rating", "games", "wins", "losses", "roles", "last_played_at")
    ):
        state.ratings[player], state.games[player] = rating, games
        standings.set_stored(player, wins, losses, roles, last_played_at)
    kernel = RatingKernel(ladder.rating_options, state)
    try:
        changes = rate_seats(kernel, ladder.game, rated.seats, rated.winner)
    except ValueError as exc:
        log.warning("match %s not rated: %s", rated.id, exc)
        return False
    standings.add(changes, rated.at)
    sequence = ladder.rated_matches + 1
    insert_changes(list(change_tuples(ladder.pk, rated, sequence, changes)))
    upsert_ratings(rating_rows(ladder, kernel, standings, sorted({c.player for c in changes})))
    Ladder.objects.filter(pk=ladder.pk).update(
        role_tallies=kernel.state.role_tallies,
        last_rated_at=rated.at,
        last_rated_match_id=rated.id,
        rated_matches=sequence,
        version=F("version") + 1,
    )
    return True
