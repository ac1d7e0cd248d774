"""The game packages share one layout, and their rule tests one naming (issue #19).

A newcomer who knows one game package knows where everything is in the others: the
Game in ``game.py``, the rules over the state in ``state.py`` — checking and applying
an action in ``rules.py``, who may act and what in ``legal.py`` —, the seat views in
``views.py``, notation, sentences and the log schema each in their own module, the
catalogs in ``locale/``, and ``__init__`` registering ``GAME``. A game may add modules
of its own (a board, a deduction); it may not move the common ones.

The AI stands apart, above the rules (issue #32): each game's bots and beliefs in
``engine/ai/<game>/``, whose ``__init__`` registers ``AI``, and no bot, belief, sampler,
search or analysis module under ``engine/core`` or a game's rules package.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

import engine
from engine.ai.contract import GameAI
from engine.ai.registry import ai_of
from engine.core.game import Game

GAMES_DIR = Path(engine.__file__).parent / "games"
TESTS_DIR = Path(__file__).resolve().parent.parent

#: What every game package holds.
COMMON = {
    "README.md",
    "__init__.py",
    "game.py",
    "rules.py",
    "legal.py",
    "state.py",
    "views.py",
    "notation.py",
    "sentences.py",
    "schema.py",
    "locale",
}
#: What every game's AI package holds.
AI_COMMON = {"__init__.py", "ai.py", "bots.py", "beliefs.py"}
#: Module names of the AI layer: never among the rules (engine/core, engine/games).
AI_MODULES = {"search.py", "analysis.py", "bots.py", "sampling.py", "beliefs.py", "play.py"}
AI_DIR = Path(engine.__file__).parent / "ai"

PACKAGES = sorted(p.name for p in GAMES_DIR.iterdir() if (p / "__init__.py").exists())


def test_every_built_in_game_is_a_package_here() -> None:
    modules = {
        type(game).__module__.split(".")[2]
        for game in engine.all_games().values()
        if type(game).__module__.startswith("engine.games.")
    }
    assert modules == set(PACKAGES) and len(PACKAGES) == 3


@pytest.mark.parametrize("package", PACKAGES)
def test_a_game_package_has_the_common_layout(package: str) -> None:
    present = {p.name for p in (GAMES_DIR / package).iterdir()}
    assert present >= COMMON, f"engine/games/{package} lacks {sorted(COMMON - present)}"


@pytest.mark.parametrize("package", PACKAGES)
def test_a_game_package_registers_its_game_from_game_py(package: str) -> None:
    module = importlib.import_module(f"engine.games.{package}")
    game = module.GAME
    assert isinstance(game, Game)
    assert type(game).__module__ == f"engine.games.{package}.game"
    assert engine.get_game(game.id) is game


@pytest.mark.parametrize("package", PACKAGES)
def test_a_game_has_an_ai_package_that_registers_its_ai(package: str) -> None:
    present = {p.name for p in (AI_DIR / package).iterdir()}
    assert present >= AI_COMMON, f"engine/ai/{package} lacks {sorted(AI_COMMON - present)}"
    game = importlib.import_module(f"engine.games.{package}").GAME
    ai = importlib.import_module(f"engine.ai.{package}").AI
    assert isinstance(ai, GameAI) and ai.game is game
    assert type(ai).__module__ == f"engine.ai.{package}.ai"
    assert ai_of(game.id) is ai


def test_no_ai_module_lives_among_the_rules() -> None:
    root = Path(engine.__file__).parent
    found = sorted(
        str(path.relative_to(root))
        for folder in ("core", "games")
        for path in (root / folder).rglob("*.py")
        if path.name in AI_MODULES
    )
    assert found == []


def test_every_game_speaks_the_same_languages() -> None:
    catalogs = {
        package: sorted(p.name for p in (GAMES_DIR / package / "locale").glob("*.json"))
        for package in PACKAGES
    }
    assert len({tuple(names) for names in catalogs.values()}) == 1, catalogs


def test_rule_tests_are_named_by_the_rule_id_in_lower_case() -> None:
    """``test_cul_3_4_...``, ``test_mx_6_10_...``, ``test_cd_4_1_...``: a rule's test is
    found by its id, whichever game; never ``test_CD_`` beside ``test_cul_``."""
    prefixes = {game.rule_prefix for game in engine.all_games().values()}
    named = re.compile(r"def (test_(" + "|".join(prefixes) + r")_\d)", re.IGNORECASE)
    found: dict[str, int] = {}
    off: list[str] = []
    for path in TESTS_DIR.rglob("test_*.py"):
        for match in named.finditer(path.read_text(encoding="utf-8")):
            found[match.group(2).lower()] = found.get(match.group(2).lower(), 0) + 1
            if match.group(2) != match.group(2).lower():
                off.append(f"{path.name}: {match.group(1)}")
    assert off == []
    assert set(found) == {prefix.lower() for prefix in prefixes}  # each game has rule tests
