"""Mister X (Ravensburger's "Mister X – Flucht durch Europa"): ``mister-x``.

Rules in :mod:`.rules` and :mod:`.legal` (ids ``MX-*`` of ``docs/rules/mister-x.md``)
over the state in :mod:`.state`, boards as data in :mod:`.board` and ``boards/``, seat
views in :mod:`.views`, what the detectives know of Mister X's city in :mod:`.knowledge`,
the :class:`~engine.core.game.Game` in :mod:`.game`. Bots and belief sampling are above
the rules, in ``engine/ai/misterx/``.
"""

from engine.core.registry import register
from engine.games.misterx.game import MisterXGame

GAME = register(MisterXGame())
