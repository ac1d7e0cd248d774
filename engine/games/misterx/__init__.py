"""Mister X (Ravensburger's "Mister X – Flucht durch Europa"): ``mister-x``.

Rules in :mod:`.rules` (ids ``MX-*`` of ``docs/rules/mister-x.md``) over the state in
:mod:`.state`, boards as data in :mod:`.board` and ``boards/``, seat views in
:mod:`.views`, the detectives' deduction in :mod:`.possible`, belief sampling in
:mod:`.beliefs`, bots in :mod:`.bots`, the :class:`~engine.core.game.Game` in :mod:`.game`.
"""

from engine.core.registry import register
from engine.games.misterx.game import MisterX

GAME = register(MisterX())
