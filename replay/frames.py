"""The frames of a replay, as the viewer page and the API serve them. No Django here.

A payload is everything the page needs for one perspective: the seats, the
perspectives one may switch to, what never changes (a board), and one frame per
ply — the setup (ply 0) and the state after each action, each exactly as the
engine shows it to that viewer (``Game.view`` and ``Game.action_view``). Nothing
else about the game goes into a seat's payload, so the page cannot leak what the
engine hides.

Views are served by pages of :data:`PAGE_SIZE` plies. A frame's move (seat, action,
notation, sentence, round and phase) is cheap and comes for every ply, so the move
list and the scrub bar know the whole game at once; its ``view`` (most of a frame's
weight and of its cost) comes for one page at a time: the payload carries the views
of the page asked for, and :func:`build_views` any other page, stepping the game
(``engine.Session``) to the page's first ply without building a view on the way.
The cost of a request is then bounded by the log's length (at most LOG-LENGTH
actions, applied once) plus one page of views, whatever the page.
"""

from __future__ import annotations

from typing import Any

from clubs.bots import names_at_table
from engine import (
    DEFAULT_LOCALE,
    PUBLIC,
    Game,
    IllegalAction,
    Session,
    Table,
    belief_track,
    get_game,
    msg,
    render,
    replay,
)

#: The all-seeing perspective's name in URLs and payloads (the engine calls it None).
ALL = "all"

#: Bumped whenever the payload's shape or wording changes, so cached payloads of the old
#: kind are never served again (8: a bot is named by its level, "strong bot").
PAYLOAD_VERSION = 8

#: Plies per page of views: a Mister X game between people (about 100 actions) fits in
#: one; the longest accepted log (2,000 actions) has 21.
PAGE_SIZE = 100


class UnknownViewer(ValueError):
    """A perspective that is neither ``all``, ``public`` nor a seat or team of this match."""


def viewer_ids(game: Game, log: dict[str, Any]) -> list[str]:
    """Every perspective of a match: ``all``, each seat, then each team."""
    options = game.normalize_options(log.get("options") or {})
    return [ALL, *game.viewers(options, [entry["seat"] for entry in log["seats"]])]


def viewer_label(viewer: str, game: Game, table: Table, locale: str = DEFAULT_LOCALE) -> str:
    """A perspective as a reader of ``locale`` calls it: ``All-seeing``, a seat by its role
    at the table and its player (``Mister X (alice)``), a team by its name (``The
    detectives``); the engine's words, so the frames API and the page say the same."""
    if viewer == ALL:
        return render(msg("core.viewer.all"), locale)
    if viewer == PUBLIC:
        return render(msg("core.viewer.public"), locale)
    player = table.players.get(viewer)
    role = game.seat_label(viewer, table)
    return render(msg("core.named", role=role, player=player) if player else role, locale)


def page_of(ply: int) -> int:
    """The page of views holding ``ply``."""
    return max(0, ply) // PAGE_SIZE


def _perspective(log: dict[str, Any], viewer: str) -> tuple[Game, str | None]:
    """The game of ``log`` and the engine's name of ``viewer`` (None: all-seeing). Besides
    the match's perspectives, ``public``: what a spectator saw (``engine.PUBLIC``), the
    one a game played online shows to those who did not play it until the club's delay
    has passed (``games.policy``)."""
    game = get_game(log.get("game"))
    if game is None:
        raise IllegalAction("LOG-GAME", f"unknown game {log.get('game')!r}")
    viewers = viewer_ids(game, log)
    if viewer not in viewers and viewer != PUBLIC:
        raise UnknownViewer(f"unknown perspective {viewer!r}; this match has {', '.join(viewers)}")
    return game, None if viewer == ALL else viewer


def build_frames(
    log: dict[str, Any],
    viewer: str,
    match_id: int | None = None,
    locale: str = DEFAULT_LOCALE,
    page: int | None = None,
) -> dict[str, Any]:
    """The payload of a stored (valid or rejected-after-setup) ``log`` seen by ``viewer``.

    Each frame: ``ply``; ``round`` and ``phase`` in which its action was taken (the
    setup frame: those of the initial state), so the move list groups an action with
    the phase it belongs to; ``seat`` that acted; ``action`` as the viewer saw it and
    its ``notation``; ``sentence``, the engine's plain sentence of it in ``locale``
    (``Game.describe`` of that same redacted action, so it says no more than the action
    does); ``view``, the engine's view of the state after it — for every frame, or with
    ``page`` only for the frames of that page (``page_of``). The game is walked once:
    the frames are taken while the engine validates.
    """
    game, engine_viewer = _perspective(log, viewer)
    first = 0 if page is None else page * PAGE_SIZE
    last = None if page is None else first + PAGE_SIZE

    frames: list[dict[str, Any]] = []
    options = game.normalize_options(log.get("options") or {})
    table = Table(names_at_table(log["seats"], locale), options)
    clock: dict[str, Any] = {}

    def observe(ply: int, action: dict[str, Any] | None, state: Any) -> None:
        nonlocal clock
        acted_in = clock  # the state before the action (the setup: its own)
        clock = game.clock(state)
        shown = None if action is None else game.action_view(state, action, engine_viewer)
        message = None if shown is None else game.describe(shown, table)
        frame = {
            "ply": ply,
            "round": (acted_in or clock).get("round"),
            "phase": (acted_in or clock).get("phase"),
            "seat": None if shown is None else shown.get("seat"),
            "action": shown,
            "notation": None if shown is None else game.notation(shown),
            "sentence": None if message is None else render(message, locale),
        }
        if first <= ply and (last is None or ply < last):
            frame["view"] = game.view(state, engine_viewer)
            frame["result_sentence"] = result_sentence(game, state, table, locale)
        frames.append(frame)

    error: IllegalAction | None = None
    try:
        rep = replay(log, observe)
    except IllegalAction as exc:
        if exc.partial is None:
            raise
        rep, error = exc.partial, exc

    return {
        "version": PAYLOAD_VERSION,
        "match": match_id,
        "game": game.id,
        "game_name": render(game.title(), locale),
        # which board drawing the page loads (static/js/replay/boards/<renderer>.js)
        "renderer": game.renderer,
        "rules_version": game.rules_version,
        "viewer": viewer,
        "viewers": [
            {"id": v, "label": viewer_label(v, game, table, locale)} for v in viewer_ids(game, log)
        ],
        "seats": [{"seat": e["seat"], "player": e["player"]} for e in log["seats"]],
        # Each seat and team as players call it, in ``locale`` (the boards' panels name them).
        "seat_labels": {
            v: render(game.seat_label(v, table), locale) for v in viewer_ids(game, log) if v != ALL
        },
        "options": rep.options,
        "static": game.static_view(rep.options),
        # Each card or ticket a view lists by its log id, as players call it.
        "card_words": {
            card: render(words, locale) for card, words in game.card_words(rep.options).items()
        },
        "legend": [
            {"mark": entry["mark"], "text": render(entry["text"], locale)}
            for entry in game.legend(rep.options)
        ],
        # Each phase the frames name, as players call it.
        "phases": {
            phase: render(game.phase_label(phase), locale)
            for phase in dict.fromkeys(f["phase"] for f in frames if f["phase"])
        },
        # No result here: it reaches a seat in the last frame's view, when the seat
        # learns it, not from the first frame on.
        "status": "rejected" if error is not None else rep.status,
        # A rejection's sentence may name hidden facts ("a detective is on 87"), so
        # only the all-seeing perspective gets it.
        "error": None
        if error is None or viewer != ALL
        else {**error.as_dict(), "text": str(error)},
        # Which frames carry their view: all of them (page None), or one page's.
        "page_size": PAGE_SIZE,
        "page": page,
        "frames": frames,
    }


class UnknownPage(ValueError):
    """A page of views past the frames of the log."""


def result_sentence(game: Game, state: Any, table: Table, locale: str) -> str | None:
    """The result of a game over in ``state``, as one sentence; None while it goes on. It
    goes with the view of the state, where every seat learns the result."""
    return (
        render(game.describe_result(game.result(state), table), locale)
        if game.is_over(state)
        else None
    )


def build_views(
    log: dict[str, Any], viewer: str, page: int, locale: str = DEFAULT_LOCALE
) -> dict[str, Any]:
    """The views of the frames of ``page`` (plies ``page * PAGE_SIZE`` on), as
    :func:`build_frames` gives them: the game is stepped through the engine's
    :class:`~engine.Session` to the page's first ply without a view on the way, then one
    view per ply up to the page's end or the log's last valid action (``Session.advance``:
    in place, so what a game caches on its state as it goes, such as Cloak & Dagger's
    folded knowledge, is kept from ply to ply). The log was
    replayed when it was stored; a page past its frames is :class:`UnknownPage`."""
    game, engine_viewer = _perspective(log, viewer)
    first = page * PAGE_SIZE
    actions = log["actions"]
    if page < 0 or first > len(actions):
        raise UnknownPage(
            f"page {page} is past the last frame of this log ({len(actions)} actions)"
        )
    options = game.normalize_options(log.get("options") or {})
    seats = [entry["seat"] for entry in log["seats"]]
    try:
        session = Session(
            game, options, seats, log.get("setup") or {}, log.get("seed"), actions[:first]
        )
    except IllegalAction:  # a rejected log's frames end before this page
        raise UnknownPage(f"page {page} is past the last frame of this log") from None
    table = Table(names_at_table(log["seats"], locale), options)
    views = [game.view(session.state, engine_viewer)]
    results = [result_sentence(game, session.state, table, locale)]
    try:
        for _ in session.advance(actions[first : first + PAGE_SIZE - 1]):
            views.append(game.view(session.state, engine_viewer))
            results.append(result_sentence(game, session.state, table, locale))
    except IllegalAction:  # a rejected log's frames end at its last valid action
        pass
    return {
        "version": PAYLOAD_VERSION,
        "viewer": viewer,
        "page": page,
        "from": first,
        "views": views,
        "result_sentences": results,
    }


def build_beliefs(log: dict[str, Any], viewer: str) -> dict[str, Any]:
    """The beliefs ``viewer`` may be shown after every ply of ``log``
    (:func:`engine.ai.beliefs.belief_track`): a seat's own, or built from public facts
    only; the all-seeing perspective's, every seat's."""
    game, engine_viewer = _perspective(log, viewer)
    return {"viewer": viewer, "game": game.id, **belief_track(game, log, engine_viewer)}
