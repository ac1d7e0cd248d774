"""Domain events of a club's matches (published with ``config.events.publish``)."""

from __future__ import annotations

from django.dispatch import Signal

#: New matches were stored in a club (an upload, a recorded game, a batch of an import).
#: ``club_id``; ``match_ids``: every new match; ``finished_ids``: those with a result,
#: to be rated (ratings.md EL-1.2); ``batch``: a batch of a bulk import;
#: ``auto_analysis``: the club's setting, when the sender has the club in hand (else the
#: subscriber reads it).
matches_stored = Signal()

#: An organiser voided a match (``club_id``, ``match_id``): shown, never rated.
match_voided = Signal()

#: An organiser restored a voided match (``club_id``, ``match_id``): rated again.
match_restored = Signal()
