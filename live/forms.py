"""The form that opens a table: the recorder's setup form (the game's options as the
engine describes them, each seat by its name), with each seat taken by the opener, left
free for a member, or given to a bot. No setup fields: at a live table the server deals
everything, so no one at it has chosen what the others cannot see."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext_lazy

from live.clocks import PRESETS
from live.models import Table
from live.services import BOT, FREE, ME
from recorder.forms import SEAT_PREFIX, SERVER, SETUP_PREFIX, DraftSetupForm

#: A free seat's choice names its seat (``free:p2``): the form lets one pick sit in one
#: seat only, and each free seat is a different member's to come.
FREE_PREFIX = f"{FREE}:"

#: The correspondence controls the form offers: days per move.
DAYS_PER_MOVE = [1, 2, 3, 5, 7, 14]


def clock_choices() -> list[tuple[str, Any]]:
    """No clock; the real-time presets (``realtime:5+3``); days per move
    (``correspondence:3``). The API takes any control within the limits."""
    return [
        (Table.Clock.NONE, gettext("No clock")),
        (
            gettext("Real time: minutes each + seconds per move"),
            [(f"realtime:{m}+{i}", f"{m} + {i}") for m, i in PRESETS],
        ),
        (
            gettext("Correspondence: days per move"),
            [
                (f"correspondence:{d}", ngettext("%(days)s day", "%(days)s days", d) % {"days": d})
                for d in DAYS_PER_MOVE
            ],
        ),
    ]


def clock_field() -> forms.ChoiceField:
    """The *Clock* choice (``clock_choices``), no clock by default."""
    return forms.ChoiceField(
        label=pgettext_lazy("a time control", "Clock"),
        choices=clock_choices(),
        initial=Table.Clock.NONE,
        required=False,
    )


def chosen_clock(value: str | None) -> dict[str, Any]:
    """A choice of ``clock_choices`` (``realtime:5+3``) as the API's ``clock`` object
    (``live.clocks.time_control`` reads it)."""
    kind, _, amount = (value or Table.Clock.NONE).partition(":")
    control: dict[str, Any] = {"kind": kind}
    if kind == Table.Clock.REALTIME:
        minutes, increment = amount.split("+")
        control.update(minutes=int(minutes), increment=int(increment))
    elif kind == Table.Clock.CORRESPONDENCE:
        control["days"] = int(amount)
    return control


def clock_choice(held: Any) -> str:
    """``chosen_clock`` the other way: the choice naming the control held in a table's (or
    an event's) fields, offered by ``clock_choices`` or not (the API takes any)."""
    if held.clock == Table.Clock.REALTIME:
        return f"realtime:{held.clock_minutes}+{held.clock_increment}"
    if held.clock == Table.Clock.CORRESPONDENCE:
        return f"correspondence:{held.clock_days}"
    return Table.Clock.NONE


def offered_clocks() -> set[str]:
    """Every choice of ``clock_choices``."""
    choices = clock_choices()
    return {choices[0][0]} | {value for _, group in choices[1:] for value, _ in group}


class OpenTableForm(DraftSetupForm):
    def __init__(self, *args: Any, game: Any, seat_ids: list[str], **kwargs: Any) -> None:
        super().__init__(
            *args,
            game=game,
            seat_ids=seat_ids,
            chance=SERVER,
            players=[],
            setup_choices=[],
            **kwargs,
        )
        for name in self.names(SETUP_PREFIX):
            del self.fields[name]
        for order, seat in enumerate(seat_ids):
            field = self.fields[SEAT_PREFIX + seat]
            bots = [choice for choice in field.choices if isinstance(choice[1], list | tuple)]
            field.choices = [
                (
                    gettext("People"),
                    [(ME, gettext("Me")), (FREE_PREFIX + seat, gettext("A member who joins"))],
                ),
                *bots,
            ]
            field.initial = ME if order == 0 else FREE_PREFIX + seat
        self.fields["clock"] = clock_field()
        grace_minutes = max(1, round(settings.LIVE_ABSENCE_GRACE / 60))
        self.fields["on_time_out"] = forms.ChoiceField(
            label=gettext_lazy("When a player's time runs out"),
            # Short enough for a phone's select (the models' labels say it at length).
            choices=[
                (Table.OnTimeOut.LOSE, gettext_lazy("Their side loses")),
                (Table.OnTimeOut.BOT, gettext_lazy("A bot plays on for them")),
            ],
            initial=Table.OnTimeOut.LOSE,
            required=False,
            help_text=ngettext(
                "A player gone longer than %(minutes)s minute may have the game claimed from "
                "them by the other side (not at a correspondence table: its clock is the rule).",
                "A player gone longer than %(minutes)s minutes may have the game claimed from "
                "them by the other side (not at a correspondence table: its clock is the rule).",
                grace_minutes,
            )
            % {"minutes": grace_minutes},
        )

    def clock_fields(self) -> list[Any]:
        return [self["clock"], self["on_time_out"]]

    def time_control(self) -> dict[str, Any]:
        """The chosen clock as ``live.services.open_table`` takes it (after ``is_valid``)."""
        on_time_out = self.cleaned_data.get("on_time_out") or Table.OnTimeOut.LOSE
        return {**chosen_clock(self.cleaned_data.get("clock")), "on_time_out": on_time_out}

    def table_seats(self) -> list[dict[str, Any]]:
        """The seats as ``live.services.open_table`` takes them (after ``is_valid``)."""
        out = []
        for entry in self.seats:
            if "bot" in entry:
                out.append({"seat": entry["seat"], "take": BOT, "bot": entry["bot"]})
            else:
                out.append({"seat": entry["seat"], "take": ME if entry["player"] == ME else FREE})
        return out
