"""Mister X boards as data (MX-1.1, MX-1.1a, MX-1.2): load, validate, summarise.

A board is a JSON document, the same whether shipped in ``boards/`` or inline in
a log's ``options.board``. :func:`load_board` turns it into an immutable
:class:`Board` with the adjacency the rules need, or raises :class:`BoardError`
(an :class:`~engine.core.errors.IllegalAction` citing ``MX-1.2``) naming the
first thing wrong with it.
"""

from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.core.envelope import canonical_json
from engine.core.errors import IllegalAction
from engine.core.messages import Message, msg

TRANSPORTS = ("car", "train", "plane")
MRX_ICONS = ("double", "secret")
DETECTIVE_ICONS = ("investigate", "siren")
ICONS = MRX_ICONS + DETECTIVE_ICONS
MISSION_COLOURS = ("green", "yellow", "orange")
TICKET_TOTAL = 120  # MX-1.3
START_CARD_COUNT = 15  # MX-1.1
PAWN_COUNT = 5  # MX-1.4

BOARDS_DIR = Path(__file__).parent / "boards"


class BoardError(IllegalAction):
    """A board document that is not a valid board (MX-1.2)."""

    def __init__(self, message: Message):
        super().__init__("MX-1.2", msg("mx.refuse.board.bad", problem=message))


@dataclass(frozen=True)
class City:
    id: int
    name: str
    country: str
    lat: float
    lon: float
    x: float
    y: float
    #: the city's name in other languages (``{"ja": "モスクワ", "ru": "Москва"}``): from the
    #: board document's ``names``, or for a shipped board from ``boards/names/``
    names: dict[str, str] = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True)
class Mission:
    starts: tuple[int, ...]
    destinations: frozenset[int]


@dataclass(frozen=True, eq=False)
class Board:
    """A validated board. Never mutated after loading; games share one instance."""

    id: str
    version: int
    name: str
    cities: dict[int, City]
    connections: tuple[tuple[int, int, str], ...]
    missions: dict[str, Mission]
    start_cards: tuple[int, ...]
    #: ``"car/double"`` -> count, in the document's order
    tickets: dict[str, int]
    pawns: tuple[str, ...]
    document: dict[str, Any] = field(repr=False)
    #: city -> transport -> sorted neighbours along that transport
    by_transport: dict[int, dict[str, tuple[int, ...]]] = field(repr=False, default_factory=dict)
    #: city -> sorted neighbours along any transport
    neighbours: dict[int, tuple[int, ...]] = field(repr=False, default_factory=dict)
    #: every action the board allows, each built once when first listed (the rules'
    #: ``Listing``, made on first use; not part of the board's data)
    listing: Any = field(repr=False, default=None, compare=False)

    @property
    def key(self) -> str:
        """``europe/1``: how a log names a shipped board."""
        return f"{self.id}/{self.version}"

    def transports_at(self, city: int) -> tuple[str, ...]:
        """The transports serving ``city`` (MX-1.1)."""
        return tuple(t for t in TRANSPORTS if self.by_transport[city].get(t))

    def distances_from(self, source: int) -> dict[int, int]:
        """Fewest moves (any transport) from ``source`` to every reachable city."""
        dist = {source: 0}
        queue = deque([source])
        while queue:
            city = queue.popleft()
            for nxt in self.neighbours[city]:
                if nxt not in dist:
                    dist[nxt] = dist[city] + 1
                    queue.append(nxt)
        return dist


def ticket_name(transport: str, icon: str) -> str:
    return f"{transport}/{icon}"


def _need(condition: bool, message: Message) -> None:
    if not condition:
        raise BoardError(message)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _read_cities(doc: dict[str, Any]) -> dict[int, City]:
    raw: Any = doc.get("cities")  # JSON of any shape, checked below
    _need(isinstance(raw, list) and bool(raw), msg("mx.refuse.board.cities_non_empty_list"))
    cities: dict[int, City] = {}
    for i, entry in enumerate(raw):
        _need(isinstance(entry, dict), msg("mx.refuse.board.city_entry_object", i=i))
        cid = entry.get("id")
        _need(_is_int(cid) and cid > 0, msg("mx.refuse.board.city_entry_id_positive_whole", i=i))
        _need(cid not in cities, msg("mx.refuse.board.city_listed_twice", cid=str(cid)))
        name = entry.get("name")
        _need(
            isinstance(name, str) and bool(name.strip()),
            msg("mx.refuse.board.city_name_non_empty_string", cid=str(cid)),
        )
        for key in ("x", "y"):
            _need(
                _is_number(entry.get(key)),
                msg("mx.refuse.board.city_number", cid=str(cid), key=repr(key)),
            )
        for key in ("lat", "lon"):
            _need(
                entry.get(key) is None or _is_number(entry.get(key)),
                msg("mx.refuse.board.city_number_when_given", cid=str(cid), key=repr(key)),
            )
        country = entry.get("country", "")
        _need(isinstance(country, str), msg("mx.refuse.board.city_country_string", cid=str(cid)))
        names = entry.get("names", {})
        _need(
            isinstance(names, dict)
            and all(
                isinstance(k, str) and isinstance(v, str) and v.strip() for k, v in names.items()
            ),
            msg("mx.refuse.board.city_names_map_languages_non", cid=str(cid)),
        )
        cities[cid] = City(
            cid,
            name,
            country,
            entry.get("lat"),
            entry.get("lon"),
            entry["x"],
            entry["y"],
            dict(names),
        )
    return cities


def _read_connections(
    doc: dict[str, Any], cities: dict[int, City]
) -> tuple[tuple[int, int, str], ...]:
    raw: Any = doc.get("connections")  # JSON of any shape, checked below
    _need(isinstance(raw, list) and bool(raw), msg("mx.refuse.board.connections_non_empty_list"))
    seen: set[tuple[int, int, str]] = set()
    out = []
    for i, entry in enumerate(raw):
        _need(
            isinstance(entry, list) and len(entry) == 3,
            msg("mx.refuse.board.connection_city_city_transport", i=i),
        )
        a, b, transport = entry
        _need(
            _is_int(a) and _is_int(b), msg("mx.refuse.board.connection_cities_whole_numbers", i=i)
        )
        _need(
            transport in TRANSPORTS,
            msg(
                "mx.refuse.board.connection_transport_one",
                i=i,
                transports=", ".join(TRANSPORTS),
                transport=repr(transport),
            ),
        )
        for c in (a, b):
            _need(
                c in cities,
                msg(
                    "mx.refuse.board.connection_names_unknown_city",
                    i=i,
                    a=str(a),
                    b=str(b),
                    transport=transport,
                    c=str(c),
                ),
            )
        _need(
            a != b,
            msg(
                "mx.refuse.board.connection_self_loop", i=i, a=str(a), b=str(b), transport=transport
            ),
        )
        key = (min(a, b), max(a, b), transport)
        _need(
            key not in seen,
            msg(
                "mx.refuse.board.connection_duplicates",
                i=i,
                key=str(key[0]),
                key2=str(key[1]),
                transport=transport,
            ),
        )
        seen.add(key)
        out.append(key)
    return tuple(out)


def _read_missions(doc: dict[str, Any], cities: dict[int, City]) -> dict[str, Mission]:
    raw: Any = doc.get("missions")  # JSON of any shape, checked below
    _need(isinstance(raw, dict), msg("mx.refuse.board.missions_object"))
    _need(
        sorted(raw) == sorted(MISSION_COLOURS),
        msg(
            "mx.refuse.board.missions_have_exactly_colours",
            mission_colours=", ".join(MISSION_COLOURS),
        ),
    )
    missions = {}
    for colour in MISSION_COLOURS:
        entry = raw[colour]
        _need(isinstance(entry, dict), msg("mx.refuse.board.mission_object", colour=colour))
        parts = {}
        for key in ("starts", "destinations"):
            values = entry.get(key)
            _need(
                isinstance(values, list) and bool(values),
                msg("mx.refuse.board.mission_non_empty_list_cities", colour=colour, key=repr(key)),
            )
            for c in values:
                _need(
                    _is_int(c) and c in cities,
                    msg(
                        "mx.refuse.board.mission_names_unknown_city",
                        colour=colour,
                        key=key,
                        c=repr(c),
                    ),
                )
            _need(
                len(set(values)) == len(values),
                msg("mx.refuse.board.mission_lists_city_twice", colour=colour, key=key),
            )
            parts[key] = values
        both = set(parts["starts"]) & set(parts["destinations"])
        _need(
            not both,
            msg(
                "mx.refuse.board.mission_city_both_start_destination",
                colour=colour,
                value=str(min(both) if both else ""),
            ),
        )
        missions[colour] = Mission(tuple(parts["starts"]), frozenset(parts["destinations"]))
    return missions


def _read_tickets(doc: dict[str, Any]) -> dict[str, int]:
    raw: Any = doc.get("tickets")  # JSON of any shape, checked below
    _need(isinstance(raw, list) and bool(raw), msg("mx.refuse.board.tickets_non_empty_list"))
    mix: dict[str, int] = {}
    for i, entry in enumerate(raw):
        _need(isinstance(entry, dict), msg("mx.refuse.board.ticket_entry_object", i=i))
        transport, icon, count = entry.get("transport"), entry.get("icon"), entry.get("count")
        _need(
            transport in TRANSPORTS,
            msg("mx.refuse.board.ticket_entry_unknown_transport", i=i, transport=repr(transport)),
        )
        _need(
            icon in ICONS,
            msg(
                "mx.refuse.board.ticket_entry_unknown_icon_icons",
                i=i,
                icon=repr(icon),
                icons=", ".join(ICONS),
            ),
        )
        _need(
            _is_int(count) and count >= 0,
            msg("mx.refuse.board.ticket_entry_count_whole_number", i=i),
        )
        name = ticket_name(transport, icon)
        _need(
            name not in mix, msg("mx.refuse.board.ticket_entry_listed_twice", i=i, name=str(name))
        )
        mix[name] = count
    total = sum(mix.values())
    _need(
        total == TICKET_TOTAL,
        msg("mx.refuse.board.ticket_counts_add_up_mx", total=total, ticket_total=str(TICKET_TOTAL)),
    )
    return mix


def load_board(doc: Any) -> Board:
    """Validate a board document and build its :class:`Board`; BoardError when invalid."""
    _need(isinstance(doc, dict), msg("mx.refuse.board.board_json_object"))
    bid, version, name = doc.get("id"), doc.get("version"), doc.get("name")
    _need(
        isinstance(bid, str) and bool(bid) and "/" not in bid,
        msg("mx.refuse.board.id_non_empty_string_without"),
    )
    _need(_is_int(version) and version >= 1, msg("mx.refuse.board.version_whole_number"))
    _need(
        isinstance(name, str) and bool(name.strip()), msg("mx.refuse.board.name_non_empty_string")
    )
    cities = _read_cities(doc)
    connections = _read_connections(doc, cities)
    missions = _read_missions(doc, cities)

    cards = doc.get("start_cards")
    _need(isinstance(cards, list), msg("mx.refuse.board.start_cards_list_cities"))
    _need(
        len(cards) == START_CARD_COUNT,
        msg(
            "mx.refuse.board.there_start_cards",
            start_card_count=str(START_CARD_COUNT),
            n_cards=len(cards),
        ),
    )
    mission_cities = {c for m in missions.values() for c in (*m.starts, *m.destinations)}
    for c in cards:
        _need(
            _is_int(c) and c in cities,
            msg("mx.refuse.board.start_card_names_unknown_city", c=repr(c)),
        )
        _need(c not in mission_cities, msg("mx.refuse.board.start_card_mission_city", c=str(c)))
    _need(len(set(cards)) == len(cards), msg("mx.refuse.board.start_card_city_listed_twice"))

    tickets = _read_tickets(doc)

    pawns = doc.get("pawns")
    _need(
        isinstance(pawns, list)
        and len(pawns) == PAWN_COUNT
        and all(isinstance(p, str) and p for p in pawns)
        and len(set(pawns)) == PAWN_COUNT,
        msg("mx.refuse.board.pawns_list_distinct_pawn_names", pawn_count=str(PAWN_COUNT)),
    )

    by_transport: dict[int, dict[str, list[int]]] = {c: {} for c in cities}
    for a, b, t in connections:
        by_transport[a].setdefault(t, []).append(b)
        by_transport[b].setdefault(t, []).append(a)
    frozen = {c: {t: tuple(sorted(v)) for t, v in per.items()} for c, per in by_transport.items()}
    neighbours = {
        c: tuple(sorted({n for v in per.values() for n in v})) for c, per in frozen.items()
    }

    board = Board(
        bid,
        version,
        name,
        cities,
        connections,
        missions,
        tuple(cards),
        tickets,
        tuple(pawns),
        doc,
        frozen,
        neighbours,
    )
    for colour, mission in missions.items():
        for start in mission.starts:
            reach = board.distances_from(start)
            missing = sorted(d for d in mission.destinations if d not in reach)
            _need(
                not missing,
                msg(
                    "mx.refuse.board.mission_destination_unreachable_from_start",
                    colour=colour,
                    value=str(missing[0] if missing else ""),
                    start=str(start),
                ),
            )
    return board


# --- finding boards ----------------------------------------------------------------
_SHIPPED: dict[str, Board] = {}
_INLINE: dict[str, Board] = {}
_INLINE_MAX = 32


def shipped_board_names() -> list[str]:
    """``europe/1`` for every ``boards/europe-1.json``."""
    names = []
    for path in sorted(BOARDS_DIR.glob("*-*.json")):
        stem, _, version = path.stem.rpartition("-")
        if version.isdigit():
            names.append(f"{stem}/{version}")
    return names


def shipped_board(key: str) -> Board:
    """The shipped board ``id/version`` (loaded once); BoardError when there is none."""
    board = _SHIPPED.get(key)
    if board is None:
        bid, _, version = key.partition("/")
        path = BOARDS_DIR / f"{bid}-{version}.json"
        if not (bid and version.isdigit() and "/" not in version and path.is_file()):
            raise BoardError(
                msg(
                    "mx.refuse.board.no_shipped_board_shipped",
                    key=repr(key),
                    shipped_board_names=", ".join(shipped_board_names()),
                )
            )
        board = load_board(json.loads(path.read_text(encoding="utf-8")))
        _need(
            board.key == key,
            msg("mx.refuse.board.holds_board", name=str(path.name), key=str(board.key), key2=key),
        )
        _add_names(board, BOARDS_DIR / "names" / path.name)
        _SHIPPED[key] = board
    return board


def _add_names(board: Board, path: Path) -> None:
    """A shipped board's city names in other languages (``boards/names/<board>.json``,
    built by ``boards/build_names.py``): kept beside the board so the published board
    file never changes."""
    if not path.is_file():
        return
    document = json.loads(path.read_text(encoding="utf-8"))
    _need(
        document.get("board") == board.key,
        msg("mx.refuse.board.names_cities", name=str(path.name), board=str(document.get("board"))),
    )
    for cid, names in document["names"].items():
        board.cities[int(cid)].names.update(names)


def resolve_board(spec: Any) -> Board:
    """A log's ``options.board``: a shipped board's ``id/version`` or an inline document.

    Inline boards are cached by their canonical text, so replaying many logs on
    one club board validates it once.
    """
    if isinstance(spec, str):
        return shipped_board(spec)
    if not isinstance(spec, dict):
        raise BoardError(msg("mx.refuse.board.options_board_board_name_such"))
    text = canonical_json(spec)
    board = _INLINE.get(text)
    if board is None:
        board = load_board(spec)
        if len(_INLINE) >= _INLINE_MAX:
            _INLINE.pop(next(iter(_INLINE)))
        _INLINE[text] = board
    return board


def load_board_file(path: str | Path) -> Board:
    """A board from a file, or a shipped board's name (``europe/1``)."""
    p = Path(path)
    if not p.exists() and "/" in str(path) and not str(path).endswith(".json"):
        return shipped_board(str(path))
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise BoardError(
            msg("mx.refuse.board.cannot_read", path=str(path), strerror=str(exc.strerror))
        ) from None
    except UnicodeDecodeError:
        raise BoardError(msg("mx.refuse.board.valid_json_utf8", path=str(path))) from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:  # where, in numbers: the parser's own words are English
        raise BoardError(
            msg("mx.refuse.board.valid_json_at", path=str(path), line=exc.lineno, column=exc.colno)
        ) from None
    except RecursionError:
        raise BoardError(msg("mx.refuse.board.valid_json_deep", path=str(path))) from None
    return load_board(doc)


# --- summary -------------------------------------------------------------------------
def board_summary(board: Board) -> str:
    """What ``python -m engine board show`` prints: sizes, degrees, mission distances."""
    lines = [
        f"{board.name} ({board.key}): {len(board.cities)} cities, "
        f"{len(board.connections)} connections"
    ]
    for t in TRANSPORTS:
        served = sum(1 for c in board.cities if board.by_transport[c].get(t))
        edges = sum(1 for _a, _b, tt in board.connections if tt == t)
        lines.append(f"  {t:6} {edges:4} connections, serves {served} cities")
    degrees = sorted(len(board.neighbours[c]) for c in board.cities)
    mean = sum(degrees) / len(degrees)
    lines.append(
        f"  neighbours per city: min {degrees[0]}, median {degrees[len(degrees) // 2]}, "
        f"mean {mean:.2f}, max {degrees[-1]}"
    )
    isolated = [c for c in board.cities if not board.neighbours[c]]
    if isolated:
        lines.append(f"  cities without connections: {isolated}")
    lines.append("  missions (fewest moves from each start to its nearest destination):")
    for colour, mission in board.missions.items():
        dests = ", ".join(f"{d} {board.cities[d].name}" for d in sorted(mission.destinations))
        lines.append(f"    {colour}: destinations {dests}")
        for start in mission.starts:
            dist = board.distances_from(start)
            nearest = min(mission.destinations, key=lambda d: (dist[d], d))
            lines.append(
                f"      start {start:3} {board.cities[start].name:20} -> "
                f"{nearest} in {dist[nearest]} moves"
            )
    cards = ", ".join(f"{c} {board.cities[c].name}" for c in board.start_cards)
    lines.append(f"  start cards: {cards}")
    mix = ", ".join(f"{name} {n}" for name, n in board.tickets.items())
    lines.append(f"  tickets ({sum(board.tickets.values())}): {mix}")
    lines.append(f"  pawns: {', '.join(board.pawns)}")
    return "\n".join(lines)
