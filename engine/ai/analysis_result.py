"""A match analysis as stored: its version, the chunks of plies it is made in, and the
whole made of their results (:mod:`engine.ai.analysis` estimates the figures)."""

from __future__ import annotations

from typing import Any

from engine.ai.registry import require_ai
from engine.core.game import Game
from engine.core.replay import Replay

#: bump when the method or the result's shape changes: stored analyses are recomputed
#: (2: the detectives' worlds weigh Mister X's city by its location category; 3: the
#: worlds dealt once per ply and viewer, carried on from ply to ply for Cloak & Dagger;
#: the all-seeing drop taken from the plies' all-seeing figures; a position without
#: worlds marked not estimated; 4: every figure with its standard error, a label only when
#: the drop's interval lies in its band, batches of worlds added while it straddles one,
#: the drop measured in worlds the search did not see, the plies analysed in chunks;
#: 5: a playout's decisions draw from generators keyed by their place in the game, a
#: seat's own chance on the game's own batches of worlds; 6: Cryptid's playouts cut at
#: the next round and scored by a fitted model, its every choice scored for the best
#: move, its drops on up to 8 batches; Cloak & Dagger's own chances cut two rounds on;
#: 7: Cryptid's choices scored on 4 batches of worlds; 8: a drop's error counts how
#: often another run would find another best move, and what the drop would be against it;
#: 9: Cloak & Dagger's errors cluster the worlds by the world dealt from scratch they
#: descend from, its searched best move searched again; 10: Cryptid's searched best move too;
#: 11: repeated confidence intervals; 12: Mister X's one search's runner-up a rival of
#: the move it found)
ANALYSIS_VERSION = "12"

#: the plies a playout may take unless its game sets fewer (``max_plies``): the Analyst's
#: bound, and what :func:`playouts` tells the reader
MOST_PLIES = 400

#: plies per chunk (:func:`chunks`): a chunk deals its worlds afresh at its start
CHUNK_PLIES = 32


def engine_version(game: Game) -> str:
    """What an analysis depends on: the game's rules reading and this method."""
    return f"{game.rules_version}/analysis-{ANALYSIS_VERSION}"


def playouts(game: Game, budget: int) -> dict[str, Any]:
    """How the analysis of ``game`` at ``budget`` makes a chance, for the reader: ``own``,
    the playouts behind a seat's own chance; ``all_seeing``, those behind a chance seeing
    everything; ``own_cut`` and ``all_seeing_cut``, whether those playouts stop short of
    the game's end (after some rounds or plies) and are scored there by the game's
    estimate of who wins from that table, rather than played to the end; ``most_plies``,
    the plies a playout played to the end may take before it is scored all the same (a
    bound on an endless playout, :class:`engine.ai.analysis.Analyst`'s ``max_plies``)."""
    ai = require_ai(game)
    search = ai.analysis_search or {}
    cut = bool(search.get("cut_rounds") or search.get("max_plies"))
    return {
        "own": budget * ai.analysis_own_batches,
        "all_seeing": budget,
        "own_cut": cut or ai.analysis_own_cut_rounds is not None,
        "all_seeing_cut": cut,
        "most_plies": search.get("max_plies", MOST_PLIES),
    }


def chunks(replay: Replay, size: int = CHUNK_PLIES) -> list[tuple[int, int]]:
    """The chunks of plies a game's analysis is made of: ``(first, stop)``, ``stop``
    excluded, in order (the same for a log whoever analyses it)."""
    total = len(replay.actions) + 1
    return [(first, min(first + size, total)) for first in range(0, total, size)]


def merge(replay: Replay, parts: list[dict[str, Any]], *, budget: int, seed: int) -> dict[str, Any]:
    """The analysis made of its chunks' results (:func:`analyse_plies`, in any order)."""
    game = replay.game
    seats = list(replay.seats)
    plies = sorted((p for part in parts for p in part["plies"]), key=lambda p: p["ply"])
    moves = sorted((m for part in parts for m in part["moves"]), key=lambda m: m["ply"])
    if [p["ply"] for p in plies] != list(range(len(replay.actions) + 1)):
        raise ValueError("the chunks do not cover every ply once")
    accuracy: dict[str, float | None] = {}
    accuracy_error: dict[str, float | None] = {}
    for seat in seats + sorted({m["seat"] for m in moves} - set(seats)):
        rated = [m for m in moves if m["rated"] and m["seat"] == seat]
        if not rated:
            accuracy[seat] = accuracy_error[seat] = None
            continue
        accuracy[seat] = round(sum(m["accuracy"] for m in rated) / len(rated), 1)
        # the moves' errors are independent: the mean's is their root sum of squares over n
        accuracy_error[seat] = round(
            sum(m["accuracy_se"] ** 2 for m in rated) ** 0.5 / len(rated), 2
        )
    return _without_negative_zero(
        {
            "engine": engine_version(game),
            "budget": budget,
            "seed": seed,
            "seats": seats,
            "plies": plies,
            "moves": moves,
            "accuracy": accuracy,
            "accuracy_se": accuracy_error,
        }
    )


def _without_negative_zero(value: Any) -> Any:
    """``value`` with every -0.0 (a rounded interval's end just below 0) made 0.0: a chunk
    stored in PostgreSQL's jsonb reads back without the sign, and the analysis of a game
    must be the same whether its chunks were stored on the way or not."""
    if isinstance(value, float):
        return value + 0.0
    if isinstance(value, dict):
        return {k: _without_negative_zero(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_without_negative_zero(v) for v in value]
    return value
