"""Pairing an event's rounds: pure Python, no Django.

Three formats share one vocabulary (:mod:`.records`: :class:`Entrant`,
:class:`PlayedGame`, :class:`Bye`, :class:`Table`, :class:`History`):

* :func:`round_robin` (:mod:`.round_robin`) — the circle method (Berger tables), a bye
  for odd counts;
* :func:`pair_swiss` (:mod:`.swiss`) — two-seat Swiss rounds, paired by the FIDE Dutch
  criteria with roles for colours, as one maximum-weight matching over a lexicographic
  cost (:mod:`.costs`), each table explained (:mod:`.swiss_explanations`);
* :func:`pair_swiss_tables` (:mod:`.tables`) — tables of N players (Mister X, Cloak &
  Dagger) with seats rotated across rounds.

Where each player stands before a round is :mod:`.standing`; what the event page says
of the rules, :mod:`.rules`; why a table was made is kept as what to say, the
engine's ``Message`` (:mod:`.explanations`).
"""

from tournaments.pairing.costs import SWISS_COST_LEVELS
from tournaments.pairing.explanations import (
    PLURALS,
    Counted,
    english,
    fmt_points,
    fmt_pts,
    sentence,
)
from tournaments.pairing.records import (
    Bye,
    Entrant,
    History,
    PairingError,
    PlayedGame,
    PlayerId,
    Seating,
    Table,
)
from tournaments.pairing.round_robin import round_robin
from tournaments.pairing.rules import RULE_KINDS, SWISS_RULES, pairing_rules
from tournaments.pairing.standing import Claim
from tournaments.pairing.swiss import pair_swiss
from tournaments.pairing.tables import pair_swiss_tables, table_sizes

__all__ = [
    "RULE_KINDS",
    "SWISS_COST_LEVELS",
    "SWISS_RULES",
    "PLURALS",
    "Bye",
    "Claim",
    "Counted",
    "Entrant",
    "History",
    "PairingError",
    "PlayedGame",
    "PlayerId",
    "Seating",
    "Table",
    "english",
    "fmt_points",
    "fmt_pts",
    "sentence",
    "pair_swiss",
    "pair_swiss_tables",
    "pairing_rules",
    "round_robin",
    "table_sizes",
]
