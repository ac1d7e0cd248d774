"""The built-in games. Each subpackage registers its Game on import."""

import importlib

for _name in ("cryptid", "misterx", "cloak"):
    try:
        importlib.import_module(f"engine.games.{_name}")
    except ModuleNotFoundError as exc:  # a game not written yet; any other missing module is a bug
        if exc.name != f"engine.games.{_name}":
            raise
