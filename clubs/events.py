"""Domain events of a club's players (published with ``config.events.publish``)."""

from __future__ import annotations

from django.dispatch import Signal

#: A club's players changed (``club_id``; ``merged``: two handles became one, so every
#: seat of one is now the other's and ratings must be computed again).
players_changed = Signal()
