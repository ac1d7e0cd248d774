"""The recorder's setup forms: which game, how chance is dealt, options, setup, seats.

Nothing here is written per game: the player counts, seats and setup choices come from
the drafts API's game catalogue (the engine's ``seat_ids`` and so on), the seats' names
from ``Game.seat_label``, the option and setup fields from ``Game.form_schema`` (what a
person sets up at this table, titled, with labelled choices: a board by name, a city by
name, counters, a list item by item, picks as checkboxes — never JSON for a person; the
JSON stays the API's door), the defaults from ``Game.normalize_options({})`` and the
schema's, and the engine judges the result (the options here, the setup when the draft
is created), so the form refuses exactly what the engine refuses, with the engine's
sentence.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from clubs.bots import bot_choice, weakest_first
from config.sentences import engine_locale, say
from engine import Game, IllegalAction, Table, all_games, bots_of, parse_json_value, render

#: A seat's choice that is a bot, not a player: ``bot:greedy``.
BOT_PREFIX = "bot:"

OPTION_PREFIX = "option."
SETUP_PREFIX = "setup."
SEAT_PREFIX = "seat."
#: An organiser's new handle for a seat (the player is created when the game is stored).
NEW_PREFIX = "new."

#: ``chance`` as the draft API names it.
TABLE = "table"
SERVER = "server"


class GameChoiceForm(forms.Form):
    """Step one (a GET, so the second step's address says what it is for). ``catalogue``:
    the drafts API's game catalogue (``recorder.selectors.game_catalogue``)."""

    game = forms.ChoiceField(label=_("Game"))
    players = forms.IntegerField(
        label=_("Players"),
        required=False,
        min_value=1,
        help_text=_("For games with a choice of player count; left blank, the game's smallest."),
    )
    chance = forms.ChoiceField(
        label=_("Cards, blocks and tickets"),
        choices=[
            (TABLE, _("dealt at the table: I enter what came out")),
            (SERVER, _("dealt by Lantern (needed to play against a bot)")),
        ],
        initial=TABLE,
        widget=forms.RadioSelect,
    )

    def __init__(self, *args: Any, catalogue: list[dict[str, Any]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.catalogue = {entry["id"]: entry for entry in catalogue}
        self.fields["game"].choices = sorted(
            ((e["id"], e["name"]) for e in catalogue), key=lambda c: c[1]
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        entry = self.catalogue.get(data.get("game", ""))
        count = data.get("players")
        if entry is not None and count is not None and count not in entry["player_counts"]:
            counts = entry["player_counts"]
            self.add_error(
                "players",
                gettext("%(game)s is played by %(min)s to %(max)s players.")
                % {"game": entry["name"], "min": counts[0], "max": counts[-1]}
                if len(counts) > 1
                else ngettext(
                    "%(game)s is played by %(count)s player.",
                    "%(game)s is played by %(count)s players.",
                    counts[0],
                )
                % {"game": entry["name"], "count": counts[0]},
            )
        return data

    def chosen(self) -> tuple[Game, dict[str, Any], int, str] | None:
        """The game, its catalogue entry, the player count and the chance mode."""
        if not self.is_valid():
            return None
        entry = self.catalogue[self.cleaned_data["game"]]
        count = self.cleaned_data.get("players") or entry["player_counts"][0]
        return all_games()[entry["id"]], entry, count, self.cleaned_data["chance"]


def _json_or_text(text: str) -> Any:
    """A field's value read as JSON (bounded in depth: a value thousands deep is refused
    by the engine's check like any bad value, never a RecursionError), else the text."""
    try:
        return parse_json_value(text)
    except ValueError:
        return text


def _label(path: list[str]) -> str:
    return " ".join(path).replace("_", " ")


def _json_field(label: str, initial: Any, required: bool) -> forms.CharField:
    text = "" if initial is None else initial if isinstance(initial, str) else json.dumps(initial)
    field = forms.CharField(
        label=f"{label} (JSON)",
        required=required,
        initial=text,
        widget=forms.TextInput(attrs={"spellcheck": "false", "class": "mono"}),
    )
    field.is_json = True  # type: ignore[attr-defined]
    return field


def _choices(schema: dict[str, Any]) -> list[tuple[Any, str]] | None:
    """``[(value, label)]`` of a choice: ``oneOf`` of ``{"const", "title"}`` (the other
    alternatives, an inline board, are the API's), else a bare ``enum``; None otherwise."""
    consts = [
        option
        for option in schema.get("oneOf") or []
        if isinstance(option, dict) and "const" in option
    ]
    if consts:
        return [(option["const"], option.get("title") or str(option["const"])) for option in consts]
    if "enum" in schema:
        return [(value, str(value)) for value in schema["enum"]]
    return None


def schema_fields(
    schema: dict[str, Any],
    default: Any,
    path: list[str],
    prefix: str,
    required: bool = True,
    group: str = "",
) -> list[tuple[str, forms.Field]]:
    """Form fields for one value of ``schema`` (``Game.form_schema``: titles, labelled
    choices) at ``path``, named ``prefix`` + dotted path (a fixed-length list's items as
    ``….1``, ``….2``). The parts of a titled whole (a deck, a rack, the pawns' cities)
    are a ``group`` (set on each field) under that title, each labelled by its own."""
    name = prefix + ".".join(path)
    label = schema.get("title") or _label(path[-1:])
    help_text = schema.get("description") or ""
    default = schema.get("default", default)
    kind = schema.get("type")
    if kind == "object" and "properties" in schema:
        fields = []
        inner = default if isinstance(default, dict) else {}
        inner_group = _join(group, schema.get("title"))
        for key, sub in schema["properties"].items():
            fields += schema_fields(
                sub, inner.get(key), [*path, key], prefix, required, inner_group
            )
        return fields
    fields = _leaf_fields(schema, default, path, name, label, help_text, required, group)
    for _name, field in fields:
        field.group = getattr(field, "group", group)  # type: ignore[attr-defined]
    return fields


def _join(outer: str, inner: str | None) -> str:
    return f"{outer}: {inner}" if outer and inner else outer or inner or ""


def _leaf_fields(
    schema: dict[str, Any],
    default: Any,
    path: list[str],
    name: str,
    label: str,
    help_text: str,
    required: bool,
    group: str,
) -> list[tuple[str, forms.Field]]:
    kind = schema.get("type")
    prefix = name[: len(name) - len(".".join(path))]
    if kind == "boolean":
        return [
            (
                name,
                forms.BooleanField(
                    label=label, required=False, initial=bool(default), help_text=help_text
                ),
            )
        ]
    choices = _choices(schema)
    if choices is not None:
        options = [(json.dumps(value), text) for value, text in choices]
        if not required or default is None:
            options = [("", gettext("choose…")), *options]
        initial = "" if default is None else json.dumps(default)
        return [
            (
                name,
                forms.ChoiceField(
                    label=label,
                    choices=options,
                    initial=initial,
                    required=required,
                    help_text=help_text,
                ),
            )
        ]
    if kind == "integer":
        # A counter: a number box with its bounds (steppers, and the phone's number pad).
        return [
            (
                name,
                forms.IntegerField(
                    label=label,
                    initial=default,
                    required=required,
                    help_text=help_text,
                    min_value=schema.get("minimum"),
                    max_value=schema.get("maximum"),
                ),
            )
        ]
    items = schema.get("items") or {}
    item_choices = _choices(items)
    size = schema.get("minItems")
    if kind == "array" and item_choices is not None and size and size == schema.get("maxItems"):
        # A hand of 3 cards, 3 first blocks, a rack of tickets: one drop-down per item.
        fields = []
        item_name = items.get("title") or "item"
        for i in range(size):
            item_default = default[i] if isinstance(default, list) and i < len(default) else None
            fields += schema_fields(
                {**items, "title": f"{item_name} {i + 1}"},
                item_default,
                [*path, str(i + 1)],
                prefix,
                required,
                _join(group, label),
            )
        return fields
    if kind == "array" and item_choices is not None and schema.get("uniqueItems"):
        # Distinct picks (the pawns a detective player moves): one checkbox per choice.
        field = forms.MultipleChoiceField(
            label=label,
            required=False,
            help_text=help_text,
            widget=forms.CheckboxSelectMultiple,
            choices=[(json.dumps(value), text) for value, text in item_choices],
            initial=[json.dumps(v) for v in default] if isinstance(default, list) else [],
        )
        field.is_picks = True  # type: ignore[attr-defined]
        return [(name, field)]
    if kind == "string" and isinstance(default, str):
        return [
            (
                name,
                forms.CharField(
                    label=label, initial=default, required=required, help_text=help_text
                ),
            )
        ]
    # Anything a game's form schema does not ask (it should ask everything a person sets).
    return [(name, _json_field(label, default, required))]


def collect(form: forms.Form, data: dict[str, Any], prefix: str) -> dict[str, Any]:
    """The nested value the fields named ``prefix…`` describe; blank optional fields are
    left out, and numbered items (``hands.cryptid.1``…) become lists."""
    out: dict[str, Any] = {}
    for name, field in form.fields.items():
        if not name.startswith(prefix) or name not in data:
            continue
        value = data[name]
        if getattr(field, "is_picks", False):
            if not value:
                continue  # none picked: left out (all left out: the game's default)
            value = [_json_or_text(item) for item in value]
        elif isinstance(field, forms.ChoiceField) and not isinstance(field, forms.TypedChoiceField):
            if value == "":
                continue
            value = _json_or_text(value)
        elif getattr(field, "is_json", False):
            text = (value or "").strip()
            if not text:
                continue
            value = _json_or_text(text)  # a board as JSON, or a bare name such as europe/1
        elif value is None:
            continue
        target = out
        keys = name.removeprefix(prefix).split(".")
        for key in keys[:-1]:
            target = target.setdefault(key, {})
        target[keys[-1]] = value
    return _lists(out)


def _lists(value: Any) -> Any:
    """``{"1": a, "2": b}`` → ``[a, b]`` (the items of a fixed-length list), recursively."""
    if not isinstance(value, dict):
        return value
    value = {key: _lists(item) for key, item in value.items()}
    if value and all(key.isdigit() for key in value):
        return [value[key] for key in sorted(value, key=int)]
    return value


def seat_labels(
    game: Game, seat_ids: list[str], options: dict[str, Any], seated: dict[str, str] | None = None
) -> dict[str, str]:
    """Each seat as players call it with these options (``Game.seat_label``: "Mister X",
    "Detectives red and blue", "Player 2 (spies E/e)")."""
    table = Table(seated or dict.fromkeys(seat_ids, ""), options)
    return {seat: render(game.seat_label(seat, table), engine_locale()) for seat in seat_ids}


#: the opponent a game dealt by Lantern starts with in every other seat: the medium bot
#: (the easy one plays at random; the strong one takes its time)
FIRST_OPPONENT = "greedy"


def seats_against_bots(game: Game, seat_ids: list[str], me: str | None) -> dict[str, str]:
    """Step two's first answer when Lantern deals (to play against a bot): the person
    setting up in the first seat, the medium bot in the others; each can be changed."""
    initial = {
        SEAT_PREFIX + seat: f"{BOT_PREFIX}{FIRST_OPPONENT}"
        for seat in seat_ids[1:]
        if FIRST_OPPONENT in bots_of(game)
    }
    if me is not None:
        initial[SEAT_PREFIX + seat_ids[0]] = me
    return initial


class DraftSetupForm(forms.Form):
    """Step two (a POST): options, the setup, and who plays each seat."""

    def __init__(
        self,
        *args: Any,
        game: Game,
        seat_ids: list[str],
        chance: str,
        players: list[tuple[str, list[tuple[str, str]]]],
        setup_choices: list[str],
        new_players: bool = False,
        options: dict[str, Any] | None = None,
        seated: dict[str, str] | None = None,
        **kwargs: Any,
    ) -> None:
        """``players``: who may sit in a seat, in groups (``clubs.selectors.seat_picks``:
        members by name, other handles). ``options`` and ``seated`` ({seat: handle}) fix
        the options and who sits where
        (a tournament pairing's game: its event's options, its players in their seats):
        those are then shown, not asked."""
        super().__init__(*args, **kwargs)
        self.game = game
        self.chance = chance
        self.fixed_options = options
        self.seated = seated
        defaults = game.normalize_options({}) if options is None else options
        self.seat_ids = seat_ids
        # What a person sets up at this table, in a person's words (the engine's).
        schemas = game.form_schema(defaults, seat_ids, engine_locale())
        option_schema = (schemas.get("options") or {}) if options is None else {}
        for key, sub in (option_schema.get("properties") or {}).items():
            default = defaults.get(key)
            for name, field in schema_fields(
                sub, default, [key], OPTION_PREFIX, required=default is not None
            ):
                self.fields[name] = field
        # At the table every setup field is asked (the dealt hands too); when Lantern
        # deals, only the players' choices, and those may be left to chance as well.
        setup_schema = schemas.get("setup") or {}
        for key, sub in (setup_schema.get("properties") or {}).items():
            if chance == SERVER and key not in setup_choices:
                continue
            fixed_list = sub.get("type") == "array" and sub.get("minItems") is not None
            if sub.get("type") == "array" and not fixed_list:
                continue  # a list the log may leave out (Cloak & Dagger's pile): left out
            # At the table the engine needs every outcome; Lantern picks what is left out.
            required = chance == TABLE
            for name, field in schema_fields(sub, None, [key], SETUP_PREFIX, required=required):
                self.fields[name] = field
        bots = (
            [(f"{BOT_PREFIX}{bot}", bot_choice(bot)) for bot in weakest_first(bots_of(game))]
            if chance == SERVER
            else []
        )
        # Each seat as players call it: "Mister X", "Player 2 (spies E/e)".
        labels = seat_labels(game, seat_ids, defaults, seated)
        self.seat_labels = labels
        for seat in [] if seated is not None else self.seat_ids:
            choices: list[Any] = [("", gettext("choose…")), *players]
            if bots:
                choices.append((gettext("Bots"), bots))
            # An organiser may seat someone the club has no handle for yet (as an upload may).
            self.fields[SEAT_PREFIX + seat] = forms.ChoiceField(
                label=labels[seat], choices=choices, required=not new_players
            )
            if new_players:
                self.fields[NEW_PREFIX + seat] = forms.CharField(
                    label=gettext("or a new player as %(seat)s") % {"seat": labels[seat]},
                    required=False,
                    max_length=64,
                    help_text=gettext("A handle the club does not have yet."),
                )

    def names(self, prefix: str) -> list[str]:
        return [name for name in self.fields if name.startswith(prefix)]

    def option_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.names(OPTION_PREFIX)]

    def setup_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.names(SETUP_PREFIX)]

    def _groups(self, prefix: str) -> list[tuple[str, list[forms.BoundField]]]:
        """The fields under ``prefix`` in runs of one group: ``[(title, fields)]`` (title
        empty for the fields that stand alone)."""
        groups: list[tuple[str, list[forms.BoundField]]] = []
        for name in self.names(prefix):
            title = getattr(self.fields[name], "group", "")
            if not groups or groups[-1][0] != title:
                groups.append((title, []))
            groups[-1][1].append(self[name])
        return groups

    def option_groups(self) -> list[tuple[str, list[forms.BoundField]]]:
        return self._groups(OPTION_PREFIX)

    def setup_groups(self) -> list[tuple[str, list[forms.BoundField]]]:
        return self._groups(SETUP_PREFIX)

    def seat_fields(self) -> list[forms.BoundField]:
        """Each seat's drop-down, followed by its new-handle field when there is one."""
        return [
            self[name]
            for seat in self.seat_ids
            for name in (SEAT_PREFIX + seat, NEW_PREFIX + seat)
            if name in self.fields
        ]

    def labels_for_given_options(self) -> dict[str, str]:
        """The seats' names with the options as the (bound) form gives them, so far as
        the engine accepts them (the defaults otherwise): what the setup page shows as
        a person changes an option (Mister X's pawns shared out among the players)."""
        self.is_valid()  # cleans every field; the options are read even if seats are not
        try:
            options = self.game.normalize_options(collect(self, self.cleaned_data, OPTION_PREFIX))
        except IllegalAction:
            options = self.game.normalize_options({})
        return seat_labels(self.game, self.seat_ids, options, self.seated)

    def seated_rows(self) -> list[tuple[str, str]]:
        """``[(seat label, handle)]`` of fixed seats, in seat order."""
        return (
            [(self.seat_labels[seat], self.seated[seat]) for seat in self.seat_ids]
            if self.seated
            else []
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        try:
            self.options = self.game.normalize_options(
                collect(self, data, OPTION_PREFIX)
                if self.fixed_options is None
                else self.fixed_options
            )
        except IllegalAction as exc:
            raise ValidationError(f"{exc.rule}: {exc.text(engine_locale())}") from exc
        self.setup = collect(self, data, SETUP_PREFIX)
        if self.seated is not None:
            self.seats = [{"seat": seat, "player": self.seated[seat]} for seat in self.seat_ids]
            return data
        seats = []
        for seat in self.seat_ids:
            choice = data.get(SEAT_PREFIX + seat)
            new = (data.get(NEW_PREFIX + seat) or "").strip()
            if new and choice:
                self.add_error(
                    NEW_PREFIX + seat, gettext("Choose a player or name a new one, not both.")
                )
                continue
            if new:
                seats.append({"seat": seat, "player": new})
                continue
            if not choice:
                if SEAT_PREFIX + seat not in self.errors:
                    self.add_error(SEAT_PREFIX + seat, gettext("Choose who plays this seat."))
                continue
            if choice.startswith(BOT_PREFIX):
                seats.append({"seat": seat, "bot": choice.removeprefix(BOT_PREFIX)})
            else:
                seats.append({"seat": seat, "player": choice})
        held: dict[str, list[str]] = {}
        for entry in seats:
            if "player" in entry:
                held.setdefault(entry["player"], []).append(entry["seat"])
        # Whether one person may hold several seats is the game's to say (Mister X: any
        # detective seats; most games: one seat each).
        for player, player_seats in held.items():
            if not self.game.may_hold_together(player_seats):
                raise ValidationError(
                    gettext(
                        "%(player)s cannot hold %(seats)s together in %(game)s: a player can sit "
                        "in only one seat, unless the game lets one player hold several seats "
                        "of one side."
                    )
                    % {
                        "player": player,
                        "seats": ", ".join(player_seats),
                        "game": say(self.game.title()),
                    }
                )
        self.seats = seats
        return data
