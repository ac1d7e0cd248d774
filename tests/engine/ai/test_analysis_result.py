"""The analysis put together from its chunks (``engine.merge_analysis``) is the same
whether the chunks were stored on the way or not: PostgreSQL's jsonb keeps no negative
zero, so the whole never carries one (a rounded interval's end just below 0 reads 0.0)."""

from __future__ import annotations

import json

from engine import analyse_plies, merge_analysis, play, replay


def test_a_merged_analysis_carries_no_negative_zero_so_a_stored_chunk_reads_back_the_same():
    played = replay(play("cryptid-urban-legends", 9, ["greedy", "greedy"]))
    part = analyse_plies(played, 0, len(played.actions) + 1, budget=2, seed=0)
    # plant what a rounded interval gives: -0.0 among the figures of a move and of a ply
    rated = next(m for m in part["moves"] if m["rated"])
    rated["drop_low"] = round(-0.04, 1)
    part["plies"][0]["all_se"] = {seat: -0.0 for seat in part["plies"][0]["all_se"]}
    assert "-0.0" in json.dumps(part)
    # as jsonb gives it back: every number as it was, but zero without a sign
    stored = json.loads(json.dumps(part), parse_float=lambda text: float(text) + 0.0)
    merged = merge_analysis(played, [part], budget=2, seed=0)
    assert "-0.0" not in json.dumps(merged)
    assert merged == merge_analysis(played, [stored], budget=2, seed=0)
