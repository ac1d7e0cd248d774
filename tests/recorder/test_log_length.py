"""LOG-LENGTH where bots play (``recorder.services.play_bots``): the bots stop at a full
log instead of refusing the move that led there; the caller decides what a full log
means (a draft refuses the next move and is stored; a live table ends, tests/live)."""

from __future__ import annotations

import pytest

from engine import get_game
from recorder import services as steps
from recorder.errors import DraftError


@pytest.mark.parametrize("limit", [1, 2, 5])
def test_log_length_the_bots_stop_at_a_full_log(monkeypatch, limit):
    monkeypatch.setattr(steps, "MAX_ACTIONS", limit)
    game = get_game("mister-x")
    options = game.normalize_options({})
    ids = game.seat_ids(options, 2)
    session, _setup = steps.start_session(game, options, ids, {}, 7)
    both_bots = steps.Position(session, {seat: "random" for seat in ids})
    actions: list[dict] = []
    moves: list[dict] = []
    steps.play_bots(7, both_bots, actions, moves)  # before: DraftError(LOG-LENGTH)
    assert len(actions) == len(moves) == limit
    assert session.actions == actions
    # A move after that is refused with the rule, as a person's at a full log is.
    with pytest.raises(DraftError) as refused:
        steps._check_length(len(actions))
    assert refused.value.rule == "LOG-LENGTH"
