"""Bots for ``python -m engine play --game mister-x`` and the property tests.

``random``: a uniformly random legal action (kind first, then the instance).
``greedy``: Mister X heads for the nearest destination of his mission and keeps
away from the pawns, spending double and secret moves when they help; the
detectives close in on the cities Mister X could be in (:mod:`.knowledge`),
investigate when that set is wide and use a siren when it can land on it.

Each bot decides only from what its seat knows: Mister X bots read the board,
pawns and his own rack; detective bots read the public record (through
:func:`~engine.games.misterx.knowledge.possible_positions`), the pawns and their
own seat's rack (the team bot: every detective rack, as the team view shows).
"""

from __future__ import annotations

from typing import Any

from engine.ai.contract import Bot
from engine.ai.search import Playout, search_bot
from engine.core.rng import Rng
from engine.games.misterx import legal
from engine.games.misterx.board import Board
from engine.games.misterx.knowledge import board_masks, distances, possible_positions
from engine.games.misterx.state import (
    MRX,
    PH_MRX,
    PH_PAWNS,
    TEAM,
    MisterXState,
    icon_of,
    rack_list,
    rack_of,
    rack_size,
    remove_all,
    remove_one,
)

FAR = 99


# --- random --------------------------------------------------------------------------
def random_bot(game: Any, state: MisterXState, seat: str, rng: Rng) -> dict[str, Any]:
    if seat == TEAM and rng.below(2):
        seat = legal.to_act(state)[-1]  # decline the special action: the next refiller acts
    actions = legal.legal_actions(state, seat)
    if not actions:
        seat = legal.to_act(state)[-1]
        actions = legal.legal_actions(state, seat)
    kinds = sorted({a["type"] for a in actions})
    kind = kinds[rng.below(len(kinds))]
    return rng.choice([a for a in actions if a["type"] == kind])


# --- greedy: Mister X ------------------------------------------------------------------
def _mrx_cost(state: MisterXState, dist: dict[int, dict[int, int]], city: int) -> tuple[int, int]:
    """Lower is better: (danger, moves to the nearest destination). A city counts one
    level more dangerous for every three visits already paid to it, so a Mister X
    hemmed in does not shuttle between two safe cities forever."""
    to_dest = min(dist[city].get(d, FAR) for d in state.destinations)
    nearest_pawn = min(dist[p].get(city, FAR) for p in state.pawn_pos.values())
    danger = 2 if nearest_pawn <= 1 else (1 if nearest_pawn == 2 else 0)
    return danger + state.path.count(city) // 3, to_dest


def _greedy_mrx(state: MisterXState, rng: Rng) -> dict[str, Any]:
    dist = distances(state.board)
    rack = state.racks[MRX]
    singles = legal.mrx_steps(state, state.position, rack)
    for ticket, to in singles:
        if to in state.destinations:
            return {"seat": MRX, "type": "move", "ticket": ticket, "to": to}
    doubles = {t: n for t, n in rack.items() if icon_of(t) == "double"}
    secrets = {t: n for t, n in rack.items() if icon_of(t) == "secret"}
    best_single = min(
        ((_mrx_cost(state, dist, to), ticket, to) for ticket, to in singles), default=None
    )
    if rack_size(doubles) >= 3 and (best_single is None or best_single[0][0] >= 1):
        pay = rack_list(doubles)[:3]
        left = dict(rack)
        remove_all(left, rack_of(pay))
        best = None
        for t1, to1 in legal.mrx_steps(state, state.position, left):
            if to1 in state.destinations:
                return {
                    "seat": MRX,
                    "type": "double",
                    "pay": pay,
                    "moves": [{"ticket": t1, "to": to1}],
                }
            after = dict(left)
            remove_one(after, t1)
            for t2, to2 in legal.mrx_steps(state, to1, after):
                cost = (0, -1) if to2 in state.destinations else _mrx_cost(state, dist, to2)
                if best is None or cost < best[0]:
                    best = (cost, t1, to1, t2, to2)
        if best is not None and (best_single is None or best[0] < best_single[0]):
            _, t1, to1, t2, to2 = best
            return {
                "seat": MRX,
                "type": "double",
                "pay": pay,
                "moves": [{"ticket": t1, "to": to1}, {"ticket": t2, "to": to2}],
            }
    if rack_size(secrets) >= 3 and rack_size(rack) >= 4:
        free = [c for c in state.board.neighbours[state.position] if c not in state.occupied]
        best_secret = min(((_mrx_cost(state, dist, c), c) for c in free), default=None)
        if best_secret is not None and (best_single is None or best_secret[0] <= best_single[0]):
            pay = rack_list(secrets)[:3]
            left = dict(rack)
            remove_all(left, rack_of(pay))
            face_down = max(sorted(left), key=lambda t: left[t])  # the most plentiful kind
            return {
                "seat": MRX,
                "type": "secret",
                "pay": pay,
                "ticket": face_down,
                "to": best_secret[1],
            }
    if best_single is not None:
        _, ticket, to = best_single
        return {"seat": MRX, "type": "move", "ticket": ticket, "to": to}
    return {"seat": MRX, "type": "pass"}


# --- greedy: detectives --------------------------------------------------------------
def _ticket_keep_value(ticket: str) -> int:
    """Detectives spend first the tickets whose icon only Mister X can use."""
    return 1 if icon_of(ticket) in ("investigate", "siren") else 0


def moves_to_nearest(board: Board, targets: frozenset[int], cities: set[int]) -> dict[int, int]:
    """Each of ``cities`` -> fewest moves (any transport) to the nearest of ``targets``
    (cities that cannot reach them left out): the targets' set grown one move at a time,
    as bit masks (:mod:`.knowledge`), until every city asked for is in it."""
    masks = board_masks(board)
    reach = masks.mask(targets)
    out: dict[int, int] = {}
    pending = set(cities)
    moves = 0
    while True:
        for city in [c for c in pending if reach & masks.bit[c]]:
            out[city] = moves
            pending.discard(city)
        if not pending:
            return out
        grown = reach | masks.step(reach, None)
        if grown == reach:
            return out
        reach, moves = grown, moves + 1


def _greedy_pawn(state: MisterXState, seat: str, rng: Rng) -> dict[str, Any]:
    targets = possible_positions(state) or frozenset(state.destinations)
    rack = state.racks[seat]
    best = None
    for pawn in state.pawns_of[seat]:
        if pawn in state.moved:
            continue
        moves = legal.pawn_moves(state, pawn, rack)
        if not moves:
            return {"seat": seat, "type": "stay", "pawn": pawn}
        near = moves_to_nearest(state.board, targets, {to for _, to in moves})
        for ticket, to in moves:
            d = near.get(to, FAR)
            key = (d, _ticket_keep_value(ticket), rng.below(1000))
            if best is None or key < best[0]:
                best = (key, pawn, ticket, to)
        break  # one pawn at a time, in the seat's order
    assert best is not None
    _, pawn, ticket, to = best
    return {"seat": seat, "type": "move", "pawn": pawn, "ticket": ticket, "to": to}


def _greedy_special(state: MisterXState, rng: Rng) -> dict[str, Any] | None:
    targets = possible_positions(state)
    options = legal.legal_actions(state, TEAM)
    if not options:
        return None
    sirens = [a for a in options if a["type"] == "siren" and a["to"] in targets]
    if sirens and len(targets) <= 4:
        return rng.choice(sirens)
    if len(targets) > 6:
        investigations = [a for a in options if a["type"] == "investigate"]
        if investigations:
            most = max(sum(len(v) for v in a["pay"].values()) for a in investigations)
            return rng.choice(
                [a for a in investigations if sum(len(v) for v in a["pay"].values()) == most]
            )
    return None


def greedy_bot(game: Any, state: MisterXState, seat: str, rng: Rng) -> dict[str, Any]:
    if seat == MRX:
        if state.phase == PH_MRX:
            return _greedy_mrx(state, rng)
        return {"seat": MRX, "type": "refill"}
    if seat == TEAM:
        special = _greedy_special(state, rng)
        if special is not None:
            return special
        seat = legal.to_act(state)[-1]
    if state.phase == PH_PAWNS:
        return _greedy_pawn(state, seat, rng)
    return {"seat": seat, "type": "refill"}


# --- search (engine.ai.search) -------------------------------------------------------
#: coalition reduction (Nijssen & Winands 2012): a detective seat is credited 1 for a
#: capture by one of its own pawns and 1 - this for a capture by another seat's
COALITION_REDUCTION = 0.1


def evaluate(game: Any, state: MisterXState, seat: str) -> float:
    """A playout cut short, scored for ``seat``: Mister X's share grows with the pawns'
    distance to him and shrinks with his distance to a destination."""
    dist = distances(state.board)
    x = state.path[-1]
    to_dest = min(dist[x].get(d, FAR) for d in state.destinations)
    to_pawn = min(dist[p].get(x, FAR) for p in state.pawn_pos.values())
    mrx = to_pawn / (to_pawn + to_dest) if to_pawn + to_dest else 0.5
    return mrx if seat == MRX else 1.0 - mrx


def reward(game: Any, state: MisterXState, seat: str, playout: Playout) -> float:
    if state.winner is None:
        return evaluate(game, state, seat)
    if (state.winner == MRX) != (seat == MRX):
        return 0.0
    if seat == MRX or state.reason != "caught":
        return 1.0
    catcher = state.owner[state.occupied[state.path[-1]]]
    return 1.0 if seat in (catcher, TEAM) else 1.0 - COALITION_REDUCTION


def pawn_candidates(
    game: Any, state: MisterXState, actions: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The pawn moves a detective's search tells apart (a move filter): those of the
    seat's next pawn in its order, as greedy moves them, one ticket per city (the one
    greedy would spend: a kind only Mister X can use first). Any other decision's actions
    unchanged. With a budget of tens of iterations, the two or three pawns' moves with every
    ticket that reaches a city (22 on average, up to 79) leave the search no more than one
    playout each; one pawn's cities (about six) leave it a dozen."""
    if state.phase != PH_PAWNS or not actions or actions[0]["seat"] == TEAM:
        return actions
    seat = actions[0]["seat"]
    pawn = next(p for p in state.pawns_of[seat] if p not in state.moved)
    best: dict[int, dict[str, Any]] = {}
    for action in actions:
        if action["pawn"] != pawn:
            continue
        if action["type"] != "move":
            return [action]
        kept = best.get(action["to"])
        if kept is None or (_ticket_keep_value(action["ticket"]), action["ticket"]) < (
            _ticket_keep_value(kept["ticket"]),
            kept["ticket"],
        ):
            best[action["to"]] = action
    return list(best.values())


#: the search level's budget: iterations per decision of a pawn's move (five a round) and
#: of Mister X's move (one a round; measured in bench/README.md), and plies per playout
#: before it is scored by :func:`evaluate` (about four rounds)
SEARCH_PLAYOUTS = 64
MRX_SEARCH_PLAYOUTS = 128
SEARCH_MAX_PLIES = 40


def make_search_level(**options: Any) -> Bot:
    """The ``search`` level with these :class:`~engine.ai.search.Search` options
    (``playouts`` for the pawns, ``mrx_playouts`` for Mister X, ``exploration``, ...) over
    its defaults (the benchmark tunes with it). ``narrow`` and ``paired`` are the pawns'
    only (``narrow=None, paired=False``: every pawn move searched, each over its own worlds)."""
    settings: dict[str, Any] = {
        "playouts": SEARCH_PLAYOUTS,
        "mrx_playouts": MRX_SEARCH_PLAYOUTS,
        "max_plies": SEARCH_MAX_PLIES,
        "evaluate": evaluate,
        "reward": reward,
        **options,
    }
    # the pawns' search only (Mister X's is measured without them): one pawn's cities
    # (pawn_candidates), each played in the same worlds (Search's paired root)
    pawn_only = {
        "narrow": settings.pop("narrow", pawn_candidates),
        "paired": settings.pop("paired", True),
    }
    mrx_search = search_bot(
        settings.pop("mrx_playouts"), **{k: v for k, v in settings.items() if k != "playouts"}
    )
    pawn_search = search_bot(settings.pop("playouts"), **settings, **pawn_only)

    def search_level(game: Any, state: MisterXState, seat: str, rng: Rng) -> dict[str, Any]:
        """Mister X's moves and the pawns' moves by search; the ticket keeping (discards,
        refills, special actions) as ``greedy`` does it."""
        if state.phase == PH_MRX and seat == MRX:
            return mrx_search(game, state, seat, rng)
        if state.phase == PH_PAWNS and seat != TEAM:
            return pawn_search(game, state, seat, rng)
        return greedy_bot(game, state, seat, rng)

    return search_level


search_level = make_search_level()


BOTS: dict[str, Bot] = {"random": random_bot, "greedy": greedy_bot, "search": search_level}
