"""Celery tasks of the replay viewer: thin wrappers over ``replay.selectors``."""

from __future__ import annotations

from celery import shared_task

from games.models import Match
from replay.selectors import match_frames, match_viewers


@shared_task(name="replay.warm_frames")
def warm_frames(match_ids: list[int]) -> int:
    """Build and cache every perspective's frames of long matches once they are stored,
    so a viewer's request is served from the cache (a few ms) instead of replaying up to
    2,000 actions (LOG-LENGTH) with a view per frame. Returns how many payloads it built."""
    built = 0
    for match in Match.objects.filter(pk__in=match_ids).select_related("log"):
        for viewer in match_viewers(match):
            match_frames(match, viewer)
            built += 1
    return built
