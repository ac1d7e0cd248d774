"""The frames of a replay, as the viewer page and the API serve them. No Django here.

A payload is everything the page needs for one perspective: the seats, the
perspectives one may switch to, what never changes (a board), and one frame per
ply — the setup (ply 0) and the state after each action, each exactly as the
engine shows it to that viewer (``Game.view`` and ``Game.action_view``). Nothing
else about the game goes into a seat's payload, so the page cannot leak what the
engine hides.
"""

from __future__ import annotations

from typing import Any

from engine import Game, IllegalAction, get_game, replay
from engine.core.game import Table
from engine.core.messages import DEFAULT_LOCALE, render

#: The all-seeing perspective's name in URLs and payloads (the engine calls it None).
ALL = "all"

#: Bumped whenever the payload's shape changes, so cached payloads of the old shape
#: are never served again.
PAYLOAD_VERSION = 4


class UnknownViewer(ValueError):
    """A perspective that is neither ``all`` nor a seat or team of this match."""


def viewer_ids(game: Game, log: dict[str, Any]) -> list[str]:
    """Every perspective of a match: ``all``, each seat, then each team."""
    options = game.normalize_options(log.get("options") or {})
    return [ALL, *game.viewers(options, [entry["seat"] for entry in log["seats"]])]


def viewer_label(viewer: str, players: dict[str, str]) -> str:
    """``All-seeing``, ``mrx (alice)``, or ``detectives (team)`` for a viewer that is no seat."""
    if viewer == ALL:
        return "All-seeing"
    player = players.get(viewer)
    return f"{viewer} ({player})" if player else f"{viewer} (team)"


def build_frames(log: dict[str, Any], viewer: str, match_id: int | None = None,
                 locale: str = DEFAULT_LOCALE) -> dict[str, Any]:
    """The payload of a stored (valid or rejected-after-setup) ``log`` seen by ``viewer``.

    Each frame: ``ply``; ``round`` and ``phase`` in which its action was taken (the
    setup frame: those of the initial state), so the move list groups an action with
    the phase it belongs to; ``seat`` that acted; ``action`` as the viewer saw it and
    its ``notation``; ``sentence``, the engine's plain sentence of it in ``locale``
    (``Game.describe`` of that same redacted action, so it says no more than the action
    does); ``view``, the engine's view of the state
    after it. The game is walked once: the frames are taken while the engine validates.
    """
    game = get_game(log.get("game"))
    if game is None:
        raise IllegalAction("LOG-GAME", f"unknown game {log.get('game')!r}")
    viewers = viewer_ids(game, log)
    if viewer not in viewers:
        raise UnknownViewer(f"unknown perspective {viewer!r}; this match has {', '.join(viewers)}")
    engine_viewer = None if viewer == ALL else viewer

    frames: list[dict[str, Any]] = []
    options = game.normalize_options(log.get("options") or {})
    table = Table({e["seat"]: e["player"] for e in log["seats"]}, options)

    def observe(ply: int, action: dict[str, Any] | None, state: Any) -> None:
        view = game.view(state, engine_viewer)
        acted_in = frames[-1]["view"] if frames else view
        shown = None if action is None else game.action_view(state, action, engine_viewer)
        message = None if shown is None else game.describe(shown, table)
        frames.append(
            {
                "ply": ply,
                "round": acted_in.get("round"),
                "phase": acted_in.get("phase"),
                "seat": None if shown is None else shown.get("seat"),
                "action": shown,
                "notation": None if shown is None else game.notation(shown),
                "sentence": None if message is None else render(message, locale),
                "view": view,
            }
        )

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
        "game_name": game.name,
        # which board drawing the page loads (static/js/replay/boards/<renderer>.js)
        "renderer": game.renderer,
        "rules_version": game.rules_version,
        "viewer": viewer,
        "viewers": [{"id": v, "label": viewer_label(v, rep.players)} for v in viewers],
        "seats": [{"seat": e["seat"], "player": e["player"]} for e in log["seats"]],
        "options": rep.options,
        "static": game.static_view(rep.options),
        "legend": [{"mark": entry["mark"], "text": render(entry["text"], locale)}
                   for entry in game.legend(rep.options)],
        # Each phase the frames name, as players call it.
        "phases": {phase: render(game.phase_label(phase), locale)
                   for phase in dict.fromkeys(f["phase"] for f in frames if f["phase"])},
        # No result here: it reaches a seat in the last frame's view, when the seat
        # learns it, not from the first frame on.
        "status": "rejected" if error is not None else rep.status,
        # A rejection's sentence may name hidden facts ("a detective is on 87"), so
        # only the all-seeing perspective gets it.
        "error": None if error is None or viewer != ALL else {**error.as_dict(), "text": str(error)},
        "frames": frames,
    }
