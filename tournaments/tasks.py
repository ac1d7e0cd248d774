"""Celery tasks of events. Thin: they call services."""

from __future__ import annotations

from celery import shared_task

from tournaments import services


@shared_task(name="tournaments.pair_round")
def pair_round_task(tournament_id: int, round_number: int) -> bool:
    """Pair ``round_number`` of an event; a no-op when it is already paired."""
    return services.pair_round(tournament_id, round_number)
