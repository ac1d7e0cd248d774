"""Replaying a log through its game: the one path every log takes into Lantern."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from engine.core.envelope import check_action_shape, check_envelope
from engine.core.errors import IllegalAction
from engine.core.game import Action, Game, State, Table
from engine.core.messages import msg
from engine.core.rng import Rng

#: Cited when a game's code fails on input it should have rejected. Never expected:
#: the property tests assert it does not occur; it exists so that a bug in one
#: game shows up as a clear rejection rather than a traceback in a web request.
ENGINE_ERROR = "ENGINE-ERROR"


def describe_action(action: Any) -> str:
    """``scientist play shuffle``: how a rejection names the action it stopped at."""
    if not isinstance(action, dict):
        return "not an object"
    words = [action.get("seat"), action.get("type")]
    for key in ("card", "as", "ticket", "pawn", "spy"):
        if isinstance(action.get(key), str):
            words.append(action[key])
            break
    return " ".join(str(w) for w in words if w is not None)


@dataclass
class Replay:
    """A replayed log: its valid actions as recorded, and any state on demand.

    Validation keeps only the final state; ``state_at`` replays from the setup
    again, and ``frames`` walks the game once.
    """

    game: Game
    log: dict[str, Any]
    options: dict[str, Any]
    seats: list[str]
    actions: list[Action] = field(default_factory=list)
    error: IllegalAction | None = None
    _final: State | None = None

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
        return self.game.is_over(self.final_state)

    @property
    def status(self) -> str:
        """``rejected``, ``finished`` or ``unfinished`` (valid, stops before the end)."""
        if self.error is not None:
            return "rejected"
        return "finished" if self.finished else "unfinished"

    @property
    def result(self) -> dict[str, Any] | None:
        return self.game.result(self.final_state) if self.finished else None

    # -- states -----------------------------------------------------------------
    def initial_state(self) -> State:
        seed = self.log.get("seed")
        rng = Rng(seed) if seed is not None else None
        return self.game.initial_state(self.options, self.seats, self.log.get("setup") or {}, rng)

    def states(self) -> Iterator[tuple[int, Action | None, State]]:
        """Yield ``(ply, action, state)`` for the setup (ply 0, no action) and after each
        valid action. The state object is live and changes on the next step: read it
        before advancing, or clone it."""
        state = self.initial_state()
        yield 0, None, state
        for ply, action in enumerate(self.actions, start=1):
            self.game.apply(state, action)
            yield ply, action, state

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


def _start(log: Any) -> tuple[Game, dict[str, Any], list[str], State]:
    game = check_envelope(log)
    options = game.normalize_options(log.get("options") or {})
    game.check_seats(log["seats"], options)
    seats = [entry["seat"] for entry in log["seats"]]
    seed = log.get("seed")
    rng = Rng(seed) if seed is not None else None
    state = game.initial_state(options, seats, log.get("setup") or {}, rng)
    return game, options, seats, state


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
    try:
        game, options, seats, state = _start(log)
    except IllegalAction as exc:
        exc.index = None
        raise
    except Exception as exc:  # noqa: BLE001 - see ENGINE_ERROR
        raise IllegalAction(ENGINE_ERROR, msg("core.refuse.engine_could_read_setup", exc=repr(exc))) from exc

    recorded: list[Action] = []
    if observe is not None:
        observe(0, None, state)
    for index, action in enumerate(log["actions"]):
        try:
            check_action_shape(action)
            if game.is_over(state):
                raise IllegalAction(game.end_rule, msg("core.refuse.game_already_over_nothing_may"))
            recorded.append(game.apply(state, action))
        except Exception as exc:  # noqa: BLE001 - IllegalAction, or see ENGINE_ERROR
            if not isinstance(exc, IllegalAction):
                exc = IllegalAction(ENGINE_ERROR, msg("core.refuse.engine_could_read_action", exc=repr(exc)))
            exc.index = index
            exc.action_desc = describe_action(action)
            exc.partial = Replay(game, log, options, seats, recorded)
            raise exc from None
        if observe is not None:
            observe(index + 1, recorded[-1], state)

    done = Replay(game, log, options, seats, recorded, _final=state)
    claimed = log.get("result")
    if claimed is not None:
        computed = done.result
        if computed is None:
            error = IllegalAction(game.result_rule, msg("core.refuse.log_states_result_but_game"))
        elif any(claimed.get(key) != value for key, value in computed.items()):
            error = IllegalAction(
                game.result_rule, msg("core.refuse.log_s_result_differs_from", claimed=str(claimed), computed=str(computed))
            )
        else:
            return done
        error.partial = done
        raise error
    return done

