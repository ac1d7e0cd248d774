"""A tournament round played online: each pending pairing of the current round gets a live
table (``live.arranged``) with the pairing's players in the pairing's seats, dealt at
once; the finished table's game is stored through ``games.services.ingest_log`` like every
log, and its match settles the pairing with the checks an uploaded log gets
(``settle_played_online``, on ``live.events.table_stored``).

A pairing plays online when every one of its players is a person with an account on the
site (the handle linked to it): the table seats that account as that handle. A pairing
whose table was abandoned gets a new one the next time the round is started online.

Each table gets the event's time control (``set_round_clock``: the organiser's choice, as a
table's opener chooses; none by default), so an absent player cannot stall a round: a
time-out, a claim after the grace period or the idle end closes the table (LIVE-1), and a
finished one settles its pairing as any other. A player whose time runs out loses for
their side (the event offers no bot to play on: a game a bot finished is not the pairing's).
In a free-for-all of three or more (Cloak & Dagger) the engine hands that seat to a bot
instead (LIVE-1.4), and the pairing is then settled by the organiser (a forfeit)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from clubs.policy import AnyUser
from live import clocks
from live.arranged import open_arranged_table
from live.models import Table
from live.services import NOT_OVER
from tournaments import selectors
from tournaments.models import Pairing, Tournament
from tournaments.services import TournamentError, settle_stored


@dataclass(frozen=True)
class Started:
    """What starting a round online did: the tables opened, and the pairings left to play
    otherwise (each with why)."""

    tables: list[Table]
    skipped: list[tuple[Pairing, str]]


def playing_online(pairing: Pairing) -> Table | None:
    """The live table ``pairing`` is being played at now, if any."""
    table = pairing.table
    return table if table is not None and table.status in NOT_OVER else None


def set_round_clock(tournament: Tournament, clock: Any) -> None:
    """Keep ``clock`` (as the tables API takes it: ``live.clocks.time_control``) as the time
    control of the tables the event's rounds are played online at from now on. The caller
    checks ``clubs.policy.can_manage_tournament``."""
    try:
        control = clocks.time_control(clock)
    except clocks.TimeControlInvalid as exc:
        raise TournamentError(str(exc)) from None
    if control.on_time_out != Table.OnTimeOut.LOSE:
        raise TournamentError(gettext("at an event's table a player whose time runs out loses"))
    tournament.clock, tournament.clock_minutes = control.kind, control.minutes
    tournament.clock_increment, tournament.clock_days = control.increment, control.days
    tournament.save(update_fields=["clock", "clock_minutes", "clock_increment", "clock_days"])


def round_clock_label(tournament: Tournament) -> str:
    """The event's time control at its online tables in a few words ("no clock" untimed)."""
    return clocks.label(tournament) or gettext("no clock")


def start_round_online(tournament: Tournament, user: AnyUser) -> Started:
    """A table for each pending pairing of the current round that has none being played,
    its players in its seats. The caller checks ``clubs.policy.can_manage_tournament``."""
    if tournament.status != Tournament.Status.RUNNING or tournament.current_round < 1:
        raise TournamentError(gettext("the event is not running"))
    tables: list[Table] = []
    skipped: list[tuple[Pairing, str]] = []
    for pairing in selectors.pairings(tournament, tournament.current_round).select_related("table"):
        if pairing.status != Pairing.Status.PENDING or playing_online(pairing) is not None:
            continue
        seats = list(pairing.seats.all())
        strangers = [s.entry.player.handle for s in seats if s.entry.player.user_id is None]
        if strangers:
            skipped.append(
                (
                    pairing,
                    gettext("no account is linked to %(players)s")
                    % {"players": ", ".join(strangers)},
                )
            )
            continue
        with transaction.atomic():
            table = open_arranged_table(
                tournament.club,
                user,
                game_id=tournament.game,
                options=tournament.options,
                seats=[
                    {"seat": s.seat, "user": s.entry.player.user, "player": s.entry.player.handle}
                    for s in sorted(seats, key=lambda s: s.order)
                ],
                clock=clocks.TimeControl.of(tournament),
            )
            pairing.table = table
            pairing.save(update_fields=["table"])
        tables.append(table)
    return Started(tables=tables, skipped=skipped)


def settle_played_online(table_id: int, match_id: int) -> Pairing | None:
    """A finished table's match settles the pairing it was played for, as an uploaded log
    does (``tournaments.services.settle_stored``). None when the table was no pairing's."""
    pairing = Pairing.objects.filter(table_id=table_id).select_related("tournament").first()
    return None if pairing is None else settle_stored(pairing, match_id)


def your_tables(tournament: Tournament, user: AnyUser) -> list[tuple[Pairing, Table]]:
    """The tables of the event's current round where ``user`` holds a seat, being played."""
    if not user.is_authenticated:
        return []
    pairings = (
        Pairing.objects.filter(
            tournament=tournament,
            table__status__in=NOT_OVER,
            table__seats__user=user,
        )
        .select_related("table")
        .order_by("round", "board", "leg")
    )
    return [(p, p.table) for p in pairings]


def with_pairings(tables: list[Table]) -> list[Table]:
    """``tables``, each given ``event_pairing``: the pairing it is played for, if any (the
    club page says so beside it)."""
    pairings = {
        p.table_id: p for p in Pairing.objects.filter(table__in=tables).select_related("tournament")
    }
    for table in tables:
        table.event_pairing = pairings.get(table.pk)
    return tables
