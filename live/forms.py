"""The form that opens a table: the recorder's setup form (the game's options as the
engine describes them, each seat by its name), with each seat taken by the opener, left
free for a member, or given to a bot. No setup fields: at a live table the server deals
everything, so no one at it has chosen what the others cannot see."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from live.services import BOT, FREE, ME
from recorder.forms import SEAT_PREFIX, SERVER, SETUP_PREFIX, DraftSetupForm

#: A free seat's choice names its seat (``free:p2``): the form lets one pick sit in one
#: seat only, and each free seat is a different member's to come.
FREE_PREFIX = f"{FREE}:"


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

    def table_seats(self) -> list[dict[str, Any]]:
        """The seats as ``live.services.open_table`` takes them (after ``is_valid``)."""
        out = []
        for entry in self.seats:
            if "bot" in entry:
                out.append({"seat": entry["seat"], "take": BOT, "bot": entry["bot"]})
            else:
                out.append({"seat": entry["seat"], "take": ME if entry["player"] == ME else FREE})
        return out
