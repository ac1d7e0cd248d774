"""Tables arranged for their players by someone else: a tournament's pairing played online
(``tournaments.online``). Every seat is a person's, named by the arranger with the handle
the log must seat there; the game is dealt at once, as when the last seat is taken."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from clubs.models import Club
from config.sentences import engine_locale
from engine import IllegalAction, get_game
from live.clocks import TimeControl
from live.models import Table, TableSeat
from live.services import LIVE_SEATS, TableIllegal, TableInvalid, _save, _seat, _start


def open_arranged_table(
    club: Club,
    arranger: Any,
    *,
    game_id: str,
    options: dict[str, Any],
    seats: list[dict[str, Any]],
    clock: TimeControl | None = None,
) -> Table:
    """A table of ``game_id`` in ``club`` whose seats (``{"seat", "user", "player"}``, in
    the game's seat order) are taken by those people as those handles, dealt at once, with
    the time control ``clock`` (none by default); ``arranger`` opened it (and may abandon
    it). The caller decides who may arrange."""
    game = get_game(game_id)
    if game is None:
        raise TableInvalid(gettext("unknown game %(game)s") % {"game": repr(game_id)}, field="game")
    try:
        options = game.normalize_options(options)
    except IllegalAction as exc:
        raise TableIllegal(exc.text(engine_locale()), rule=exc.rule) from None
    if [s["seat"] for s in seats] != game.seat_ids(options, len(seats)):
        raise TableIllegal(gettext("the seats are not this game's, in its order"), rule=LIVE_SEATS)
    with transaction.atomic():
        table = Table(club=club, created_by=arranger, game=game.id, options=options)
        (clock or TimeControl()).apply(table)
        table.save()
        for order, entry in enumerate(seats):
            TableSeat.objects.create(table=table, seat=entry["seat"], order=order)
        for entry in seats:
            _seat(table, entry["user"], entry["seat"], entry["player"])
        _save(table, _start(table))
    return table
