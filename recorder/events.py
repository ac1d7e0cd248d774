"""Domain events of the recorder (published with ``config.events.publish``)."""

from __future__ import annotations

from django.dispatch import Signal

#: A draft was stored as a match (``draft_id``, ``match_id``, ``club_id``), through
#: ``games.services.ingest_log`` like any log: what the draft was recorded for (a
#: tournament pairing: ``tournaments.handlers``) takes the match from here.
draft_stored = Signal()
