"""Writing ratings: rate one match, or recompute a whole ladder (ratings.md, EL-*).

Every write to a ladder's ratings happens with its Ladder row locked
(``select_for_update``), so two workers never rate one ladder at once, and bumps
``Ladder.version``. The maths is ``ladder.kernel``; this module feeds it matches in
rating order (EL-1.3: played_at, then match id) from bulk reads and stores what it
returns.

A recompute (the whole ladder, or from a back-dated match on, starting from the
stored state before it) computes in memory first (progress visible on its
RecomputeJob), then swaps the ladder's ratings and history in one transaction: a
crash leaves the previous ratings in place, and the same matches always give the
same numbers.
"""

from __future__ import annotations

import enum
import gc
import logging
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, Exists, F, Min, OuterRef, Q, QuerySet, Window
from django.db.models.constants import OnConflict
from django.db.models.functions import Coalesce, RowNumber
from django.utils import timezone

from config.queueing import send_task, send_task_on_commit
from engine import ONE_AGAINST_TEAM, Game, get_game
from games.models import Match, MatchLog, MatchSeat
from ladder.kernel import (
    Change,
    LadderState,
    RatingKernel,
    SeatPlayer,
    opposed_roles,
    rate_seats,
    rated_games,
    rating_shape,
)
from ladder.models import Ladder, Rating, RatingChange, RecomputeJob

log = logging.getLogger(__name__)

#: a recompute looks at the clock every this many matches at most...
PROGRESS_EVERY = 5000
#: ...and about this many times in all on smaller ladders...
PROGRESS_STEPS = 100
#: ...and saves its progress when this many seconds passed since it last did: the
#: dashboard's bar moves on long recomputes, a short one writes nothing extra.
PROGRESS_SECONDS = 0.5
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


# --- reading matches in rating order ---------------------------------------------------


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
    matches = rated_matches().filter(club_id=club_id, game=game).annotate(
        at=Coalesce("played_at", "uploaded_at")
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
    id_filter = Q(match_id__in=ids) if match_ids is not None else Q(
        match__in=matches.values("id")
    )
    seats: dict[int, list[tuple[str, int]]] = {}
    for match_id, seat, player_id in (
        MatchSeat.objects.filter(id_filter).order_by("match_id", "id").values_list(
            "match_id", "seat", "player_id"
        )
    ):
        seats.setdefault(match_id, []).append((seat, player_id))
    options: dict[int, Any] = {}
    team = _team_game(game)
    if team is not None:
        options = dict(
            MatchLog.objects.filter(id_filter).values_list("match_id", "document__options")
        )
    no_seats: list[tuple[str, int]] = []
    return [
        RatedMatch(match_id, at, seat_players(seats.get(match_id, no_seats), team,
                                              options.get(match_id)), winner)
        for match_id, at, winner in rows
    ]


def _team_game(game_id: str) -> Game | None:
    """The engine's game when it is rated one against a team (its team seats weigh by
    their shares, which depend on the log's options), else None."""
    game = get_game(game_id)
    rating = None if game is None else game.rating
    return game if rating is not None and rating.kind == ONE_AGAINST_TEAM else None


def seat_players(seats: list[tuple[str, int]], team: Game | None,
                 options: Any) -> tuple[SeatPlayer, ...]:
    """The kernel's seats of one match from its (seat, player id) pairs in seat order;
    ``team``: the game when it is rated one against a team, whose team seats weigh by
    their shares with the log's ``options`` (EL-5.1: ``Game.team_shares``)."""
    if team is not None:
        shares = team.team_shares(options if isinstance(options, dict) else {},
                                  [seat for seat, _ in seats])
        return tuple([
            _seat_player(SeatPlayer, (seat, player, shares.get(seat, 0))) for seat, player in seats
        ])
    return tuple([_seat_player(SeatPlayer, (seat, player, 0)) for seat, player in seats])


#: SeatPlayer without its Python-level __new__: read_matches builds one per seat
_seat_player = tuple.__new__


# --- aggregating changes into standings ---------------------------------------------------


class Standings:
    """W–L and per-role records built up from the kernel's changes."""

    def __init__(self) -> None:
        self.wins: dict[int, int] = {}
        self.losses: dict[int, int] = {}
        self.roles: dict[int, dict[str, dict[str, int]]] = {}
        self.last_played: dict[int, datetime] = {}

    def add(self, changes: list[Change], at: datetime) -> None:
        wins, losses, roles, last_played = self.wins, self.losses, self.roles, self.last_played
        for change in changes:
            player = change.player
            table = wins if change.won else losses
            table[player] = table.get(player, 0) + 1
            # Looked up before created: a recompute adds hundreds of thousands of changes
            # to a few thousand records.
            records = roles.get(player)
            if records is None:
                records = roles[player] = {}
            record = records.get(change.role)
            if record is None:
                record = records[change.role] = {"wins": 0, "losses": 0}
            record["wins" if change.won else "losses"] += 1
            last_played[player] = at

    def set_stored(self, player: int, wins: int, losses: int,
                   roles: dict[str, dict[str, int]], last_played_at: datetime | None) -> None:
        """A player's record as a stored Rating has it."""
        self.wins[player] = wins
        self.losses[player] = losses
        self.roles[player] = roles
        if last_played_at:
            self.last_played[player] = last_played_at


def _rating_rows(ladder: Ladder, kernel: RatingKernel, standings: Standings,
                 players: Iterable[int]) -> list[Rating]:
    state = kernel.state
    return [
        Rating(
            ladder=ladder,
            player_id=player,
            rating=state.ratings[player],
            games=state.games[player],
            wins=standings.wins.get(player, 0),
            losses=standings.losses.get(player, 0),
            roles=standings.roles.get(player, {}),
            provisional=kernel.is_provisional(player),
            last_played_at=standings.last_played.get(player),
        )
        for player in players
    ]


#: RatingChange columns of a history row (written with COPY / executemany): the match's
#: part, then the kernel's :class:`Change` field by field, so a row is built by joining
#: two tuples (``_change_tuples``) rather than field by field.
CHANGE_COLUMNS = ("ladder_id", "match_id", "sequence", "played_at", "player_id",
                  *Change._fields[1:])


def _change_tuples(ladder_id: int, match: RatedMatch, sequence: int,
                   changes: list[Change]) -> Iterator[tuple]:
    """RatingChange rows as plain tuples: a recompute writes hundreds of thousands, and
    model instances would cost more than the rating itself."""
    return map((ladder_id, match.id, sequence, match.at).__add__, changes)


#: up to this many RatingChange rows (one rated match has 2 to 6) go in one multi-row
#: INSERT; more (a recompute) by COPY on PostgreSQL, batched executemany elsewhere
INSERT_ROWS_AT_MOST = 64


def insert_changes(rows: list[tuple]) -> None:
    """Bulk insert of RatingChange tuples: one INSERT for a few rows, COPY on PostgreSQL
    or batched executemany elsewhere for more."""
    table = connection.ops.quote_name(RatingChange._meta.db_table)
    columns = ", ".join(connection.ops.quote_name(c) for c in CHANGE_COLUMNS)
    adapt = connection.ops.adapt_datetimefield_value
    with connection.cursor() as cursor:
        if len(rows) <= INSERT_ROWS_AT_MOST:
            # One statement, one round trip: COPY costs two (the column types first) and
            # more set-up than the rows of one match are worth.
            if not rows:
                return
            row_sql = f"({', '.join(['%s'] * len(CHANGE_COLUMNS))})"
            cursor.execute(
                f"INSERT INTO {table} ({columns}) VALUES {', '.join([row_sql] * len(rows))}",
                [value for row in rows for value in (*row[:3], adapt(row[3]), *row[4:])],
            )
            return
        if connection.vendor == "postgresql":
            # Binary COPY: nine floats a row go over as their 8 bytes (the same value to
            # the last bit, like the text form) instead of being printed and parsed —
            # a seventh of text COPY's Python time. Binary needs each column's exact
            # type: the table itself says which (an empty SELECT's description).
            cursor.execute(f"SELECT {columns} FROM {table} LIMIT 0")
            types = [column.type_code for column in cursor.description]
            with cursor.copy(f"COPY {table} ({columns}) FROM STDIN (FORMAT BINARY)") as copy:
                copy.set_types(types)
                for row in rows:
                    copy.write_row(row)
            return
        sql = f"INSERT INTO {table} ({columns}) VALUES ({', '.join(['%s'] * len(CHANGE_COLUMNS))})"
        for first in range(0, len(rows), BATCH):
            cursor.executemany(
                sql, [row[:3] + (adapt(row[3]),) + row[4:] for row in rows[first:first + BATCH]]
            )


# --- rating one match ---------------------------------------------------------------------


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
        Match.objects.filter(pk=match_id).order_by().values_list("club_id", "game", "with_bots")
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
            .annotate(already=Exists(RatingChange.objects.filter(ladder=ladder, match=OuterRef("pk"))))
            .get(pk=match_id)
        )
        already = match.already
        if is_rated_match(match) == already:
            return Outcome.ALREADY_RATED if already else Outcome.NOT_RATED
        key = (rating_time(match), match.pk)
        newest = ladder.last_rated_at is None or key > (
            ladder.last_rated_at, ladder.last_rated_match_id or 0
        )
        if not already and newest:
            return Outcome.RATED if _rate_newest(ladder, match) else Outcome.NOT_RATED
    if already:  # rated, now void: everything from scratch
        recompute_ladder(ladder.pk, reason=RecomputeJob.Reason.CHANGED)
    else:  # back-dated: from that match on (or an earlier one still waiting)
        recompute_ladder(
            ladder.pk, reason=RecomputeJob.Reason.BACKDATED, since=min(key, earliest_unrated(ladder)),
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
    team = _team_game(ladder.game)
    options = (
        MatchLog.objects.filter(match_id=match.pk).values_list("document__options", flat=True)
        .first() if team is not None else None
    )
    seats = list(MatchSeat.objects.filter(match_id=match.pk).order_by("id")
                 .values_list("seat", "player_id"))
    rated = RatedMatch(match.pk, rating_time(match), seat_players(seats, team, options), match.winner)
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
    insert_changes(list(_change_tuples(ladder.pk, rated, sequence, changes)))
    _upsert_ratings(_rating_rows(ladder, kernel, standings, sorted({c.player for c in changes})))
    Ladder.objects.filter(pk=ladder.pk).update(
        role_tallies=kernel.state.role_tallies,
        last_rated_at=rated.at,
        last_rated_match_id=rated.id,
        rated_matches=sequence,
        version=F("version") + 1,
    )
    return True


# --- recomputing a ladder --------------------------------------------------------------------


@dataclass
class Computed:
    """A ladder (or its tail from ``first_sequence`` on) computed in memory, ready to
    swap in."""

    version: int
    first_sequence: int  # 1: the whole ladder
    kernel: RatingKernel
    standings: Standings
    changes: list[tuple]  # RatingChange rows, CHANGE_COLUMNS
    last: RatedMatch | None
    count: int  # matches rated here
    #: matches the kernel refused (e.g. one player in both seats), with the reason
    skipped: list[str]


def base_state(ladder: Ladder, first_sequence: int,
               player_ids: set[int]) -> tuple[LadderState, Standings]:
    """The ladder as it stood before the match numbered ``first_sequence``, for the given
    players, from the stored history (four grouped queries)."""
    state, standings = LadderState(), Standings()
    earlier = RatingChange.objects.filter(ladder=ladder, sequence__lt=first_sequence)
    if first_sequence <= 1:
        return state, standings
    mine = earlier.filter(player_id__in=player_ids)
    latest = (
        mine.annotate(newest=Window(RowNumber(), partition_by=[F("player_id")],
                                    order_by=F("sequence").desc()))
        .filter(newest=1)
        .values_list("player_id", "after", "played_at")
    )
    for player, after, at in latest:
        state.ratings[player] = after
        standings.last_played[player] = at
    for player, role, won, count in (
        mine.values("player_id", "role", "won").annotate(n=Count("id"))
        .values_list("player_id", "role", "won", "n")
    ):
        state.games[player] = state.games.get(player, 0) + count
        table = standings.wins if won else standings.losses
        table[player] = table.get(player, 0) + count
        record = standings.roles.setdefault(player, {}).setdefault(role, {"wins": 0, "losses": 0})
        record["wins" if won else "losses"] += count
    # EL-3.3 tallies: one change per match carries the tallied role (cryptid, mrx).
    for role, won, count in (
        earlier.filter(role__in=list(opposed_roles())).values("role", "won")
        .annotate(n=Count("id")).values_list("role", "won", "n")
    ):
        tally = state.role_tallies.setdefault(role, [0, 0])
        tally[0] += count if won else 0
        tally[1] += count
    return state, standings


def compute_ladder(
    ladder: Ladder,
    progress: Callable[[int, int], None] | None = None,
    since: tuple[datetime, int] | None = None,
) -> Computed:
    """Rate the ladder's matches in memory (no writes): all of them, or, ``since`` a
    back-dated match, that match and every one after it, from the stored state before."""
    version = ladder.version
    first_sequence = 1
    if since is not None:
        at, match_id = since
        first_sequence = (
            RatingChange.objects.filter(ladder=ladder)
            .filter(Q(played_at__gt=at) | Q(played_at=at, match_id__gte=match_id))
            .aggregate(first=Min("sequence"))["first"]
            or ladder.rated_matches + 1
        )
    with collector_paused():
        matches = read_matches(ladder.club_id, ladder.game, since=since,
                               with_bots=ladder.with_bots)
        players = {seat.player for match in matches for seat in match.seats}
        state, standings = base_state(ladder, first_sequence, players)
        kernel = RatingKernel(ladder.rating_options, state)
        rows: list[tuple] = []
        total = len(matches)
        every = progress_interval(total)
        sequence, last, skipped = first_sequence, None, []
        reported = time.monotonic()
        for n, match in enumerate(matches, 1):
            try:
                changes = rate_seats(kernel, ladder.game, match.seats, match.winner)
            except ValueError as exc:  # refused before any state changed
                skipped.append(f"match {match.id} not rated: {exc}")
                continue
            standings.add(changes, match.at)
            rows.extend(_change_tuples(ladder.pk, match, sequence, changes))
            sequence, last = sequence + 1, match
            if progress and n % every == 0 and time.monotonic() - reported >= PROGRESS_SECONDS:
                progress(n, total)
                reported = time.monotonic()
    return Computed(version, first_sequence, kernel, standings, rows, last,
                    sequence - first_sequence, skipped)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off for a block (and back as it was after).

    A recompute builds millions of long-lived objects (matches, seats, history rows)
    and no reference cycles; the collector, triggered by every few hundred new
    objects, would walk all of them again and again — measured at 3/4 of the CPU
    time of reading 100,000 matches. Reference counting still frees everything."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def progress_interval(total: int) -> int:
    """How often (in matches) a recompute of ``total`` matches looks whether to save its
    progress: about PROGRESS_STEPS times, and at least every PROGRESS_EVERY matches."""
    return max(1, min(PROGRESS_EVERY, total // PROGRESS_STEPS))


def report_progress(job_id: int, done: int, total: int) -> None:
    """Save a running recompute's progress (matches rated so far of ``total``), which is
    also its sign of life; the dashboard and the jobs API read it while it goes on."""
    RecomputeJob.objects.filter(pk=job_id).update(
        progress=done, total=total, phase="rating", heartbeat_at=timezone.now()
    )


def swap_in(ladder: Ladder, computed: Computed) -> bool:
    """Replace the ladder's ratings and history (from ``first_sequence`` on) by
    ``computed`` in one transaction. Returns False (and writes nothing) when the ladder
    changed since it was computed."""
    with transaction.atomic():
        locked = Ladder.objects.select_for_update().get(pk=ladder.pk)
        if locked.version != computed.version:
            return False
        kernel = computed.kernel
        ratings = _rating_rows(locked, kernel, computed.standings, sorted(kernel.state.ratings))
        rows = computed.changes
        # Only the history from the first match that differs is rewritten: the nightly
        # recompute of a ladder nothing happened to writes no history at all.
        start, rewrite_from = unchanged_history(locked, rows, computed.first_sequence)
        RatingChange.objects.filter(ladder=locked, sequence__gte=rewrite_from).delete()
        insert_changes(rows[start:])
        if computed.first_sequence == 1:
            Rating.objects.filter(ladder=locked).delete()
            Rating.objects.bulk_create(ratings, batch_size=BATCH)
        else:  # players of the recomputed matches only; the others did not change
            _upsert_ratings(ratings)
        last = computed.last
        if last is None and computed.first_sequence > 1:
            # Nothing after the kept history: the newest match is the last one kept.
            kept = (
                RatingChange.objects.filter(ladder=locked)
                .order_by("-sequence")
                .values_list("played_at", "match_id")
                .first()
            )
            last_at, last_id = kept if kept else (None, None)
        else:
            last_at, last_id = (last.at, last.id) if last else (None, None)
        Ladder.objects.filter(pk=locked.pk).update(
            role_tallies=kernel.state.role_tallies,
            last_rated_at=last_at,
            last_rated_match_id=last_id,
            rated_matches=computed.first_sequence - 1 + computed.count,
            version=F("version") + 1,
        )
    return True


#: index of ``sequence`` in a history row (CHANGE_COLUMNS)
_SEQUENCE = CHANGE_COLUMNS.index("sequence")


def unchanged_history(ladder: Ladder, rows: list[tuple], first_sequence: int) -> tuple[int, int]:
    """(index in ``rows``, sequence) of the first match whose history ``rows`` (computed
    from ``first_sequence`` on) changes: rows before it are stored already, exactly, and
    stay; the stored history from that sequence on is to be replaced by ``rows[index:]``.

    Reads the stored rows in order and stops at the first difference: a ladder whose
    options changed stops at once, an unchanged one reads its history (much cheaper than
    rewriting it: every stored row costs index entries and three foreign-key checks).
    Floats compare by value (0.0 equals -0.0: SQLite does not keep the sign of zero)."""
    stored = (
        RatingChange.objects.filter(ladder=ladder, sequence__gte=first_sequence)
        .order_by("sequence", "id")
        .values_list(*CHANGE_COLUMNS)
        .iterator(chunk_size=BATCH)
    )
    index = 0
    for new in rows:
        old = next(stored, None)
        if old != new:  # a changed row, or the stored history ends here
            differs_at = new[_SEQUENCE] if old is None else min(old[_SEQUENCE], new[_SEQUENCE])
            break
        index += 1
    else:
        extra = next(stored, None)  # stored rows beyond the computed ones go
        if extra is None:
            return len(rows), (rows[-1][_SEQUENCE] + 1 if rows else first_sequence)
        differs_at = extra[_SEQUENCE]
    # Back to the first row of the differing match: a match is rewritten whole.
    start = index
    while start > 0 and rows[start - 1][_SEQUENCE] >= differs_at:
        start -= 1
    return start, differs_at


#: Rating columns _upsert_ratings writes; (ladder, player) is the conflict it updates on
_UPSERT_FIELDS = ("ladder", "player", "rating", "games", "wins", "losses", "roles",
                  "provisional", "last_played_at")


def _upsert_ratings(rows: list[Rating]) -> None:
    """Insert or update these ratings: one INSERT … ON CONFLICT for the few of one match
    (bulk_create builds the same statement through more machinery than the rows are
    worth), bulk_create in batches for a recompute's."""
    if len(rows) <= INSERT_ROWS_AT_MOST:
        if not rows:
            return
        ops = connection.ops
        fields = [Rating._meta.get_field(name) for name in _UPSERT_FIELDS]
        columns = [field.column for field in fields]
        row_sql = f"({', '.join(['%s'] * len(fields))})"
        suffix = ops.on_conflict_suffix_sql(
            fields, OnConflict.UPDATE, columns[2:], unique_fields=columns[:2]
        )
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {ops.quote_name(Rating._meta.db_table)} "
                f"({', '.join(map(ops.quote_name, columns))}) "
                f"VALUES {', '.join([row_sql] * len(rows))} {suffix}",
                [field.get_db_prep_save(getattr(row, field.attname), connection)
                 for row in rows for field in fields],
            )
        return
    Rating.objects.bulk_create(
        rows,
        batch_size=BATCH,
        update_conflicts=True,
        unique_fields=["ladder", "player"],
        update_fields=["rating", "games", "wins", "losses", "roles", "provisional", "last_played_at"],
    )


def recompute_ladder(
    ladder_id: int,
    *,
    reason: str = RecomputeJob.Reason.MANUAL,
    job: RecomputeJob | None = None,
    since: tuple[datetime, int] | None = None,
    hold_lock: bool = False,
) -> RecomputeJob:
    """Recompute one ladder from all its rated matches, or from ``since`` (a back-dated
    match's (time, id)) on; deterministic and idempotent.

    Computes without holding the lock (progress is saved as it goes), then swaps in
    under the lock; if a match was rated meanwhile, computes again (at most three
    times, then once more while holding the lock). ``hold_lock``: compute while holding
    it from the start, as a back-dated upload does — on a ladder busy with uploads the
    attempts without it are mostly overtaken by the next rating, and each is wasted."""
    if job is None:
        job = RecomputeJob.objects.create(ladder_id=ladder_id, reason=reason)
    job.status, job.started_at, job.phase = RecomputeJob.Status.RUNNING, timezone.now(), "reading"
    job.error, job.heartbeat_at = "", job.started_at
    job.save(update_fields=["status", "started_at", "phase", "error", "heartbeat_at"])

    def progress(done: int, total: int) -> None:
        report_progress(job.pk, done, total)

    try:
        # Paused for the whole recompute, and the computed history dropped before it
        # resumes: its first collection then has nothing big left to walk.
        with collector_paused():
            for attempt in range(3 if hold_lock else 0, 4):
                if attempt == 3:
                    with transaction.atomic():
                        ladder = Ladder.objects.select_for_update().get(pk=ladder_id)
                        computed = compute_ladder(ladder, since=since)
                        swap_in(ladder, computed)  # nested: the lock is ours, the version holds
                    break
                ladder = Ladder.objects.get(pk=ladder_id)
                computed = compute_ladder(ladder, progress, since)
                RecomputeJob.objects.filter(pk=job.pk).update(
                    progress=computed.count, total=computed.count, phase="writing",
                    heartbeat_at=timezone.now(),
                )
                if swap_in(ladder, computed):
                    break
                log.info("ladder %s changed while recomputing; computing again", ladder_id)
            count, skipped = computed.count, computed.skipped
            del computed
    except Exception as exc:
        RecomputeJob.objects.filter(pk=job.pk).update(
            status=RecomputeJob.Status.FAILED,
            error=f"{type(exc).__name__}: {exc}",
            finished_at=timezone.now(),
        )
        raise
    RecomputeJob.objects.filter(pk=job.pk).update(
        status=RecomputeJob.Status.DONE,
        progress=count,
        total=count,
        phase="",
        error="\n".join(skipped),
        finished_at=timezone.now(),
    )
    job.refresh_from_db()
    return job


class RecomputeError(Exception):
    """A recompute request that cannot be carried out, with a sentence for the operator."""


#: A queued or running job with no sign of life for this long has lost its task or its
#: worker (killed, the broker lost the message): it may be retried like a failed one.
#: A running job saves its progress every PROGRESS_SECONDS; writing a very large
#: ladder's history is its longest silence, far below this.
STALLED_AFTER = timedelta(minutes=15)


def last_sign_of_life(job: RecomputeJob) -> datetime:
    return job.heartbeat_at or job.started_at or job.created_at


def is_stalled(job: RecomputeJob, now: datetime | None = None) -> bool:
    """Queued or running, and silent for STALLED_AFTER."""
    if job.status not in (RecomputeJob.Status.QUEUED, RecomputeJob.Status.RUNNING):
        return False
    return (now or timezone.now()) - last_sign_of_life(job) >= STALLED_AFTER


def queue_recompute(ladder: Ladder, reason: str) -> RecomputeJob:
    """A queued job (visible at once) and its task, sent once this transaction commits."""
    job = RecomputeJob.objects.create(ladder=ladder, reason=reason)
    send_task_on_commit("ladder.recompute_ladder", ladder.pk, reason, job.pk)
    return job


def retry_recompute(actor: Any, job_id: int) -> RecomputeJob:
    """Queue the ladder of a failed or stalled recompute again (a new job: the failed one
    keeps its error; a stalled one is marked failed, saying so) and note in the club's
    audit trail who did. Refused when the job neither failed nor stalled, or its ladder
    has a newer job already (retried, or recomputed since)."""
    from clubs.services import audit

    with transaction.atomic():
        # Locking the failed job makes two clicks on Retry queue one recompute, not two.
        job = (
            RecomputeJob.objects.select_for_update()
            .select_related("ladder__club")
            .filter(pk=job_id)
            .first()
        )
        if job is None:
            raise RecomputeError("There is no such recompute job.")
        stalled = is_stalled(job)
        if job.status != RecomputeJob.Status.FAILED and not stalled:
            raise RecomputeError(
                f"Job {job.pk} did not fail and is not stalled ({job.get_status_display()})."
            )
        # Ids grow with time: a job with a larger id on the ladder came after this one.
        newer = (
            RecomputeJob.objects.filter(ladder=job.ladder, pk__gt=job.pk).order_by("-pk").first()
        )
        if newer is not None:
            raise RecomputeError(
                f"The ladder has a newer recompute (job {newer.pk}, "
                f"{newer.get_status_display().lower()}): nothing to retry."
            )
        if stalled:
            _mark_stalled(job, "retried")
        retry = queue_recompute(job.ladder, RecomputeJob.Reason.MANUAL)
        audit(
            job.ladder.club,
            actor,
            "ladder.recompute_retry",
            f"retried the {'stalled' if stalled else 'failed'} recompute of the "
            f"{job.ladder.title} (job {job.pk}, now job {retry.pk})",
            ladder=job.ladder.pk,
            failed_job=job.pk,
            job=retry.pk,
        )
    return retry


#: How every job marked stalled begins its error (how the automatic retry counts them).
STALLED = "Stalled:"
#: Recomputes of one ladder that may stall in a row (each lost its worker or its task)
#: before the last is left failed for an operator: a recompute that kills its worker
#: every time is not retried forever.
MAX_STALLED_IN_A_ROW = 3


def _mark_stalled(job: RecomputeJob, outcome: str) -> None:
    silent_since = timezone.localtime(last_sign_of_life(job)).strftime("%Y-%m-%d %H:%M")
    job.error = (
        f"{STALLED} {job.get_status_display().lower()} with no sign of life since "
        f"{silent_since} (its task or its worker was lost); {outcome}."
    )
    job.status, job.finished_at = RecomputeJob.Status.FAILED, timezone.now()
    job.save(update_fields=["status", "finished_at", "error"])


def retry_stalled_recomputes() -> int:
    """Every few minutes (beat): each stalled job (queued or running, silent for
    STALLED_AFTER: its worker died or its task was lost) is marked failed, saying so, and
    its ladder queued again — unless it is the ladder's MAX_STALLED_IN_A_ROW-th stalled
    job in a row: then it stays failed, on the dashboard, for an operator to retry.
    Returns how many were queued again."""
    queued = 0
    active = RecomputeJob.objects.filter(
        status__in=[RecomputeJob.Status.QUEUED, RecomputeJob.Status.RUNNING]).order_by("pk")
    for job in active.select_related("ladder"):
        if not is_stalled(job):
            continue
        with transaction.atomic():
            job = RecomputeJob.objects.select_for_update().select_related("ladder").get(pk=job.pk)
            if not is_stalled(job):
                continue
            newer = RecomputeJob.objects.filter(ladder=job.ladder, pk__gt=job.pk).exists()
            earlier = RecomputeJob.objects.filter(ladder=job.ladder, pk__lt=job.pk).order_by("-pk")
            in_a_row = 1
            for error in earlier.values_list("error", flat=True)[:MAX_STALLED_IN_A_ROW]:
                if not error.startswith(STALLED):
                    break
                in_a_row += 1
            if newer:
                _mark_stalled(job, "not retried: the ladder has a newer recompute")
            elif in_a_row >= MAX_STALLED_IN_A_ROW:
                _mark_stalled(job, f"not retried: {in_a_row} recomputes of this ladder in a row "
                                   "lost their worker (Retry on the dashboard once it is understood)")
            else:
                _mark_stalled(job, "retried automatically")
                queue_recompute(job.ladder, job.reason)
                queued += 1
    return queued


def recompute_all_ladders(reason: str = RecomputeJob.Reason.NIGHTLY) -> list[RecomputeJob]:
    return [recompute_ladder(pk, reason=reason) for pk in Ladder.objects.values_list("pk", flat=True)]


def ensure_ladders() -> None:
    """A ladder for every (club, game) with rated matches but none yet, and a bot ladder
    for every (club, game) with rated matches against bots (nightly)."""
    pairs = (
        rated_matches().filter(game__in=rated_games())
        .values_list("club_id", "game", "with_bots").distinct()
    )
    for club_id, game, with_bots in pairs:
        kind = Ladder.Kind.BOTS if with_bots else Ladder.Kind.STANDARD
        Ladder.objects.get_or_create(club_id=club_id, game=game, kind=kind)



# --- matches whose rating task was lost ----------------------------------------------------

#: A match stored this long ago without a rating lost its task (the broker was down when
#: it was stored, say): it is queued again. Younger ones may still be in the queue.
REQUEUE_AFTER = timedelta(minutes=2)
#: Only matches stored this recently are looked at (a bounded scan every few minutes);
#: the nightly recompute rates every match of every ladder, older ones included.
REQUEUE_WITHIN = timedelta(days=2)
#: At most this many matches queued per run; the next run takes the rest.
REQUEUE_LIMIT = 2000


def unrated_matches(
    *, older_than: timedelta = REQUEUE_AFTER, within: timedelta = REQUEUE_WITHIN
) -> QuerySet[Match]:
    """Matches that count for a ladder (EL-1.2) but have no rating, stored between
    ``within`` and ``older_than`` ago."""
    now = timezone.now()
    return (
        rated_matches()
        .filter(game__in=rated_games(), uploaded_at__lte=now - older_than,
                uploaded_at__gt=now - within)
        .exclude(Exists(RatingChange.objects.filter(match=OuterRef("pk"))))
    )


def is_rateable(game: str, match: RatedMatch) -> bool:
    """Whether the kernel accepts the match at all (EL-4..6: e.g. not one player in
    both seats). The checks do not depend on the ratings, so a blank ladder decides."""
    try:
        rate_seats(RatingKernel(), game, match.seats, match.winner)
    except ValueError:
        return False
    return True


def requeue_unrated_matches(
    *,
    older_than: timedelta = REQUEUE_AFTER,
    within: timedelta = REQUEUE_WITHIN,
    limit: int = REQUEUE_LIMIT,
) -> int:
    """Queue ``rate_match`` again for every match :func:`unrated_matches` finds, in
    rating order per ladder (the first back-dated one recomputes the ladder from the
    earliest unrated match on; the others then find themselves rated). Matches the
    kernel refuses are left out: rating them again would only recompute for nothing.
    Stops when the broker is still unreachable. Returns how many were queued."""

    per_ladder: dict[tuple[int, str], list[int]] = {}
    for match_id, club_id, game in (
        unrated_matches(older_than=older_than, within=within)
        .order_by("id")
        .values_list("id", "club_id", "game")[:limit]
    ):
        per_ladder.setdefault((club_id, game), []).append(match_id)
    queued = 0
    for (club_id, game), match_ids in per_ladder.items():
        for match in read_matches(club_id, game, match_ids=match_ids):
            if not is_rateable(game, match):
                continue
            if not send_task("ladder.rate_match", match.id):
                log.warning("requeue stopped after %s matches: the broker is unreachable", queued)
                return queued
            queued += 1
    if queued:
        log.info("queued %s unrated matches for rating again", queued)
    return queued
