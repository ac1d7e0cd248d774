"""The AI layer, above the rules: search, sampling, beliefs, analysis and bot play.

``engine.ai`` stands on ``engine.games`` and ``engine.core`` and they know nothing of it
(an import-linter contract). Shared machinery here (:mod:`.search`, :mod:`.analysis`,
:mod:`.beliefs`, :mod:`.play`); each game's bots, beliefs and samplers in its own
package (``engine/ai/<game>/``), which registers the game's
:class:`~engine.ai.contract.GameAI` on import (:mod:`.registry`).
"""

import importlib

for _name in ("cryptid", "misterx", "cloak"):
    importlib.import_module(f"engine.ai.{_name}")
