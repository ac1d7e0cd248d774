"""The contract every game plugs into the engine with.

A game is one :class:`Game` subclass instance, registered by id
(:mod:`engine.core.registry`). Its state is the game's own object; the core
never looks inside it. ``apply`` mutates the state in place (validation replays
tens of thousands of actions a second, so no copy per action); callers that
need the state before an action keep a :meth:`Game.clone`.

Chance (CUL-2.4 and its like in every game): with a seed, ``initial_state`` and
``apply`` receive an :class:`~engine.core.rng.Rng` and derive every outcome the
log leaves out from it; an outcome the log also gives must agree. Without a seed
(``rng`` is ``None``) every outcome must be written in the log, and is checked
against what could still come out (the cards left in the deck, and so on).

Viewers: ``None`` is the all-seeing view; every seat id is a viewer; a game may
add team viewers (Mister X: ``"detectives"``); :data:`PUBLIC` is someone at the
table who holds no seat (a spectator: told what is announced to all, nothing
else). A view is one pure function of (state, viewer) and holds nothing that
viewer could not know. The same goes for the action list (:meth:`Game.action_view`
redacts one recorded action) and for what a seat is offered and told while it
plays (:class:`engine.core.session.Session`: its choices, and why a move is refused).

Game facts: everything the rest of Lantern needs to know about a game (how many
play, its seats, sides and teams, who won from a result, how a ladder rates it,
which board the replay page draws) is asked of its :class:`Game`, never written
down by game or seat name outside the engine.
"""

from __future__ import annotations

import copy
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Literal

from engine.core.messages import DEFAULT_LOCALE, Message, msg
from engine.core.rng import Rng

State = Any
Action = dict[str, Any]

#: The viewer who holds no seat: a spectator, told only what is announced to all.
PUBLIC = "public"


@dataclass(frozen=True)
class Draw:
    """The chance in an action that is a draw of a multiset, described instead of listed:
    the action's ``field`` is the sorted list of ``taken`` (items that come out whatever
    happens) plus ``count`` items drawn from ``pile`` (item -> how many are there). What
    :meth:`Game.chance_draw` returns, so that a recorder can offer a big draw item by item
    where :meth:`Game.chance_options` would list tens of thousands of multisets."""

    field: str
    taken: dict[str, int]
    pile: dict[str, int]
    count: int


@dataclass(frozen=True)
class Spread:
    """Legal actions that place items on numbered spaces, described instead of listed:
    every ``{**action, field: {"0": {kind: n, …}, …}}`` that places exactly ``items``
    (kind -> how many, in this kind order) on spaces ``0..spaces-1``, a space that gets
    nothing left out and only kinds it gets named. What :meth:`Game.legal_spread` returns,
    so a recorder can offer a relocation space by space where :meth:`Game.legal_actions`
    would list tens of thousands of placements."""

    action: Action
    field: str
    items: dict[str, int]
    spaces: int


@dataclass(frozen=True)
class Table:
    """What a sentence may name besides the action itself: who sat where (seat -> the
    player's name, from the log's seats) and the match's options (a board's city names).
    Both are public, so a sentence built from an action as a viewer saw it and the
    table tells that viewer nothing more."""

    players: dict[str, str]
    options: dict[str, Any]


#: A seat's outcome in a finished game (``MatchSeat.outcome``).
Outcome = Literal["win", "loss"]

#: The rating shapes of ``ratings.md``: two seats (EL-4), one against a team (EL-5),
#: free-for-all with one winner (EL-6).
TWO_SEATS = "two_seats"
ONE_AGAINST_TEAM = "one_against_team"
FREE_FOR_ALL = "free_for_all"


@dataclass(frozen=True)
class RatingShape:
    """How a ladder rates a finished game (``ratings.md``).

    ``kind``: :data:`TWO_SEATS`, :data:`ONE_AGAINST_TEAM` or :data:`FREE_FOR_ALL`.
    ``roles``: (the role whose advantage a ladder estimates, EL-3.3, and the role it plays
    against); for one against a team, (the lone side, the team's side) as
    :meth:`Game.side_of` names them. None: no role advantage (EL-6). ``labels``: how the
    rating sums name a role (default: its id). ``share``: what a team member's weight is a
    share of (EL-5.1: :meth:`Game.team_shares` out of :meth:`Game.team_total`)."""

    kind: str
    roles: tuple[str, str] | None = None
    labels: Mapping[str, str] = field(default_factory=dict)
    share: str = ""

    def label(self, role: str) -> str:
        return self.labels.get(role, role)


class Game:
    #: registry id, as in a log's ``game`` field
    id: str = ""
    #: display name, in English (logs, the CLI, error logs); pages say :meth:`title`
    name: str = ""
    #: the id of the game's name in its catalogs (``mx.title``: ミスターX, Мистер Икс, as
    #: the published editions name it); empty: ``name`` in every language
    title_id: str = ""
    #: bumped whenever a rule's reading changes; stored with every validated match
    rules_version: str = ""
    #: the prefix of this game's rule ids (``CUL`` of ``CUL-3.7``); the rules are written in
    #: ``docs/rules/<id>.md``, and the site shows rule ``CUL-3.7`` at ``/rules/<id>/#CUL-3.7``
    rule_prefix: str = ""
    #: rule cited when an action arrives after the game ended
    end_rule: str = ""
    #: rule cited when a log's ``result`` differs from the replay's
    result_rule: str = ""
    #: rule cited when a seat acts before (or outside) the pick it must open first
    #: (:meth:`openings`); games without picks leave it empty
    opening_rule: str = ""
    #: the module saying this game's actions as sentences (``describe``, ``seat_label``,
    #: ``phase_label``, ``describe_result``, ``legend``; see engine/README.md), or None
    sentences: ModuleType | None = None
    #: how many players a game has at least and at most (as ``seat_ids`` counts them)
    min_players: int = 1
    max_players: int = 1
    #: how a ladder rates it; None: no ladder does
    rating: RatingShape | None = None
    #: the replay page's board drawing of this game's views
    #: (``static/js/replay/boards/<renderer>.js``); ``generic`` shows the view as it is
    renderer: str = "generic"

    def title(self) -> Message | str:
        """The game's name, to be rendered in the reader's language."""
        return msg(self.title_id) if self.title_id else (self.name or self.id)

    # --- seating --------------------------------------------------------------
    def player_counts(self, options: dict[str, Any]) -> list[int]:
        """Every number of players ``seat_ids`` seats with these options, smallest first."""
        return list(range(self.min_players, self.max_players + 1))

    def side_of(self, seat: str) -> str:
        """The side ``seat`` plays on: opponents are seats on other sides, and a side may
        win as one (Mister X's ``detectives``). Default: every seat is its own side."""
        return seat

    def may_hold_together(self, seats: Collection[str]) -> bool:
        """Whether one player may hold all of ``seats`` in one game (log-format: "a player
        may hold several seats only where a game allows it"). Default: one seat each."""
        return len(set(seats)) <= 1

    def outcomes(self, result: dict[str, Any] | None, seats: Collection[str]) -> dict[str, Outcome]:
        """Each seat's outcome from a finished game's ``result``: a seat wins when the
        result's ``winner`` is the seat or its side (:meth:`side_of`)."""
        winner = result.get("winner") if result else None
        return {
            seat: "win" if winner is not None and winner in (seat, self.side_of(seat)) else "loss"
            for seat in seats
        }

    def team_shares(self, options: dict[str, Any], seats: Collection[str]) -> dict[str, int]:
        """Per seat of the team (a one-against-a-team game: the seats on the side
        ``rating.roles[1]``), its share of the team (EL-5.1). Default: one each."""
        team = self.rating.roles[1] if self.rating and self.rating.roles else None
        return {seat: 1 for seat in seats if self.side_of(seat) == team}

    def team_total(self, options: dict[str, Any]) -> int:
        """What the team's shares add up to with these options (EL-5.1)."""
        return sum(self.team_shares(options, self.seat_ids(options, self.max_players)).values())

    # --- envelope ---------------------------------------------------------
    def normalize_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """The options with documented defaults filled in; IllegalAction when invalid."""
        return dict(options)

    def check_seats(self, seats: list[dict[str, Any]], options: dict[str, Any]) -> None:
        """IllegalAction unless ``seats`` are exactly the seats this game and options need."""
        raise NotImplementedError

    def seat_ids(self, options: dict[str, Any], player_count: int | None = None) -> list[str]:
        """The seat ids of a game with these options (``player_count`` where it varies)."""
        raise NotImplementedError

    def viewers(self, options: dict[str, Any], seats: list[str]) -> list[str]:
        """Every viewer id other than the all-seeing ``None``: seats, then teams."""
        return list(seats)

    def acts_for(self, viewer: str, seat: str) -> bool:
        """Does ``viewer`` (a seat or a team) decide ``seat``'s moves? Its own seat, and the
        team seats it controls (:meth:`controller`); a team viewer overrides this."""
        return viewer == seat or self.controller(seat) == viewer

    # --- rules --------------------------------------------------------------
    def initial_state(
        self, options: dict[str, Any], seats: list[str], setup: dict[str, Any], rng: Rng | None
    ) -> State:
        raise NotImplementedError

    def setup_record(self, state: State) -> dict[str, Any]:
        """The complete setup of ``state`` (every chance outcome explicit), for writing a log."""
        raise NotImplementedError

    def random_setup_choices(
        self, options: dict[str, Any], seats: list[str], rng: Rng
    ) -> dict[str, Any]:
        """The setup *choices* (not chance) players would make, picked at random, for ``play``."""
        return {}

    def to_act(self, state: State) -> list[str]:
        """Seats that may act now (empty when the game is over)."""
        raise NotImplementedError

    def controller(self, seat: str) -> str:
        """The seat whose player (or bot) decides for ``seat``; differs only for team
        seats such as Mister X's ``detectives``."""
        return seat

    def legal_actions(self, state: State, seat: str) -> list[Action]:
        """Every action ``seat`` may take now. Chance outcomes are left out: ``apply``
        fills them in from the seed, or a recorder adds what came out at the table."""
        raise NotImplementedError

    def legal_spread(self, state: State, seat: str) -> Spread | None:
        """``seat``'s legal actions as a :class:`Spread`, when they are placements of items
        on spaces too many to list (they are then exactly :meth:`legal_actions`).
        Default: None (list them)."""
        return None

    def chance_options(self, state: State, action: Action) -> list[Action]:
        """Every way the chance in ``action`` (as ``legal_actions`` lists it, outcomes left
        out) could come out now: the completed actions a log without a seed may record.
        How a recorder at the table learns what to offer. Default: no chance, ``[action]``."""
        return [action]

    def chance_draw(self, state: State, action: Action) -> Draw | None:
        """The chance in ``action`` as a :class:`Draw`, when it is a draw of a multiset whose
        outcomes are too many to list (its completions are then exactly those of
        :meth:`chance_options`, each field's list sorted). Default: None (list them)."""
        return None

    def chance_fields(self, state: State, action: Action) -> dict[str, str]:
        """The fields of ``action`` that chance fills in now, each with the rule of that
        chance (Cloak & Dagger's ``place``: ``{"card": "CD-2.2"}``). When the server deals, a
        seat never names them: the answer to a guess would tell what is hidden. Default: none."""
        return {}

    def openings(self, state: State, seat: str) -> list[Action] | None:
        """When what ``seat`` may do next depends on something it sees only once it has
        committed to a pick (Cloak & Dagger: the contents of the envelope it picks up),
        the picks it chooses between first. Each is an action of its own type (``open``)
        that is never written in a log: making it shows the seat what it opened
        (:meth:`opened_view`) and from then on only the actions within it are its choices
        (:meth:`opening_of`). None: the seat chooses among :meth:`legal_actions` at once."""
        return None

    def opening_of(self, action: Action) -> Action | None:
        """The pick that ``action`` is made within (Cloak & Dagger: the envelope it names);
        None for an action no pick precedes."""
        return None

    def opened_view(self, state: State, opening: Action) -> dict[str, Any]:
        """What the seat that made ``opening`` sees in it (Cloak & Dagger: the contents)."""
        return {}

    def apply(self, state: State, action: Action) -> Action:
        """Check ``action`` against the rules, apply it to ``state`` in place, and return
        it as recorded: with every chance outcome written in. IllegalAction when illegal
        (the state is then unusable: replay from the start)."""
        raise NotImplementedError

    def is_over(self, state: State) -> bool:
        raise NotImplementedError

    def result(self, state: State) -> dict[str, Any] | None:
        """The result document of a finished game, else None."""
        raise NotImplementedError

    def clone(self, state: State) -> State:
        return copy.deepcopy(state)

    # --- what leaves the engine ---------------------------------------------
    def view(self, state: State, viewer: str | None) -> dict[str, Any]:
        """JSON-ready view of ``state`` for ``viewer``; always has ``round`` and ``phase``."""
        raise NotImplementedError

    def clock(self, state: State) -> dict[str, Any]:
        """The ``round`` and ``phase`` of ``state``: public, the same in every viewer's view.
        A replay's move list needs them at every ply, where a whole view would cost far
        more; a game answers from its state. Default: read from the all-seeing view."""
        view = self.view(state, None)
        return {"round": view.get("round"), "phase": view.get("phase")}

    def static_view(self, options: dict[str, Any]) -> dict[str, Any] | None:
        """What every viewer may see and nothing in the match changes (Mister X: the
        board's cities, connections and missions), so a replay sends it once instead of
        in every frame. Default: nothing."""
        return None

    def action_view(self, state_after: State, action: Action, viewer: str | None) -> Action:
        """``action`` (as recorded) as ``viewer`` saw it; ``state_after`` is the state just
        after it. Default: everything is public."""
        return action

    def notation(self, action: Action) -> str:
        """One short human line for an action, full or redacted."""
        fields = " ".join(f"{k}={v}" for k, v in action.items() if k not in ("seat", "type"))
        return f"{action.get('seat')} {action.get('type')} {fields}".strip()

    # Sentences (engine/README.md): a game's ``sentences`` module says its actions,
    # seats, results and board marks as messages; without one, the notation stands in.
    def describe(self, action: Action, table: Table) -> Message:
        """``action`` as one plain sentence (a :mod:`~engine.core.messages` message), from
        the action *as a viewer saw it* (:meth:`action_view`) and the public ``table``
        only, so the sentence says exactly what that viewer knew."""
        if self.sentences is None:
            return msg("core.action", text=self.notation(action))
        return self.sentences.describe(action, table)

    def seat_label(self, seat: str, table: Table) -> Message:
        """What ``seat`` is called at the table ("Mister X", "Detectives red and blue")."""
        if self.sentences is None:
            return msg("core.seat", seat=seat)
        return self.sentences.seat_label(seat, table)

    def seat_short_label(self, seat: str, table: Table) -> Message:
        """The seat in a word or two, where room is short (the players' chips on a phone):
        Mister X's detectives by their pawns' colours alone ("red, blue"); the full label
        for a game that has no shorter one."""
        short = getattr(self.sentences, "seat_short_label", None)
        return short(seat, table) if short else self.seat_label(seat, table)

    def phase_label(self, phase: str) -> Message:
        """A phase of a round as players call it ("Mister X's move")."""
        if self.sentences is None:
            return msg("core.phase", phase=phase)
        return self.sentences.phase_label(phase)

    def card_words(self, options: dict[str, Any]) -> dict[str, Message | str]:
        """What each card or ticket a view lists by its log id (a hand, a rack, a pile) is
        called at the table: ``car/double`` is "car (double move)". An id left out is
        shown as it is written (Cloak & Dagger's cards are the letters they show)."""
        if self.sentences is None or not hasattr(self.sentences, "card_words"):
            return {}
        return self.sentences.card_words(options)

    # Choices (a recorder's buttons): an action's fields and their values in words, so a
    # person picks "pawn: red", "ticket: train (secret move)", never a log id.
    def field_label(self, path: str) -> Message | str:
        """What the field at ``path`` of an action (``pawn``; ``to/0`` inside ``to``, as
        recorder/choices.py writes paths) is called when a person is asked for it. A
        field the game's sentences do not name is said as its path."""
        if path in ("type", "seat"):
            return msg(f"core.field.{path}")
        said = getattr(self.sentences, "field_label", None)
        found = said(path) if said is not None else None
        return path if found is None else found

    def choice_label(self, path: str, value: Any, seat: str | None, table: Table) -> Message | str:
        """The value ``value`` of the field at ``path`` as the table says it, for ``seat``
        choosing among its actions: ``pawn`` ``red`` is "red", a city by its name, an
        action type by what it does. A value the game's sentences do not name is said as
        written (a number as itself)."""
        if value is None or value == {} or value == []:
            return msg("core.choice.none")
        if isinstance(value, bool):
            return msg("core.choice.yes" if value else "core.choice.no")
        if path == "seat" and isinstance(value, str):
            return self.seat_label(value, table)
        said = getattr(self.sentences, "choice_label", None)
        found = said(path, value, seat, table) if said is not None else None
        if found is not None:
            return found
        if isinstance(value, list):
            items = [self.choice_label(path, item, seat, table) for item in value]
            return msg("core.text", text=items) if items else msg("core.choice.none")
        if isinstance(value, dict):
            return msg(
                "core.text",
                text=[
                    msg(
                        "core.choice.field",
                        field=self.field_label(f"{path}/{key}"),
                        value=self.choice_label(f"{path}/{key}", item, seat, table),
                    )
                    for key, item in value.items()
                ],
            )
        return str(value)

    def action_name(self, action: Any, table: Table) -> Message | str:
        """What a refusal calls the action it stopped at, in words: whose it is and what it
        does ("Cryptid: draw cards"). Its fields may be anything a log held, so a part the
        game cannot name is said as written."""
        if not isinstance(action, dict):
            return msg("core.what.action")
        seat, kind = action.get("seat"), action.get("type")
        try:
            who = self.seat_label(seat, table) if isinstance(seat, str) else str(seat)
            does = self.choice_label("type", kind, seat if isinstance(seat, str) else None, table)
        except Exception:  # noqa: BLE001 - a seat or type the game cannot read: as written
            who, does = str(seat), str(kind)
        return msg("core.action_name", seat=who, kind=does)

    def describe_result(self, result: dict[str, Any], table: Table) -> Message:
        """A finished game's result document as one sentence (an ending off the board,
        by time or claim, said by the engine for every game: engine.core.ending)."""
        if result.get("reason") in ("time", "claim") and "seat" in result:
            return msg(
                f"core.result.{result['reason']}",
                seat=self.seat_label(str(result["seat"]), table),
                winner=self.seat_label(str(result.get("winner")), table),
            )
        if self.sentences is None:
            return msg("core.result", text=" ".join(f"{k}={v}" for k, v in result.items()))
        return self.sentences.describe_result(result, table)

    def legend(self, options: dict[str, Any]) -> list[dict[str, Any]]:
        """What the marks of this game's board and notation mean: ``{"mark": key,
        "text": message}`` entries; a page draws the mark named ``key`` beside the text."""
        return [] if self.sentences is None else self.sentences.legend(options)

    def render_text(self, state: State, locale: str = DEFAULT_LOCALE) -> str:
        """The all-seeing state as text in ``locale``, for the command line (``show --lang``)
        and a rejected upload's page: its words from the catalogs, its notation as is."""
        raise NotImplementedError

    def json_schema(self) -> dict[str, Any]:
        """JSON Schemas of this game's ``options``, ``setup``, ``actions`` (a list, one
        per action type) and ``result``."""
        raise NotImplementedError

    def form_schema(
        self, options: dict[str, Any], seats: list[str], locale: str = DEFAULT_LOCALE
    ) -> dict[str, Any]:
        """What a person sets up for a table with these normalized ``options`` and
        ``seats``: ``{"options": …, "setup": …}``, JSON Schemas of the same values as
        :meth:`json_schema`'s, narrowed to this table and said in a person's words —
        every field with a ``title``; choices as ``oneOf`` of ``{"const", "title"}`` (a
        board by its name, a city by its name; other alternatives, such as an inline
        board, are left to the API); fixed-length lists asked item by item; a list of
        distinct picks as ``uniqueItems``; a ``default`` where the options' defaults do
        not say it. A form is built from it and nothing else, so no page names a game's
        parts. Titles and descriptions are said in ``locale`` (the game's catalogs).
        Default: the log's schemas as they are."""
        schema = self.json_schema()
        return {"options": schema.get("options") or {}, "setup": schema.get("setup") or {}}
