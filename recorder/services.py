"""Writes of the recorder: create a draft, apply an action (and the bots' replies), undo,
finish (ingest through ``games.services.ingest_log``, the path every log takes, then
``recorder.events.draft_stored``), abandon.

A draft stores its log's parts (setup, actions as recorded); the position is rebuilt
from them through the engine for every request (a few milliseconds: validation runs
tens of thousands of actions a second), so what is stored is always exactly what
the engine accepted.

Every write names the draft ``version`` it was made against. It runs under the
draft's row lock (``select_for_update``: PostgreSQL serializes two writers), and
the row is updated only where the version is still the one read (a conditional
UPDATE, which holds on any database): of two tabs writing at once, exactly one
succeeds and the other is told to reload.
"""

from __future__ import annotations

import functools
import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext, ngettext

import engine
from clubs import policy
from clubs.bots import player_name
from clubs.models import Club, Player
from config.events import publish
from config.sentences import engine_locale, say
from engine import (
    BOT_STREAM,
    ENGINE_ERROR,
    FORMAT,
    MAX_ACTIONS,
    Game,
    IllegalAction,
    Rng,
    Session,
    bots_of,
    get_game,
)
from games import services as game_services
from games.models import Upload
from recorder import budgets, events
from recorder import policy as draft_policy
from recorder.errors import (
    ClosedDraft,
    DraftIllegal,
    DraftInvalid,
    NothingToUndo,
    StaleDraft,
    UnknownPlayers,
)
from recorder.models import Draft, DraftWrite

#: Rule ids of the recorder's own refusals (the engine's are cited as they are).
REC_BOT = "REC-BOT"  # an action for a seat a bot plays
REC_SEATS = "REC-SEATS"  # seats that are not this game's, or an unknown bot
REC_UNDO = "REC-UNDO"  # undo in a game with a bot (a move once seen is not taken back)
#: Bot moves one write may make before giving up (a game that never gives a human a turn).
MAX_BOT_MOVES = 2000
#: Server-dealt seeds stay below 2**63: they are stored in a signed 64-bit column.
SEED_LIMIT = 2**63


# --- the position of a draft ----------------------------------------------------------------


@dataclass
class Position:
    """A draft's game rebuilt through the engine (an :class:`engine.Session`), with the
    seats its bots play."""

    session: Session
    bots: dict[str, str]  # seat -> bot name

    @property
    def game(self) -> Game:
        return self.session.game

    @property
    def options(self) -> dict[str, Any]:
        return self.session.options

    @property
    def seats(self) -> list[str]:
        return self.session.seats

    @property
    def state(self) -> Any:
        return self.session.state

    @property
    def is_over(self) -> bool:
        return self.session.is_over

    @property
    def to_act(self) -> list[str]:
        return self.session.to_act

    def is_bot(self, seat: str) -> bool:
        return self.game.controller(seat) in self.bots

    @property
    def human_seat(self) -> str | None:
        """The first seat to act whose decision is a human's, None when none is."""
        return next((s for s in self.to_act if not self.is_bot(s)), None)

    @property
    def bot_seat(self) -> str | None:
        """The bot that moves now: when the first seat to act is a bot's. Several seats may
        act in any order (Mister X's detectives); the first goes first, as in
        ``engine.play``, so a person's optional turn (the detectives' special action before
        the refills) is never skipped by a bot acting ahead of it."""
        to_act = self.to_act
        return to_act[0] if to_act and self.is_bot(to_act[0]) else None


def game_of(draft: Draft) -> Game:
    game = get_game(draft.game)
    if game is None:  # a game removed from the engine since the draft began
        raise DraftIllegal(
            gettext("the engine no longer knows the game %(game)s") % {"game": repr(draft.game)},
            rule="LOG-GAME",
        )
    return game


def position_of(draft: Draft) -> Position:
    """Rebuild ``draft``'s game: its actions, and the picks its seats have opened."""
    session = Session(
        game_of(draft),
        draft.options,
        [entry["seat"] for entry in draft.seats],
        draft.setup,
        draft.seed,
        draft.actions,
        draft.opened,
    )
    return Position(session, draft.bot_seats)


def engine_eyes(user: Any, draft: Draft, position: Position) -> str | None:
    """The engine viewer ``user`` decides and sees with (``clubs.policy.draft_eyes``;
    ``all`` is the engine's None)."""
    eyes = draft_policy.draft_eyes(user, draft, position.game, position.to_act)
    return None if eyes == draft_policy.ALL_SEEING else eyes


def bot_rng(seed: int, ply: int) -> Rng:
    """The generator of the bot move at ``ply``: a function of the seed and the ply only,
    so a bot replies the same way to the same position after an undo and a redo, and a
    bot's choices never shift the chance outcomes the seed gives the game."""
    digest = hashlib.sha256(f"{seed ^ BOT_STREAM}:{ply}".encode()).digest()
    return Rng(int.from_bytes(digest[:8], "big"))


def move_entry(
    game: Game, before: dict[str, Any], recorded: dict[str, Any], bot: bool
) -> dict[str, Any]:
    """The move-list entry of an action: the round and phase it was played in (the view
    before it, as the replay viewer groups moves), its notation, and whether a bot played it."""
    return {
        "round": before.get("round"),
        "phase": before.get("phase"),
        "notation": game.notation(recorded),
        "bot": bot,
    }


def step_as(session: Session, action: Any, viewer: str | None) -> dict[str, Any] | None:
    """``session.step`` with every refusal as a DraftIllegal citing the rule; the reason
    tells only what ``viewer`` knows (engine.Session)."""
    ply = session.ply
    try:
        return session.step(action, viewer)
    except IllegalAction as exc:
        raise DraftIllegal(exc.text(engine_locale()), rule=exc.rule, index=ply) from None
    except Exception as exc:  # noqa: BLE001 - a game's bug is a refusal, not a 500
        raise DraftIllegal(
            gettext("the engine could not read this action (%(error)s)") % {"error": repr(exc)},
            rule=ENGINE_ERROR,
            index=ply,
        ) from None


def _check_length(ply: int) -> None:
    """DraftIllegal(LOG-LENGTH) when the log already holds the most actions a log may."""
    if ply >= MAX_ACTIONS:
        raise DraftIllegal(
            gettext(
                "a log holds at most %(count)s actions: store this game "
                "(as an unfinished match if it has not ended)"
            )
            % {"count": MAX_ACTIONS},
            rule="LOG-LENGTH",
            index=ply,
        )


def play_bots(
    seed: int | None, position: Position, actions: list[dict[str, Any]], moves: list[dict[str, Any]]
) -> None:
    """Apply bot moves while a bot is to act (appending to ``actions`` and ``moves``), each
    from :func:`bot_rng` of the game's ``seed`` (a live table's too, live.services). They
    stop at a full log (LOG-LENGTH): the caller decides what then (a draft refuses the
    next move and is stored, a live table ends as ``full``)."""
    game, session = position.game, position.session
    for _ in range(MAX_BOT_MOVES):
        if position.is_over or len(actions) >= MAX_ACTIONS:
            return
        seat = position.bot_seat
        if seat is None:
            return
        bot = bots_of(game)[position.bots[game.controller(seat)]]
        before = game.view(session.state, None)
        action = bot(game, session.state, seat, bot_rng(seed or 0, len(actions)))
        recorded = step_as(session, action, None)  # a bot decides from its seat's knowledge
        actions.append(recorded)
        moves.append(move_entry(game, before, recorded, bot=True))
    raise DraftIllegal(
        gettext("the bots made %(count)s moves without a human's turn") % {"count": MAX_BOT_MOVES},
        rule=game.end_rule,
    )


# --- creating a draft ---------------------------------------------------------------------


def bot_handles(bots: list[str]) -> list[str]:
    """The club player each bot seat plays as: ``bot-greedy``, then ``bot-greedy-2``, …"""
    seen: dict[str, int] = {}
    handles = []
    for name in bots:
        seen[name] = seen.get(name, 0) + 1
        handles.append(f"bot-{name}" if seen[name] == 1 else f"bot-{name}-{seen[name]}")
    return handles


def read_seats(game: Game, options: dict[str, Any], seats: Any) -> list[dict[str, Any]]:
    """The seat entries as the log will have them, bots given their club handles."""
    if not isinstance(seats, list) or not seats:
        raise DraftInvalid(
            gettext("seats must be a non-empty list of {seat, player} or {seat, bot}")
        )
    entries: list[dict[str, Any]] = []
    bots: list[str] = []
    for i, entry in enumerate(seats):
        if not isinstance(entry, dict) or not isinstance(entry.get("seat"), str):
            raise DraftInvalid(
                gettext("seat entry %(index)s must be an object with a seat id") % {"index": i}
            )
        player, bot = entry.get("player"), entry.get("bot")
        if (player is None) == (bot is None):
            raise DraftInvalid(
                gettext("seat %(seat)s needs exactly one of player and bot")
                % {"seat": repr(entry["seat"])}
            )
        if bot is not None:
            if bot not in bots_of(game):
                raise DraftIllegal(
                    gettext("%(game)s has no bot %(bot)s (it has %(bots)s)")
                    % {
                        "game": say(game.title()),
                        "bot": repr(bot),
                        "bots": ", ".join(sorted(bots_of(game))),
                    },
                    rule=REC_SEATS,
                )
            bots.append(bot)
            entries.append({"seat": entry["seat"], "bot": bot})
        else:
            if not isinstance(player, str) or not player.strip():
                raise DraftInvalid(
                    gettext("seat %(seat)s needs a player handle") % {"seat": repr(entry["seat"])}
                )
            entries.append({"seat": entry["seat"], "player": player.strip()})
    for entry, handle in zip([e for e in entries if "bot" in e], bot_handles(bots), strict=True):
        entry["player"] = handle
    entries = [
        {"seat": e["seat"], "player": e["player"], **({"bot": e["bot"]} if "bot" in e else {})}
        for e in entries
    ]
    try:
        expected = game.seat_ids(options, len(entries))
    except ValueError as exc:
        raise DraftIllegal(str(exc), rule=REC_SEATS) from None
    if [e["seat"] for e in entries] != expected:
        raise DraftIllegal(
            ngettext(
                "%(game)s with %(count)s player has the seats %(seats)s, in that order",
                "%(game)s with %(count)s players has the seats %(seats)s, in that order",
                len(entries),
            )
            % {"game": say(game.title()), "count": len(entries), "seats": ", ".join(expected)},
            rule=REC_SEATS,
        )
    try:
        engine.check_envelope({"format": FORMAT, "game": game.id, "seats": entries, "actions": []})
        game.check_seats(entries, options)
    except IllegalAction as exc:
        raise DraftIllegal(exc.text(engine_locale()), rule=exc.rule) from None
    if all("bot" in e for e in entries):
        raise DraftIllegal(gettext("at least one seat must be a person's"), rule=REC_SEATS)
    return entries


def check_players(club: Club, user: Any, entries: list[dict[str, Any]]) -> None:
    """Human handles must be the club's players, unless ``user`` may add players (as for
    an upload); bot players are created here, on first use."""
    humans = sorted({e["player"] for e in entries if "bot" not in e})
    # handle -> its bot level ("" for a person), in one query
    known = dict(Player.objects.filter(club=club, handle__in=humans).values_list("handle", "bot"))
    bot_handle = next(
        (handle for handle in humans if known.get(handle)), None
    )  # in a person's seat
    if bot_handle is not None:
        raise DraftInvalid(
            gettext("'%(handle)s' is the club's %(bot)s: choose it as a bot, not as a person")
            % {"handle": bot_handle, "bot": player_name(bot_handle, known[bot_handle])}
        )
    missing = [h for h in humans if h not in known]
    longest = Player._meta.get_field("handle").max_length
    if any(len(h) > longest for h in humans):
        raise DraftInvalid(
            gettext("a player handle may have at most %(count)s characters") % {"count": longest}
        )
    if missing and not policy.can_create_players(user, club):
        raise UnknownPlayers(
            gettext(
                "these players are not in %(club)s: %(players)s (an organiser can record with new "
                "players)"
            )
            % {"club": club.name, "players": ", ".join(missing)},
            handles=missing,
        )
    for entry in entries:
        if "bot" in entry:
            Player.objects.get_or_create(
                club=club, handle=entry["player"], defaults={"bot": entry["bot"]}
            )


def start_session(
    game: Game,
    options: dict[str, Any],
    seat_ids: list[str],
    setup: dict[str, Any],
    seed: int | None,
) -> tuple[Session, dict[str, Any]]:
    """The game at its start and its setup as the log records it (every chance outcome
    written out). Dealt from ``seed`` when there is one: the players' setup choices not
    given in ``setup`` are then picked at random. A setup the engine refuses is a
    DraftIllegal citing the rule."""
    if seed is not None:
        setup = {**game.random_setup_choices(options, seat_ids, bot_rng(seed, -1)), **setup}
    try:
        session = Session(game, options, seat_ids, setup, seed)
        return session, game.setup_record(session.state)
    except IllegalAction as exc:
        raise DraftIllegal(exc.text(engine_locale()), rule=exc.rule) from None
    except Exception as exc:  # noqa: BLE001 - see engine.ENGINE_ERROR
        raise DraftIllegal(
            gettext("the engine could not read the setup (%(error)s)") % {"error": repr(exc)},
            rule=ENGINE_ERROR,
        ) from None


def create_draft(
    club: Club,
    user: Any,
    *,
    game_id: Any,
    options: Any = None,
    seats: Any = None,
    chance: str | None = None,
    setup: Any = None,
    played_at: datetime | None = None,
) -> tuple[Draft, Position]:
    """Start recording a game in ``club``; the bots that act first move at once.
    The caller checks ``recorder.policy.can_record(user, club)``."""
    game = get_game(game_id) if isinstance(game_id, str) else None
    if game is None:
        raise DraftInvalid(gettext("unknown game %(game)s") % {"game": repr(game_id)}, field="game")
    options = {} if options is None else options
    setup = {} if setup is None else setup
    if not isinstance(options, dict):
        raise DraftInvalid(gettext("options must be an object"), field="options")
    if not isinstance(setup, dict):
        raise DraftInvalid(gettext("setup must be an object"), field="setup")
    try:
        options = game.normalize_options(options)
    except IllegalAction as exc:
        raise DraftIllegal(exc.text(engine_locale()), rule=exc.rule) from None
    entries = read_seats(game, options, seats)
    has_bots = any("bot" in e for e in entries)
    chance = chance or (Draft.Chance.SERVER if has_bots else Draft.Chance.TABLE)
    if chance not in Draft.Chance.values:
        raise DraftInvalid(gettext("chance must be 'table' or 'server'"), field="chance")
    if has_bots and chance == Draft.Chance.TABLE:
        raise DraftInvalid(
            gettext(
                "a game with a bot is dealt by the server (chance 'server'): "
                "a bot cannot tell what came out at a table"
            ),
            field="chance",
        )
    seed = secrets.randbelow(SEED_LIMIT) if chance == Draft.Chance.SERVER else None
    session, recorded_setup = start_session(
        game, options, [e["seat"] for e in entries], setup, seed
    )

    with transaction.atomic():
        if has_bots:
            budgets.admit_bot_game(user)
        check_players(club, user, entries)
        draft = Draft(
            club=club,
            created_by=user,
            game=game.id,
            options=options,
            seats=entries,
            chance=chance,
            seed=seed,
            setup=recorded_setup,
            played_at=played_at or timezone.now(),
        )
        position = Position(session, draft.bot_seats)
        actions: list[dict[str, Any]] = []
        moves: list[dict[str, Any]] = []
        play_bots(draft.seed, position, actions, moves)
        draft.actions, draft.moves = actions, moves
        draft.save()
    return draft, position


# --- writing a draft ------------------------------------------------------------------------


@dataclass(frozen=True)
class WriteRequest:
    """A write as it was asked: by ``user``, against the draft's ``version``, and the
    request's ``fingerprint`` (recorder.api.fingerprint: endpoint, body and query), by
    which the same request posted twice is known."""

    user: Any
    version: Any
    fingerprint: str


#: Draws the answer to a write: the draft resource as the writer may see it (the API's
#: body).
Answer = Callable[[Draft, "Position"], dict[str, Any]]


class _AnsweredBefore(Exception):  # noqa: N818 - not an error: the way out of a repeat
    """This request is the draft's latest write, made already: nothing has changed since,
    so its answer, drawn again from the draft as that write left it, is the same."""

    def __init__(self, draft: Draft):
        super().__init__("answered before")
        self.draft = draft


def _answered_once(service: Callable[..., dict[str, Any]]) -> Callable[..., dict[str, Any]]:
    """A write service (``answer`` given by keyword) that answers a repeat of the draft's
    latest write as it was first answered, without applying it again."""

    @functools.wraps(service)
    def once(*args: Any, answer: Answer, **kwargs: Any) -> dict[str, Any]:
        try:
            return service(*args, answer=answer, **kwargs)
        except _AnsweredBefore as repeat:
            return answer(repeat.draft, position_of(repeat.draft))

    return once


def _locked(draft_id: int, request: WriteRequest) -> Draft:
    """The draft, locked, if it is still at the request's version and recording (call
    inside atomic). The draft's latest write asked again — the same person, the same
    endpoint, body and query — is answered again (``_AnsweredBefore``); any other request
    against an old version (a repeat of an older write too) is stale."""
    version = request.version
    if type(version) is not int:
        raise DraftInvalid(
            gettext("version (an integer: the draft's current version) is required"),
            field="version",
        )
    draft = Draft.objects.select_for_update().get(pk=draft_id)
    if (
        draft.version == version + 1
        and DraftWrite.objects.filter(
            draft=draft, version=version, user=request.user, fingerprint=request.fingerprint
        ).exists()
    ):
        raise _AnsweredBefore(draft)
    if draft.status != Draft.Status.RECORDING:
        raise ClosedDraft(
            gettext("this draft is finished: it cannot change any more")
            if draft.status == Draft.Status.FINISHED
            else gettext("this draft is abandoned: it cannot change any more")
        )
    if draft.version != version:
        raise StaleDraft(
            gettext(
                "this draft changed since version %(version)s (it is at version %(now)s "
                "now, perhaps from another tab): reload it"
            )
            % {"version": version, "now": draft.version},
            version=draft.version,
        )
    return draft


def _save(draft: Draft, version: int, **fields: Any) -> Draft:
    """Write ``fields`` and bump the version, only if the row is still at ``version``."""
    now = timezone.now()
    written = Draft.objects.filter(pk=draft.pk, version=version).update(
        version=F("version") + 1, updated_at=now, **fields
    )
    if written != 1:
        raise StaleDraft(gettext("this draft changed while this write was made: reload it"))
    for name, value in fields.items():
        setattr(draft, name, value)
    draft.version, draft.updated_at = version + 1, now
    return draft


def _answer(
    draft: Draft,
    position: Position,
    request: WriteRequest,
    kind: str,
    answer: Answer,
    *,
    bot_moves: int = 0,
) -> dict[str, Any]:
    """Note the write just saved (unique per draft and version: each version is written
    from once), with the moves the bots made in reply, and draw its answer."""
    DraftWrite.objects.create(
        draft=draft,
        version=request.version,
        user=request.user,
        kind=kind,
        fingerprint=request.fingerprint,
        bot_moves=bot_moves,
    )
    return answer(draft, position)


@_answered_once
def apply_action(
    draft_id: int, request: WriteRequest, action: Any, *, answer: Answer
) -> dict[str, Any]:
    """Apply an action decided with the writer's eyes (``engine_eyes``: all-seeing, or a
    seat or team, told only what it knows: engine.Session), then the bots' replies; save;
    return ``answer`` of the result. A pick (Cloak & Dagger's ``open``) is saved in
    ``opened``, never as an action. Nothing changes when it is refused (DraftIllegal with
    the rule id)."""
    with transaction.atomic():
        draft = _locked(draft_id, request)
        version = request.version
        position = position_of(draft)
        session = position.session
        viewer = engine_eyes(request.user, draft, position)
        ply = len(draft.actions)
        seat = action.get("seat") if isinstance(action, dict) else None
        if isinstance(seat, str) and position.is_bot(seat):
            raise DraftIllegal(
                gettext("%(seat)s is played by a bot: its moves are made by the server")
                % {"seat": seat},
                rule=REC_BOT,
                index=ply,
            )
        if isinstance(seat, str) and not session.acts_for(viewer, seat):
            raise DraftIllegal(
                gettext("%(seat)s is not played from this device (it plays %(viewer)s)")
                % {"seat": seat, "viewer": viewer},
                rule=REC_SEATS,
                index=ply,
            )
        _check_length(ply)
        if draft.bot_seats:
            budgets.admit_bot_moves(request.user)
        before = position.game.view(session.state, None)
        recorded = step_as(session, action, viewer)
        bot_moves = 0
        if recorded is None:  # a pick: the seat now sees inside, and is committed to it
            _save(draft, version, opened=session.opened)
        else:
            actions = [*draft.actions, recorded]
            moves = [*draft.moves, move_entry(position.game, before, recorded, bot=False)]
            play_bots(draft.seed, position, actions, moves)
            bot_moves = len(actions) - len(draft.actions) - 1
            _save(draft, version, actions=actions, moves=moves, opened=session.opened)
        return _answer(draft, position, request, DraftWrite.Kind.APPLY, answer, bot_moves=bot_moves)


@_answered_once
def undo(draft_id: int, request: WriteRequest, *, answer: Answer) -> dict[str, Any]:
    """Take back the last human action and the bot moves that followed it. Off in a game
    with a bot: once a move is answered (and in a bot game, seen), it stays. A seat that
    had picked before the move taken back (Cloak & Dagger's envelope) stays committed to
    that pick: it has looked inside."""
    with transaction.atomic():
        draft = _locked(draft_id, request)
        if draft.bot_seats:
            raise DraftIllegal(
                gettext(
                    "undo is off in a game against a bot: a move once made is not "
                    "taken back (the bot's reply, or what the move showed, is seen)"
                ),
                rule=REC_UNDO,
            )
        if not draft.actions:
            raise NothingToUndo(gettext("there is no action of a person to undo"))
        position = position_of(draft)
        position.session.undo()
        keep = len(position.session.actions)
        _save(
            draft,
            request.version,
            actions=draft.actions[:keep],
            moves=draft.moves[:keep],
            opened=position.session.opened,
        )
        return _answer(draft, position, request, DraftWrite.Kind.UNDO, answer)


def draft_document(draft: Draft, position: Position | None = None) -> dict[str, Any]:
    """The draft as a ``lantern-log/1`` document (its result once the game is over)."""
    position = position or position_of(draft)
    return {
        "format": FORMAT,
        "game": draft.game,
        "options": draft.options,
        "seats": [dict(entry) for entry in draft.seats],
        "seed": draft.seed,
        "setup": draft.setup,
        "actions": list(draft.actions),
        "result": position.game.result(position.state) if position.is_over else None,
        "meta": {"played_at": draft.played_at.isoformat(), "recorder": {"draft": draft.pk}},
    }


@_answered_once
def finish(draft_id: int, request: WriteRequest, *, answer: Answer) -> dict[str, Any]:
    """Ingest the draft's log as an upload would be (a finished game becomes a rated
    match, one stopped early an unfinished match). A refusal (LogRejected, with its
    Upload record kept) leaves the draft recording."""
    rejected: game_services.LogRejected | None = None
    with transaction.atomic():
        draft = _locked(draft_id, request)
        position = position_of(draft)
        try:
            # No savepoint around it: a refusal's Upload record must be kept.
            match = game_services.ingest_log(
                draft.club,
                draft_document(draft, position),
                request.user,
                source=Upload.Source.RECORDER,
                name=f"draft {draft.pk}",
            )
        except game_services.LogRejected as exc:
            rejected = exc
        else:
            _save(draft, request.version, status=Draft.Status.FINISHED, match=match)
            publish(
                events.draft_stored, draft_id=draft.pk, match_id=match.pk, club_id=draft.club_id
            )
            body = _answer(draft, position, request, DraftWrite.Kind.FINISH, answer)
    if rejected is not None:
        raise rejected
    return body


@_answered_once
def abandon(draft_id: int, request: WriteRequest, *, answer: Answer) -> dict[str, Any]:
    """Drop the draft without a match."""
    with transaction.atomic():
        draft = _locked(draft_id, request)
        _save(draft, request.version, status=Draft.Status.ABANDONED)
        return _answer(draft, position_of(draft), request, DraftWrite.Kind.ABANDON, answer)
