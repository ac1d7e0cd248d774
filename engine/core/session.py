"""A game played one step at a time, each seat offered and told only what it knows.

A :class:`Session` starts from a log's setup (or from a whole log), takes one action
at a time, takes actions back, and answers per viewer: the view, the actions a seat
may choose between, and why a move is refused. The all-seeing viewer (``None``: a
recorder who sees the whole table) is offered the engine's legal actions and told
the engine's reasons as they are. A seat's viewer (a seat, or a team such as Mister
X's ``detectives``) is offered and told only what that seat knows at the table:

- **Chance it does not name.** When the session deals (it has a seed), a seat never
  names what chance fills in (:meth:`Game.chance_fields`: a card drawn, tickets, the
  blocks of an expansion): the answer to a guess would tell what is hidden, so a
  named one is refused whatever its value.
- **Picks it commits to.** Where a seat's choices depend on something it only sees
  after committing to a pick (:meth:`Game.openings`: Cloak & Dagger's envelope,
  picked up and looked into), it first makes the pick (an ``open`` action, never
  written in the log), which shows it what it opened; from then on only the actions
  within that pick are its choices, and any other is refused without looking.
- **Reasons it could know.** Whatever passes those two checks is judged by the
  engine, whose messages then name only what the seat knows (each game's README
  says why; the counterfactual tests check it).

It is the engine's one stepper: :func:`~engine.core.replay.replay` validates a log by
stepping it through a session (:meth:`Session.start`, :meth:`Session.advance`), the
recorder keeps a session per draft (its actions and ``opened`` are stored), and the
replay page's views and the rejected-upload walkthrough step a stored log through one.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from engine.core.envelope import FORMAT, check_action_shape, check_envelope
from engine.core.errors import ENGINE_ERROR, IllegalAction
from engine.core.frozen import as_recorded
from engine.core.game import Action, Game, Spread, State
from engine.core.messages import msg
from engine.core.rng import Rng

#: The all-seeing viewer, as the engine names it.
ALL_SEEING = None


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON (``true`` is not ``1``; a read-only action is the dict it reads as)."""
    if isinstance(a, Mapping):
        return isinstance(b, Mapping) and a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple):
        return (
            isinstance(b, list if isinstance(a, list) else tuple)
            and len(a) == len(b)
            and all(_same(x, y) for x, y in zip(a, b, strict=True))
        )
    if type(a) is not type(b) and not (
        isinstance(a, int | float)
        and isinstance(b, int | float)
        and not isinstance(a, bool)
        and not isinstance(b, bool)
    ):
        return False
    return a == b


@contextmanager
def _pointing_at(path: str) -> Iterator[None]:
    """A refusal raised inside points at ``path`` of the log, unless it says where itself."""
    try:
        yield
    except IllegalAction as exc:
        exc.path = exc.path or path
        raise


class Session:
    """One game being played: its state after ``actions`` (as recorded), and the pick each
    seat has opened (``opened``: seat -> its ``open`` action)."""

    def __init__(
        self,
        game: Game,
        options: dict[str, Any],
        seats: list[str],
        setup: dict[str, Any],
        seed: int | None,
        actions: Iterable[Action] = (),
        opened: Mapping[str, Action] | None = None,
    ):
        self.game = game
        self.options = options
        self.seats = list(seats)
        self.setup = setup
        self.seed = seed
        self.state: State = game.initial_state(
            options, self.seats, setup, Rng(seed) if seed is not None else None
        )
        self.actions: list[Action] = []
        for _ in self.advance(actions):
            pass
        self.opened: dict[str, Action] = dict(opened or {})

    @classmethod
    def start(cls, log: Any) -> Session:
        """A session at the setup of ``log``, its envelope, options and seats checked first
        (IllegalAction without an ``index``; a game's failure on the setup is ENGINE_ERROR).
        Its actions are then taken with :meth:`advance`."""
        try:
            game = check_envelope(log)
            with _pointing_at("options"):
                options = game.normalize_options(log.get("options") or {})
            with _pointing_at("seats"):
                game.check_seats(log["seats"], options)
            return cls(
                game,
                options,
                [entry["seat"] for entry in log["seats"]],
                log.get("setup") or {},
                log.get("seed"),
            )
        except IllegalAction as exc:
            exc.index = None
            raise
        except Exception as exc:  # noqa: BLE001 - see ENGINE_ERROR
            raise IllegalAction(
                ENGINE_ERROR, msg("core.refuse.engine_could_read_setup", exc=repr(exc))
            ) from exc

    @classmethod
    def resumed(
        cls,
        game: Game,
        options: dict[str, Any],
        seats: list[str],
        setup: dict[str, Any],
        seed: int | None,
        state: State,
        actions: list[Action],
    ) -> Session:
        """A session already at ``state``, reached from ``setup`` by ``actions`` (as
        recorded): what :meth:`engine.core.replay.Replay.session_at_end` hands out."""
        session = cls.__new__(cls)
        session.game = game
        session.options = options
        session.seats = list(seats)
        session.setup = setup
        session.seed = seed
        session.state = state
        session.actions = list(actions)
        session.opened = {}
        return session

    # --- where the game stands ------------------------------------------------------
    @property
    def deals(self) -> bool:
        """Chance comes from the seed (no one at the table names it)."""
        return self.seed is not None

    @property
    def ply(self) -> int:
        return len(self.actions)

    @property
    def is_over(self) -> bool:
        return self.game.is_over(self.state)

    @property
    def to_act(self) -> list[str]:
        return [] if self.is_over else list(self.game.to_act(self.state))

    @property
    def result(self) -> dict[str, Any] | None:
        return self.game.result(self.state) if self.is_over else None

    def acts_for(self, viewer: str | None, seat: str) -> bool:
        """Does ``viewer`` decide ``seat``'s moves? The all-seeing viewer decides every seat's."""
        return viewer is ALL_SEEING or self.game.acts_for(viewer, seat)

    def log(self) -> dict[str, Any]:
        """The ``lantern-log/1`` document so far (its result once the game is over)."""
        return {
            "format": FORMAT,
            "game": self.game.id,
            "options": self.options,
            "seats": [{"seat": s, "player": s} for s in self.seats],
            "seed": self.seed,
            "setup": self.setup,
            "actions": list(self.actions),
            "result": self.result,
        }

    # --- what a viewer sees -----------------------------------------------------------
    def view(self, viewer: str | None) -> dict[str, Any]:
        """The engine's view for ``viewer``, with what the seats it decides for have opened
        (``opened``: seat -> what it sees there), when any has."""
        shown = self.game.view(self.state, viewer)
        opened = {
            seat: self.game.opened_view(self.state, opening)
            for seat, opening in sorted(self.opened.items())
            if self.acts_for(viewer, seat)
        }
        if opened:
            shown["opened"] = opened
        return shown

    def history(self, viewer: str | None) -> list[Action]:
        """Every action so far as ``viewer`` saw it (:meth:`Game.action_view`)."""
        if viewer is ALL_SEEING:
            return list(self.actions)
        game = self.game
        state = game.initial_state(
            self.options, self.seats, self.setup, Rng(self.seed) if self.seed is not None else None
        )
        shown = []
        for action in self.actions:
            game.apply(state, action)
            shown.append(game.action_view(state, action, viewer))
        return shown

    def legal_actions(self, seat: str, viewer: str | None = ALL_SEEING) -> list[Action]:
        """What ``seat`` may choose between now, as ``viewer`` (who decides for it) may know:
        its picks while it has not opened one, then the actions within what it opened."""
        if seat not in self.to_act or not self.acts_for(viewer, seat):
            return []
        game = self.game
        openings = None if viewer is ALL_SEEING else game.openings(self.state, seat)
        if openings is None:
            return game.legal_actions(self.state, seat)
        opened = self.opened.get(seat)
        if opened is None:
            return openings
        return [
            a for a in game.legal_actions(self.state, seat) if _same(game.opening_of(a), opened)
        ]

    def legal_spread(self, seat: str, viewer: str | None = ALL_SEEING) -> Spread | None:
        """``seat``'s legal actions described as a :class:`Spread` (see
        :meth:`Game.legal_spread`)."""
        if seat not in self.to_act or not self.acts_for(viewer, seat):
            return None
        if viewer is not ALL_SEEING and self.game.openings(self.state, seat) is not None:
            return None
        return self.game.legal_spread(self.state, seat)

    # --- playing ----------------------------------------------------------------------
    def step(self, action: Any, viewer: str | None = ALL_SEEING) -> Action | None:
        """Take ``action`` as ``viewer`` decided it. Returns it as recorded (chance filled in),
        or None when it was a pick (``open``), which the log never holds. Refused with
        :class:`IllegalAction` telling only what ``viewer`` knows; nothing changes then."""
        game = self.game
        check_action_shape(action)
        if self.is_over:
            raise IllegalAction(game.end_rule, msg("core.refuse.game_already_over_nothing_may"))
        seat = action["seat"]
        if viewer is not ALL_SEEING:
            if not self.acts_for(viewer, seat):
                raise ValueError(f"{viewer!r} does not decide {seat!r}'s moves")
            if self.deals:
                for field, rule in game.chance_fields(self.state, action).items():
                    if field in action:
                        raise IllegalAction(
                            rule,
                            msg(
                                "core.refuse.dealt_from_shuffled_components_named",
                                field=repr(field),
                            ),
                        )
            openings = game.openings(self.state, seat) if seat in self.to_act else None
            if openings is not None and self._picked(seat, openings, action):
                return None
        candidate = game.clone(self.state)
        try:
            recorded = game.apply(candidate, action)
        except IllegalAction:
            raise
        except Exception as exc:  # noqa: BLE001 - a game's bug is a refusal, not a crash
            raise IllegalAction(
                ENGINE_ERROR, msg("core.refuse.engine_could_read_action", exc=repr(exc))
            ) from exc
        self.state = candidate
        recorded = as_recorded(recorded)  # the log's own copy (a legal action may be shared)
        self.actions.append(recorded)
        self.opened.pop(seat, None)
        return recorded

    def advance(self, actions: Iterable[Any]) -> Iterator[Action]:
        """Apply a log's actions in place, as a replay does: yields each as recorded once
        the state is after it, so a caller can look at every state on the way (a replay's
        views) without the copy that :meth:`step` makes to leave the state untouched by a
        refusal. IllegalAction (its ``index`` counted from this call's first action) ends
        it; the state is then after the last action taken, and ``actions`` holds those."""
        game = self.game
        apply, is_over = game.apply, game.is_over
        for index, action in enumerate(actions):
            try:
                # check_action_shape, its usual case in one test (a search replays millions)
                if not (
                    action.__class__ is dict
                    and action.get("seat").__class__ is str
                    and action.get("type").__class__ is str
                ):
                    check_action_shape(action)
                state = self.state  # (read each time: a caller may step the session between two)
                if is_over(state):
                    raise IllegalAction(
                        game.end_rule, msg("core.refuse.game_already_over_nothing_may")
                    )
                recorded = apply(state, action)
            except IllegalAction as exc:
                exc.at_action(index, game.field_label)
                raise
            except Exception as exc:  # noqa: BLE001 - a game's bug is a refusal, not a crash
                raise IllegalAction(
                    ENGINE_ERROR,
                    msg("core.refuse.engine_could_read_action", exc=repr(exc)),
                    index=index,
                ) from exc
            self.actions.append(recorded)
            yield recorded

    def _picked(self, seat: str, openings: list[Action], action: Action) -> bool:
        """For a seat that picks before it chooses: True when ``action`` is the pick (now
        remembered); False when it is an action within the pick already opened; refused
        otherwise, with nothing said about what it did not open."""
        game = self.game
        opened = self.opened.get(seat)
        rule = game.opening_rule
        if any(_same(action, pick) for pick in openings):
            if opened is not None and not _same(action, opened):
                raise IllegalAction(
                    rule,
                    msg(
                        "core.refuse.has_already_picked_turn_played",
                        seat=seat,
                        notation=str(game.notation(opened)),
                    ),
                )
            self.opened[seat] = dict(action)
            return True
        if opened is None:
            kinds = ", ".join(sorted({pick["type"] for pick in openings}))
            raise IllegalAction(
                rule, msg("core.refuse.first_picks_sees_inside_before", seat=seat, kinds=str(kinds))
            )
        if not _same(game.opening_of(action), opened):
            raise IllegalAction(
                rule,
                msg(
                    "core.refuse.has_picked_turn_played_there",
                    seat=seat,
                    notation=str(game.notation(opened)),
                ),
            )
        return False

    def undo(self) -> Action:
        """Take the last action back. A seat that picked before it (Cloak & Dagger's envelope)
        stays committed to that pick: it has seen inside."""
        if not self.actions:
            raise IndexError("there is no action to take back")
        undone = self.actions[-1]
        rebuilt = Session(
            self.game, self.options, self.seats, self.setup, self.seed, self.actions[:-1]
        )
        self.state, self.actions = rebuilt.state, rebuilt.actions
        self.opened = {}
        seat = undone.get("seat")
        within = self.game.opening_of(undone)
        if (
            within is not None
            and isinstance(seat, str)
            and self.game.openings(self.state, seat) is not None
        ):
            self.opened[seat] = within
        return undone
