"""The frames of a replay, as the viewer page and the API serve them. No Django here.

A payload is everything the page needs for one perspective: the seats, the
perspectives one may switch to, and one frame per ply — the setup (ply 0) and
the state after each action, each exactly as the engine shows it to that
viewer (``Game.view`` and ``Game.action_view``). Nothing else about the game
goes into a seat's payload, so the page cannot leak what the engine hides.
"""

from __future__ import annotations

from typing import Any

from engine import IllegalAction, Replay, replay

#: The all-seeing perspective's name in URLs and payloads (the engine calls it None).
ALL = "all"

#: Bumped whenever the payload's shape changes, so cached payloads of the old shape
#: are never served again.
PAYLOAD_VERSION = 1


class UnknownViewer(ValueError):
    """A perspective that is neither ``all`` nor a seat or team of this match."""


def open_replay(log: dict[str, Any]) -> tuple[Replay, IllegalAction | None]:
    """The replay of ``log``; for a log rejected after a valid setup, the replay of its
    valid part and the rejection. A log whose setup is invalid raises IllegalAction."""
    try:
        return replay(log), None
    except IllegalAction as exc:
        if exc.partial is None:
            raise
        return exc.partial, exc


def viewer_ids(rep: Replay) -> list[str]:
    """Every perspective of this match: ``all``, each seat, then each team."""
    return [ALL, *rep.game.viewers(rep.options, rep.seats)]


def viewer_label(viewer: str, players: dict[str, str]) -> str:
    """``All-seeing``, ``mrx (alice)``, or ``detectives (team)`` for a viewer that is no seat."""
    if viewer == ALL:
        return "All-seeing"
    player = players.get(viewer)
    return f"{viewer} ({player})" if player else f"{viewer} (team)"


def build_frames(log: dict[str, Any], viewer: str, match_id: int | None = None) -> dict[str, Any]:
    """The payload of ``log`` seen by ``viewer`` (``all`` or a seat or team id).

    Each frame: ``ply``; ``round`` and ``phase`` in which its action was taken (the
    setup frame: those of the initial state), so the move list groups an action with
    the phase it belongs to; ``seat`` that acted; ``action`` as the viewer saw it and
    its ``notation``; ``view``, the engine's view of the state after it.
    """
    rep, error = open_replay(log)
    viewers = viewer_ids(rep)
    if viewer not in viewers:
        raise UnknownViewer(f"unknown perspective {viewer!r}; this match has {', '.join(viewers)}")
    engine_viewer = None if viewer == ALL else viewer

    frames: list[dict[str, Any]] = []
    before: dict[str, Any] | None = None
    for frame in rep.frames(engine_viewer):
        view = frame["view"]
        acted_in = before if before is not None else view
        action = frame["action"]
        frames.append(
            {
                "ply": frame["ply"],
                "round": acted_in.get("round"),
                "phase": acted_in.get("phase"),
                "seat": None if action is None else action.get("seat"),
                "action": action,
                "notation": frame["notation"],
                "view": view,
            }
        )
        before = view

    return {
        "version": PAYLOAD_VERSION,
        "match": match_id,
        "game": rep.game.id,
        "game_name": rep.game.name,
        "rules_version": rep.game.rules_version,
        "viewer": viewer,
        "viewers": [{"id": v, "label": viewer_label(v, rep.players)} for v in viewers],
        "seats": [{"seat": e["seat"], "player": e["player"]} for e in log["seats"]],
        "options": rep.options,
        "static": rep.game.static_view(rep.options),
        # No result here: it reaches a seat in the last frame's view, when the seat
        # learns it, not from the first frame on.
        "status": rep.status if error is None else "rejected",
        # A rejection's sentence may name hidden facts ("a detective is on 87"), so
        # only the all-seeing perspective gets it.
        "error": None
        if error is None or viewer != ALL
        else {**error.as_dict(), "text": str(error)},
        "frames": frames,
    }
