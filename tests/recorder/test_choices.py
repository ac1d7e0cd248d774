"""Choosing among many actions field by field (recorder.choices), and big draws chosen
item by item without listing them (choose_draw agrees with choose over the full list)."""

from __future__ import annotations

import random

import pytest

from engine.games.cryptid.legal import relocations
from engine.games.misterx.state import add_all, rack_list, sub_multisets
from recorder.choices import (
    LIST_LIMIT,
    MAX_VALUES,
    BadPrefix,
    choose,
    choose_draw,
    choose_spread,
    matching,
    read_path,
)

RELOCATIONS = [
    {"seat": "cryptid", "type": "relocate", "to": to} for to in relocations([2, 2, 1], 6)
]


def test_a_huge_nested_list_is_narrowed_space_by_space():
    rng = random.Random(5)
    for _ in range(20):
        prefix: dict = {}
        while True:
            step = choose(RELOCATIONS, prefix)
            left = matching(RELOCATIONS, step.prefix)
            assert step.total == len(left)
            if step.field is None:
                assert 0 < len(step.actions) <= LIST_LIMIT and step.actions == left
                break
            assert step.field.startswith("to/") and 1 < len(step.values) <= MAX_VALUES
            assert sum(v["count"] for v in step.values) == step.total
            for value in step.values:  # each count is what that choice leaves
                assert value["count"] == len(matching(left, {step.field: value["value"]}))
            prefix = {**step.prefix, step.field: rng.choice(step.values)["value"]}


def test_a_short_list_is_listed_at_once_and_single_values_are_fixed():
    actions = [{"seat": "p1", "type": "examine", "envelope": n} for n in range(1, 6)]
    step = choose(actions)
    assert step.field is None and step.actions == actions
    assert choose(actions, {"envelope": 3}).actions == [actions[2]]
    step = choose(RELOCATIONS)
    assert step.prefix["seat"] == "cryptid" and step.prefix["type"] == "relocate"


def test_a_prefix_must_be_an_object_of_paths():
    with pytest.raises(BadPrefix):
        choose(RELOCATIONS, ["to/0"])
    for path in ("", "to\x00"):  # no field is named so; a NUL could not even be shown back
        with pytest.raises(BadPrefix):
            choose(RELOCATIONS, {path: 1})
    assert read_path({"to": {"0": {"red": 1}}}, "to/0/red") == 1
    assert read_path({"tickets": ["a", "b"]}, "tickets/5") is None


@pytest.mark.parametrize("seed", range(6))
def test_a_draw_is_chosen_item_by_item_as_the_full_list_would_be(seed):
    rng = random.Random(seed)
    kinds = ["car/double", "car/secret", "plane/double", "train/double", "train/siren"]
    for _ in range(40):
        pile = {k: rng.randint(0, 5) for k in rng.sample(kinds, rng.randint(1, 5))}
        pile = {k: n for k, n in pile.items() if n}
        if not pile:
            continue
        taken = {k: 1 for k in rng.sample(kinds, rng.randint(0, 2))}
        count = rng.randint(0, min(sum(pile.values()), 8))
        action = {"seat": "det1", "type": "refill"}
        every = []
        for rest in sub_multisets(pile, size=count):
            drawn = dict(taken)
            add_all(drawn, rest)
            every.append({**action, "tickets": rack_list(drawn)})
        prefix: dict = {}
        while True:
            full, drawn_step = (
                choose(every, prefix),
                choose_draw(action, "tickets", taken, pile, count, prefix),
            )
            assert (drawn_step.total, drawn_step.field) == (full.total, full.field)
            assert drawn_step.prefix == full.prefix
            if full.field is None:
                assert sorted(map(str, drawn_step.actions)) == sorted(map(str, full.actions))
                break
            assert sorted(map(str, drawn_step.values)) == sorted(map(str, full.values))
            prefix = {**full.prefix, full.field: rng.choice(full.values)["value"]}


def test_a_draw_too_big_to_list_answers_at_once():
    twelve_kinds = {f"kind{n:02d}": 10 for n in range(12)}
    step = choose_draw({"seat": "det1", "type": "refill"}, "tickets", {}, twelve_kinds, 9)
    assert step.total == 167960 and step.field == "tickets/0" and len(step.values) == 12
    assert (
        choose_draw(
            {"seat": "det1", "type": "refill"},
            "tickets",
            {},
            twelve_kinds,
            9,
            {"tickets/0": "nope"},
        ).total
        == 0
    )


@pytest.mark.parametrize(
    ("displaced", "spaces"),
    [
        ([1, 0, 1], 3),
        ([2, 2, 1], 4),
        ([2, 2, 1], 6),
        ([3, 0, 2], 5),
        ([2, 1, 0], 2),
        ([1, 0, 0], 1),
    ],
)
def test_a_relocation_is_chosen_space_by_space_as_the_full_list_would_be(displaced, spaces):
    rng = random.Random(sum(displaced) * 10 + spaces)
    every = [
        {"seat": "cryptid", "type": "relocate", "to": to} for to in relocations(displaced, spaces)
    ]
    items = {color: n for color, n in zip(("red", "white", "black"), displaced, strict=True) if n}
    base = {"seat": "cryptid", "type": "relocate"}
    for _ in range(10):
        prefix: dict = {}
        while True:
            full, spread = choose(every, prefix), choose_spread(base, "to", items, spaces, prefix)
            assert (spread.total, spread.field, spread.prefix) == (
                full.total,
                full.field,
                full.prefix,
            )
            if full.field is None:
                assert sorted(map(_canonical, spread.actions)) == sorted(
                    map(_canonical, full.actions)
                )
                break
            assert sorted(map(_canonical, spread.values)) == sorted(map(_canonical, full.values))
            prefix = {**full.prefix, full.field: rng.choice(full.values)["value"]}


def _canonical(value) -> str:
    import json

    return json.dumps(value, sort_keys=True)


def test_a_relocation_too_big_to_list_answers_at_once():
    step = choose_spread(
        {"seat": "cryptid", "type": "relocate"}, "to", {"red": 2, "white": 2, "black": 1}, 8
    )
    assert step.total == len(relocations([2, 2, 1], 8)) == 10368
    assert step.field == "to/0" and len(step.values) == 18
    assert sum(v["count"] for v in step.values) == step.total
    too_many = {"to/0": {"red": 3}}
    assert (
        choose_spread({"seat": "cryptid", "type": "relocate"}, "to", {"red": 2}, 8, too_many).total
        == 0
    )
