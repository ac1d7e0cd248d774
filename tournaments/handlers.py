"""How events react to what happens elsewhere (domain events, config.events): a game
recorded at the table, or played online at a live table, for a pairing settles it once
stored. Connected in TournamentsConfig.ready."""

from __future__ import annotations

from typing import Any

from live import events as live_events
from recorder import events as recorder_events


def settle_recorded(*, draft_id: int, match_id: int, **_: Any) -> None:
    from tournaments import services

    services.settle_recorded(draft_id, match_id)


def settle_played_online(*, table_id: int, match_id: int, **_: Any) -> None:
    from tournaments import online

    online.settle_played_online(table_id, match_id)


def connect() -> None:
    recorder_events.draft_stored.connect(
        settle_recorded, dispatch_uid="tournaments.settle_recorded"
    )
    live_events.table_stored.connect(
        settle_played_online, dispatch_uid="tournaments.settle_played_online"
    )
