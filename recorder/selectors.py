"""Reads of the recorder: drafts, their resource (position, moves, frame), the choices
of the next action, and the game catalogue of the setup screen."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext

from clubs import policy
from clubs.bots import names_at_table
from clubs.models import Club
from clubs.policy import AnyUser
from config.sentences import engine_locale, say
from engine import Game, Table, all_games, bots_of, render
from games import display
from recorder import choices
from recorder import policy as draft_policy
from recorder.errors import DraftIllegal, DraftInvalid
from recorder.models import Draft
from recorder.policy import PUBLIC
from recorder.services import Position, engine_eyes, position_of
from replay.frames import ALL, viewer_label
from replay.frames import result_sentence as frame_result_sentence


def draft_for(user: AnyUser, draft_id: int) -> Draft | None:
    """The draft if its club is visible to ``user`` (None: answer 404). Whether the user may
    read it is ``recorder.policy.can_see_drafts``."""
    draft = Draft.objects.select_related("club", "created_by", "match").filter(pk=draft_id).first()
    if draft is None or not policy.can_view_club(user, draft.club):
        return None
    return draft


def club_drafts(club: Club, status: str = Draft.Status.RECORDING) -> QuerySet[Draft]:
    """The club's drafts in ``status``, most recently written first."""
    return (
        Draft.objects.filter(club=club, status=status)
        .select_related("club", "created_by")
        .order_by("-updated_at", "-id")
    )


def open_drafts(club: Club, user: AnyUser) -> QuerySet[Draft]:
    """The club's drafts still being recorded, for "resume" on the club page: every open
    draft for a member, none for anyone else."""
    if not draft_policy.can_see_drafts(user, club):
        return Draft.objects.none()
    return club_drafts(club)


# --- the draft resource -------------------------------------------------------------------------


def draft_viewers(game: Game, draft: Draft) -> list[str]:
    """The perspectives of a finished draft (a match: every one, as on its replay)."""
    seats = [entry["seat"] for entry in draft.seats]
    return [ALL, *game.viewers(draft.options, seats)]


@dataclass
class DraftView:
    """Everything the draft resource shows, for one perspective."""

    draft: Draft
    position: Position
    viewer: str
    moves: list[dict[str, Any]]
    frame: dict[str, Any]
    viewers: list[dict[str, str]]
    #: each phase the moves name, as players call it (as the replay payload's)
    phases: dict[str, str]
    #: each seat and team as players call it ("Mister X", "Player 2 (spies E/e)")
    seat_labels: dict[str, str]
    static: dict[str, Any] | None
    document: dict[str, Any] | None
    #: each card or ticket a view lists by its log id, as players call it
    card_words: dict[str, str] = field(default_factory=dict)
    #: the result as the engine says it, in the reader's language (None while playing)
    result_sentence: str | None = None


def draft_view(
    draft: Draft,
    user: AnyUser,
    asked: str | None = None,
    *,
    position: Position | None = None,
    with_static: bool = False,
) -> DraftView:
    """The draft as ``user`` may see it: moves and the current frame in the replay
    viewer's shapes. The perspective is the server's (``draft_eyes``); ``asked`` is
    honoured only for a finished draft, which is a match (any perspective, as its replay).
    A seat sees the actions as ``Game.action_view`` shows them to it, and gets no log
    document (it would tell what the seat may not know)."""
    from recorder.services import draft_document

    position = position or position_of(draft)
    game = position.game
    viewer = draft_policy.draft_eyes(user, draft, position.game, position.to_act)
    choosable = (
        draft_viewers(game, draft)
        if viewer == ALL and draft.status == Draft.Status.FINISHED
        else [viewer]
    )
    if asked and draft.status == Draft.Status.FINISHED:
        if asked not in choosable:
            raise DraftInvalid(
                gettext("unknown perspective %(view)s; this draft has %(views)s")
                % {"view": repr(asked), "views": ", ".join(choosable)},
                field="view",
            )
        viewer = asked
    eyes = None if viewer == ALL else viewer
    seen = seen_position(position, draft.seats, draft.moves, eyes)
    table = Table(names_at_table(draft.seats), draft.options)
    return DraftView(
        draft=draft,
        position=position,
        viewer=viewer,
        moves=seen.moves,
        frame=seen.frame,
        viewers=[{"id": v, "label": _label(v, game, table)} for v in choosable],
        phases=seen.phases,
        seat_labels=seen.seat_labels,
        static=game.static_view(draft.options) if with_static else None,
        document=draft_document(draft, position) if eyes is None else None,
        card_words=seen.card_words,
        result_sentence=seen.result_sentence,
    )


@dataclass
class SeenPosition:
    """A game as one pair of eyes sees it: its moves, the current frame (in the replay
    viewer's shapes) and the words to show them with, in the reader's language.
    ``moves`` are its moves from ply ``first`` on (1: all of them)."""

    moves: list[dict[str, Any]]
    frame: dict[str, Any]
    phases: dict[str, str]
    seat_labels: dict[str, str]
    card_words: dict[str, str]
    result_sentence: str | None
    first: int = 1


def seen_position(
    position: Position,
    seats: list[dict[str, Any]],
    stored_moves: list[dict[str, Any]],
    eyes: str | None,
    first: int = 1,
) -> SeenPosition:
    """``position`` as ``eyes`` (a seat, a team, ``public``, or None: all-seeing) may see it:
    each action as ``Game.action_view`` shows it to them, its sentence told from that
    alone; ``stored_moves`` are the moves' entries as stored (round, phase, notation,
    bot: ``recorder.services.move_entry``), ``seats`` the log's seat entries. A draft's
    page and a live table's sockets (live.selectors) are drawn from this. ``first``: the
    moves before that ply are left out (a reader that has them: the sentences are most of
    the cost), the last move always kept (the frame shows it)."""
    game = position.game
    options = position.options
    shown = position.session.history(eyes)
    table = Table(names_at_table(seats), options)
    first = max(1, min(first, len(shown)))
    moves = []
    for ply, (action, move) in enumerate(zip(shown, stored_moves, strict=True), start=1):
        if ply < first:
            continue
        moves.append(
            {
                "ply": ply,
                "round": move["round"],
                "phase": move["phase"],
                "seat": action.get("seat"),
                "action": action,
                "notation": move["notation"] if eyes is None else game.notation(action),
                # Told from the action as these eyes saw it (as the replay tells it): no more.
                "sentence": render(game.describe(action, table), engine_locale()),
                "bot": move["bot"],
            }
        )
    view = position.session.view(eyes)
    last = moves[-1] if moves else None
    frame = {
        "ply": len(shown),
        "round": last["round"] if last else view.get("round"),
        "phase": last["phase"] if last else view.get("phase"),
        "seat": last["seat"] if last else None,
        "action": last["action"] if last else None,
        "notation": last["notation"] if last else None,
        "sentence": last["sentence"] if last else None,
        "view": view,
    }
    result_sentence = frame_result_sentence(game, position.state, table, engine_locale())
    # as the replay's frames carry it, beside the view holding the result
    frame["result_sentence"] = result_sentence
    return SeenPosition(
        moves=moves,
        frame=frame,
        phases={
            phase: render(game.phase_label(phase), engine_locale())
            for phase in dict.fromkeys([*(m["phase"] for m in stored_moves), view.get("phase")])
            if phase
        },
        seat_labels={
            seat: render(game.seat_label(seat, table), engine_locale())
            for seat in game.viewers(options, [entry["seat"] for entry in seats])
        },
        card_words=display.card_words(game.id, options),
        result_sentence=result_sentence,
        first=first,
    )


def _label(viewer: str, game: Game, table: Table) -> str:
    return (
        gettext("Public (no seat)")
        if viewer == PUBLIC
        else viewer_label(viewer, game, table, engine_locale())
    )


# --- choosing the next action ---------------------------------------------------------------------


@dataclass
class ActionChoice:
    """One step of choosing an action (``recorder.choices``), each listed action with its
    notation, its fields' values in words and whether its chance outcome is still to be
    entered; ``fields``: every field asked or listed, in words (the engine's)."""

    draft: Draft
    seat: str | None
    choice: choices.Choice
    listed: list[dict[str, Any]]
    fields: dict[str, str] = field(default_factory=dict)


def leaves(action: dict[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    """``(path, value)`` of every field as the page narrows them (static/js/recorder/
    controls.js ``flatten``): nested objects become paths (``left/red``), lists stay whole."""
    found: list[tuple[str, Any]] = []
    for key, value in action.items():
        path = f"{prefix}/{key}" if prefix else key
        if isinstance(value, dict):
            found += leaves(value, path)
        else:
            found.append((path, value))
    return found


def _say_choices(
    seats: list[dict[str, Any]],
    position: Position,
    seat: str | None,
    choice: choices.Choice,
    listed: list[dict[str, Any]],
) -> dict[str, str]:
    """The choice in the engine's words, in the reader's language: a ``label`` on each value
    offered and ``labels`` (path -> words) on each listed action; returns the fields' names."""
    game, language = position.game, engine_locale()
    table = Table(names_at_table(seats), position.options)
    paths = dict.fromkeys([*choice.prefix, *([choice.field] if choice.field else [])])
    for value in choice.values:
        value["label"] = render(
            game.choice_label(choice.field or "", value["value"], seat, table), language
        )
    for entry in listed:
        entry["labels"] = {
            path: render(game.choice_label(path, value, seat, table), language)
            for path, value in leaves(entry["action"])
        }
        paths.update(dict.fromkeys(entry["labels"]))
    return {path: render(game.field_label(path), language) for path in paths}


def _listed(
    seats: list[dict[str, Any]],
    position: Position,
    actions: list[dict[str, Any]],
    with_chance: bool,
) -> list[dict[str, Any]]:
    """``actions`` with their notation and sentence; ``with_chance`` (chance entered at the
    table): whether each still needs its chance outcome entered."""
    game = position.game
    # The seat's own choices, so its sentence may say all of it.
    names = Table(names_at_table(seats), position.options)
    out = []
    for action in actions:
        chance = False
        if with_chance and action.get("type") not in OPENINGS:
            # A big draw is described rather than listed (a Mister X refill: 70k outcomes).
            chance = game.chance_draw(position.state, action) is not None or game.chance_options(
                position.state, action
            ) != [action]
        out.append(
            {
                "action": action,
                "notation": game.notation(action),
                "sentence": render(game.describe(action, names), engine_locale()),
                "chance": chance,
            }
        )
    return out


def said(
    seats: list[dict[str, Any]],
    position: Position,
    seat: str | None,
    choice: choices.Choice,
    with_chance: bool,
) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """The actions ``choice`` lists, each with its notation, sentence and fields in words
    (``with_chance``: chance entered at the table, and whether each still needs its
    outcome), and every field asked or listed in words. ``seats``: the log's seat entries."""
    listed = _listed(seats, position, choice.actions, with_chance)
    return listed, _say_choices(seats, position, seat, choice, listed)


#: Action types that are a seat's pick (engine Game.openings), never chance.
OPENINGS = ("open",)


def legal_choice(
    draft: Draft,
    user: AnyUser,
    seat: str | None = None,
    prefix: Any = None,
    position: Position | None = None,
) -> ActionChoice:
    """The choices of ``seat`` (default: the human seat to act) as ``user``'s eyes (the
    all-seeing recorder; a seat or team: what it knows) may know them, narrowed by
    ``prefix``: the same steps whatever is hidden from it."""
    position = position or position_of(draft)
    session = position.session
    viewer = engine_eyes(user, draft, position)
    to_act = position.to_act
    if seat is None:
        seat = next(
            (s for s in to_act if not position.is_bot(s) and session.acts_for(viewer, s)), None
        )
    elif seat not in to_act:
        # Well formed: the game's turn (or the recorder's seat rules) refuses it, 422.
        raise DraftIllegal(
            f"{seat!r} is not to act now (to act: {', '.join(to_act) or 'nobody'})", field="seat"
        )
    elif not session.acts_for(viewer, seat):
        raise DraftIllegal(f"{seat!r} is not played from this device", field="seat")
    if seat is None or position.is_bot(seat):
        return ActionChoice(draft, seat, _choose([], prefix), [])
    choice, listed, fields = seat_choice(
        position,
        draft.seats,
        seat,
        viewer,
        prefix,
        chance_at_table=draft.chance == Draft.Chance.TABLE,
    )
    return ActionChoice(draft, seat, choice, listed, fields)


def seat_choice(
    position: Position,
    seats: list[dict[str, Any]],
    seat: str,
    viewer: str | None,
    prefix: Any,
    *,
    chance_at_table: bool,
) -> tuple[choices.Choice, list[dict[str, Any]], dict[str, str]]:
    """The next step of choosing ``seat``'s action as ``viewer`` may know its choices
    (``seat`` is to act and ``viewer`` decides for it): the choice, the actions it lists
    and the fields in words (:func:`said`). A draft's entry and a live table's seat
    (live.api) ask this."""
    session = position.session
    spread = session.legal_spread(seat, viewer)
    if spread is not None:  # a relocation: 10k+ placements, described (Game.legal_spread)
        try:
            choice = choices.choose_spread(
                spread.action, spread.field, spread.items, spread.spaces, prefix
            )
        except choices.BadPrefix as exc:
            raise DraftInvalid(str(exc), field="prefix") from None
    else:
        choice = _choose(session.legal_actions(seat, viewer), prefix)
    listed, fields = said(seats, position, seat, choice, chance_at_table)
    return choice, listed, fields


def chance_choice(
    draft: Draft, user: AnyUser, action: Any, prefix: Any = None, position: Position | None = None
) -> ActionChoice:
    """The ways the chance in ``action`` could come out at the table, narrowed by ``prefix``
    (in a server-dealt draft the server deals: the action comes back alone). Only the
    all-seeing recorder enters what came out; a seat's eyes get the action back alone."""
    if not isinstance(action, dict) or not isinstance(action.get("seat"), str):
        raise DraftInvalid(
            gettext("action must be an object with a seat and a type"), field="action"
        )
    position = position or position_of(draft)
    game = position.game
    viewer = engine_eyes(user, draft, position)
    if not position.session.acts_for(viewer, action["seat"]):
        raise DraftIllegal(f"{action['seat']!r} is not played from this device", field="action")
    if draft.chance == Draft.Chance.SERVER or viewer is not None:
        choice = _choose([action], prefix)
    else:
        try:
            draw = game.chance_draw(position.state, action)
            outcomes = [] if draw is not None else game.chance_options(position.state, action)
        except Exception:  # noqa: BLE001 - an action the game cannot read has no outcomes
            draw, outcomes = None, []
        if draw is not None:
            try:
                choice = choices.choose_draw(
                    action, draw.field, draw.taken, draw.pile, draw.count, prefix
                )
            except choices.BadPrefix as exc:
                raise DraftInvalid(str(exc), field="prefix") from None
        else:
            choice = _choose(outcomes, prefix)
    listed, fields = said(draft.seats, position, action["seat"], choice, False)
    return ActionChoice(draft, action["seat"], choice, listed, fields)


def _choose(actions: list[dict[str, Any]], prefix: Any) -> choices.Choice:
    try:
        return choices.choose(actions, prefix)
    except choices.BadPrefix as exc:
        raise DraftInvalid(str(exc), field="prefix") from None


# --- the setup screen
# -------------------------------------------------------------------------------


def game_catalogue() -> list[dict[str, Any]]:
    """Per game: seats per player count (the engine's player counts and seat ids), bots,
    default options, the engine's schemas of options and setup, which setup fields are
    choices (not chance), and the board drawing of its views."""
    from engine import Rng

    out = []
    for game_id, game in sorted(all_games().items()):
        defaults = game.normalize_options({})
        counts = game.player_counts(defaults)
        schema = game.json_schema()
        seats = {str(n): game.seat_ids(defaults, n) for n in counts}
        choice_fields = sorted(game.random_setup_choices(defaults, seats[str(counts[0])], Rng(0)))
        out.append(
            {
                "id": game_id,
                "name": say(game.title()),
                "player_counts": counts,
                "seats": seats,
                "bots": sorted(bots_of(game)),
                "default_options": defaults,
                "schema": {"options": schema.get("options"), "setup": schema.get("setup")},
                "setup_choices": choice_fields,
                "renderer": game.renderer,
            }
        )
    return out
