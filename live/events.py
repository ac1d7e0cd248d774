"""Domain events of the live tables (published with ``config.events.publish``)."""

from __future__ import annotations

from django.dispatch import Signal

#: A finished table's game was stored as a match (``table_id``, ``match_id``, ``club_id``),
#: through ``games.services.ingest_log`` like any log: what the table was opened for (a
#: tournament pairing: ``tournaments.handlers``) takes the match from here.
table_stored = Signal()
