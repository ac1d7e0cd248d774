"""Replaying a log through its game: the one path every log takes into Lantern.

A replay steps the log through a :class:`~engine.core.session.Session`, the engine's one
stepper (the recorder, the replay page's views and the rejected-upload walkthrough
step through it too); a :class:`Replay` is what it leaves: the log's valid actions as
recorded, its status and result, and any state again on demand."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from engine.core.ending import end_result
from engine.core.errors import ENGINE_ERROR, IllegalAction
from engine.core.game import Action, Game, State, Table
from engine.core.messages import msg
from engine.core.session import Session

__all__ = ["ENGINE_ERROR", "Observer", "Replay", "replay"]


@dataclass
class Replay:
    """A replayed log: its valid actions as recorded, and any state on demand.

    Validation keeps only the final state; ``state_at`` steps from the setup again
    through a :class:`Session`, and ``frames`` walks the game once (the ``moves`` command
    of ``python -m engine`` prints them).
    """

    game: Game
    log: dict[str, Any]
    options: dict[str, Any]
    seats: list[str]
    actions: list[Action] = field(default_factory=list)
    error: IllegalAction | None = None
    _final: State | None = None
    #: the result of an ending off the board (the log's ``end``: engine.core.ending)
    ended: dict[str, Any] | None = None

    # -- summary ----------------------------------------------------------------
    @property
    def players(self) -> dict[str, str]:
        return {entry["seat"]: entry["player"] for entry in self.log["seats"]}

    @property
    def final_state(self) -> State:
        if self._final is None:
            self._final = self.state_at(len(self.actions))
        return self._final

    @property
    def finished(self) -> bool:
        return self.ended is not None or self.game.is_over(self.final_state)

    @property
    def status(self) -> str:
        """``rejected``, ``finished`` or ``unfinished`` (valid, stops before the end)."""
        if self.error is not None:
            return "rejected"
        return "finished" if self.finished else "unfinished"

    @property
    def result(self) -> dict[str, Any] | None:
        if self.ended is not None:
            return self.ended
        return self.game.result(self.final_state) if self.finished else None

    # -- states -----------------------------------------------------------------
    def session(self) -> Session:
        """A session at this log's setup, to step through its actions again."""
        return Session(
            self.game, self.options, self.seats, self.log.get("setup") or {}, self.log.get("seed")
        )

    def session_at_end(self) -> Session:
        """A session at the end of this log, to play on from there."""
        return Session.resumed(
            self.game,
            self.options,
            self.seats,
            self.log.get("setup") or {},
            self.log.get("seed"),
            self.final_state,
            self.actions,
        )

    def initial_state(self) -> State:
        return self.session().state

    def states(self) -> Iterator[tuple[int, Action | None, State]]:
        """Yield ``(ply, action, state)`` for the setup (ply 0, no action) and after each
        valid action. The state object is live and changes on the next step: read it
        before advancing, or clone it."""
        session = self.session()
        yield 0, None, session.state
        for recorded in session.advance(self.actions):
            yield session.ply, recorded, session.state

    def state_at(self, ply: int) -> State:
        """The state after ``ply`` actions (0 = the setup)."""
        if not 0 <= ply <= len(self.actions):
            raise IndexError(f"ply {ply} is outside 0..{len(self.actions)}")
        for n, _action, state in self.states():
            if n == ply:
                return state
        raise AssertionError("unreachable")

    def frames(self, viewer: str | None) -> Iterator[dict[str, Any]]:
        """The setup frame and one frame per action, as ``viewer`` saw them."""
        game = self.game
        table = Table(self.players, self.options)
        for ply, action, state in self.states():
            shown = None if action is None else game.action_view(state, action, viewer)
            yield {
                "ply": ply,
                "action": shown,
                "notation": None if shown is None else game.notation(shown),
                "message": None if shown is None else game.describe(shown, table),
                "view": game.view(state, viewer),
            }


#: ``observe(ply, action, state)``: see :func:`replay`.
Observer = Callable[[int, Action | None, State], None]


def replay(log: Any, observe: Observer | None = None) -> Replay:
    """Replay ``log`` through its game.

    Returns the :class:`Replay` of a legal log (finished or unfinished). Raises
    :class:`IllegalAction` at the first problem; when the setup was valid,
    ``exc.partial`` is the Replay of the valid prefix.

    ``observe``, when given, is called with the setup (ply 0, action None) and after
    each valid action (its ply, the action as recorded) with the live state, which it
    must read at once: a caller that needs every state, like the replay viewer, walks
    the game once instead of validating and then replaying again.
    """
    session = Session.start(log)
    game, options, seats = session.game, session.options, session.seats
    actions = log["actions"]
    if observe is not None:
        observe(0, None, session.state)
    try:
        for recorded in session.advance(actions):
            if observe is not None:
                observe(session.ply, recorded, session.state)
    except IllegalAction as exc:
        assert exc.index is not None
        # the seats as the log names them, so a seat is said by its role ("Detective green")
        players = {entry["seat"]: entry["player"] for entry in log["seats"]}
        exc.action_desc = game.action_name(actions[exc.index], Table(players, options))
        exc.partial = Replay(game, log, options, seats, session.actions)
        raise exc from None

    done = Replay(game, log, options, seats, session.actions, _final=session.state)
    if log.get("end") is not None:
        try:
            done.ended = end_result(game, session.state, seats, log["end"])
        except IllegalAction as exc:
            exc.partial = done
            raise
    claimed = log.get("result")
    if claimed is not None:
        computed = done.result
        if computed is None:
            error = IllegalAction(game.result_rule, msg("core.refuse.log_states_result_but_game"))
        elif any(claimed.get(key) != value for key, value in computed.items()):
            error = IllegalAction(
                game.result_rule,
                msg(
                    "core.refuse.log_s_result_differs_from",
                    claimed=str(claimed),
                    computed=str(computed),
                ),
            )
        else:
            return done
        error.partial = done
        raise error
    return done
