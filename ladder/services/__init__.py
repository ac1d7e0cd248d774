"""Writing ratings: rate one match, or recompute a whole ladder (ratings.md, EL-*), a
module per verb:

- :mod:`~ladder.services.reads`: the matches in rating order (EL-1.3), read in bulk;
- :mod:`~ladder.services.standings`: changes aggregated into standings; the change rows
  and ratings written (bulk INSERT, upsert);
- :mod:`~ladder.services.rating`: one match rated as it is stored (:func:`apply_match`);
- :mod:`~ladder.services.recompute`: a whole ladder recomputed, then swapped in;
- :mod:`~ladder.services.jobs`: recompute jobs queued, retried, marked stalled, nightly;
- :mod:`~ladder.services.requeue`: matches whose rating task was lost, queued again.

Every write to a ladder's ratings happens with its Ladder row locked
(``select_for_update``), so two workers never rate one ladder at once, and bumps
``Ladder.version``. The maths is ``ladder.kernel``. A recompute computes in memory
first, then swaps the ladder's ratings and history in one transaction: a crash leaves
the previous ratings in place, and the same matches always give the same numbers.

Callers import from here.
"""

from ladder.services.jobs import (
    MAX_STALLED_IN_A_ROW,
    STALLED,
    STALLED_AFTER,
    RecomputeError,
    ensure_ladders,
    is_stalled,
    last_sign_of_life,
    queue_recompute,
    recompute_all_ladders,
    retry_recompute,
    retry_stalled_recomputes,
)
from ladder.services.rating import (
    apply_match,
    earliest_unrated,
    locked_ladder,
)
from ladder.services.reads import (
    BATCH,
    Outcome,
    RatedMatch,
    is_rated_match,
    rated_matches,
    rating_time,
    read_matches,
    seat_players,
)
from ladder.services.recompute import (
    PROGRESS_EVERY,
    PROGRESS_SECONDS,
    PROGRESS_STEPS,
    Computed,
    base_state,
    collector_paused,
    compute_ladder,
    progress_interval,
    recompute_ladder,
    report_progress,
    swap_in,
    unchanged_history,
)
from ladder.services.requeue import (
    REQUEUE_AFTER,
    REQUEUE_LIMIT,
    REQUEUE_WITHIN,
    is_rateable,
    requeue_unrated_matches,
    unrated_matches,
)
from ladder.services.standings import (
    CHANGE_COLUMNS,
    INSERT_ROWS_AT_MOST,
    Standings,
    insert_changes,
)

__all__ = [
    "BATCH",
    "CHANGE_COLUMNS",
    "Computed",
    "INSERT_ROWS_AT_MOST",
    "MAX_STALLED_IN_A_ROW",
    "Outcome",
    "PROGRESS_EVERY",
    "PROGRESS_SECONDS",
    "PROGRESS_STEPS",
    "REQUEUE_AFTER",
    "REQUEUE_LIMIT",
    "REQUEUE_WITHIN",
    "RatedMatch",
    "RecomputeError",
    "STALLED",
    "STALLED_AFTER",
    "Standings",
    "apply_match",
    "base_state",
    "collector_paused",
    "compute_ladder",
    "earliest_unrated",
    "ensure_ladders",
    "insert_changes",
    "is_rateable",
    "is_rated_match",
    "is_stalled",
    "last_sign_of_life",
    "locked_ladder",
    "progress_interval",
    "queue_recompute",
    "rated_matches",
    "rating_time",
    "read_matches",
    "recompute_all_ladders",
    "recompute_ladder",
    "report_progress",
    "requeue_unrated_matches",
    "retry_recompute",
    "retry_stalled_recomputes",
    "seat_players",
    "swap_in",
    "unchanged_history",
    "unrated_matches",
]
