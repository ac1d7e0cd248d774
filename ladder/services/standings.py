"""Aggregating rating changes into standings, and writing them: the change rows
(COPY-sized INSERTs) and the ratings (upsert)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import datetime

from django.db import connection
from django.db.models.constants import OnConflict

from ladder.kernel import (
    Change,
    RatingKernel,
)
from ladder.models import Ladder, Rating, RatingChange
from ladder.services.reads import BATCH, RatedMatch


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

    def set_stored(
        self,
        player: int,
        wins: int,
        losses: int,
        roles: dict[str, dict[str, int]],
        last_played_at: datetime | None,
    ) -> None:
        """A player's record as a stored Rating has it."""
        self.wins[player] = wins
        self.losses[player] = losses
        self.roles[player] = roles
        if last_played_at:
            self.last_played[player] = last_played_at


def rating_rows(
    ladder: Ladder, kernel: RatingKernel, standings: Standings, players: Iterable[int]
) -> list[Rating]:
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
#: two tuples (``change_tuples``) rather than field by field.
CHANGE_COLUMNS = (
    "ladder_id",
    "match_id",
    "sequence",
    "played_at",
    "player_id",
    *Change._fields[1:],
)


def change_tuples(
    ladder_id: int, match: RatedMatch, sequence: int, changes: list[Change]
) -> Iterator[tuple]:
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
                sql, [row[:3] + (adapt(row[3]),) + row[4:] for row in rows[first : first + BATCH]]
            )


_UPSERT_FIELDS = (
    "ladder",
    "player",
    "rating",
    "games",
    "wins",
    "losses",
    "roles",
    "provisional",
    "last_played_at",
)


def upsert_ratings(rows: list[Rating]) -> None:
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
                [
                    field.get_db_prep_save(getattr(row, field.attname), connection)
                    for row in rows
                    for field in fields
                ],
            )
        return
    Rating.objects.bulk_create(
        rows,
        batch_size=BATCH,
        update_conflicts=True,
        unique_fields=["ladder", "player"],
        update_fields=[
            "rating",
            "games",
            "wins",
            "losses",
            "roles",
            "provisional",
            "last_played_at",
        ],
    )
