"""The setup form is built from the engine's ``Game.form_schema`` alone: for every game
and player count, every field has a person's label and is a choice, a counter, a
checkbox or picks — never JSON — and a setup dealt at a real table is entered through
it exactly (every value it needs is offered)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django import forms

from engine import all_games, get_game, play
from recorder.forms import SETUP_PREFIX, DraftSetupForm, collect

GAMES = [
    (game_id, count)
    for game_id, game in sorted(all_games().items())
    for count in game.player_counts(game.normalize_options({}))
]


def setup_form(game_id: str, count: int, chance: str = "table", data: Any = None) -> DraftSetupForm:
    game = get_game(game_id)
    seats = game.seat_ids(game.normalize_options({}), count)
    return DraftSetupForm(
        data,
        game=game,
        seat_ids=seats,
        chance=chance,
        players=[("Other handles", [("alice", "alice"), ("bob", "bob")])],
        setup_choices=[],
    )


@pytest.mark.parametrize(("game_id", "count"), GAMES)
def test_every_field_is_a_choice_with_a_label(game_id, count):
    form = setup_form(game_id, count)
    for name, field in form.fields.items():
        assert not getattr(field, "is_json", False), f"{game_id}: {name} asks for JSON"
        # Said in words, not a path into the log ("hands.cryptid", "sensors_2r2w1b").
        assert field.label and not re.search(r"[a-z][_.][a-z]", field.label), (name, field.label)
        assert isinstance(
            field, forms.ChoiceField | forms.IntegerField | forms.BooleanField | forms.CharField
        )
        if isinstance(field, forms.CharField):
            assert name.startswith("new."), f"{name}: free text is only a new player's handle"
    # Seats as players call them, never their ids.
    seats = [field.label for name, field in form.fields.items() if name.startswith("seat.")]
    assert not set(seats) & set(form.seat_ids)


def form_data(setup: dict[str, Any], prefix: str = SETUP_PREFIX) -> dict[str, str]:
    data: dict[str, str] = {}
    for key, value in setup.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            data.update(form_data(value, f"{name}."))
        elif isinstance(value, list):
            data.update({f"{name}.{i}": json.dumps(item) for i, item in enumerate(value, start=1)})
        else:
            data[name] = json.dumps(value)
    return data


@pytest.mark.parametrize(
    ("game_id", "count"),
    [("cryptid-urban-legends", 2), ("mister-x", 3), ("mister-x", 6), ("cloak-and-dagger", 4)],
)
def test_a_setup_dealt_at_the_table_is_entered_through_the_form(game_id, count):
    log = play(game_id, 7, ["greedy"] * count)
    setup = {
        key: value for key, value in log["setup"].items() if key != "pile"
    }  # entered as it comes out
    form = setup_form(
        game_id,
        count,
        data={**form_data(setup), **{f"seat.{s['seat']}": "alice" for s in log["seats"]}},
    )
    for name, value in form_data(setup).items():
        offered = [choice for choice, _label in form.fields[name].choices]
        assert value in offered, f"{name}: {value} is not offered"
    form.is_valid()
    assert collect(form, form.cleaned_data, SETUP_PREFIX) == setup
