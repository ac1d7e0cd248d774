"""How events react to what happens elsewhere (domain events, config.events): a game
recorded at the table for a pairing settles it once stored. Connected in
TournamentsConfig.ready."""

from __future__ import annotations

from typing import Any

from recorder import events as recorder_events


def settle_recorded(*, draft_id: int, match_id: int, **_: Any) -> None:
    from tournaments import services

    services.settle_recorded(draft_id, match_id)


def connect() -> None:
    recorder_events.draft_stored.connect(
        settle_recorded, dispatch_uid="tournaments.settle_recorded"
    )
