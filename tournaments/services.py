"""Writes of events: create, enter, start, pair, record results, override.

Views, the API and Celery tasks call these; every rule an organiser can break
comes back as a :class:`TournamentError` with one plain sentence.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

import engine
from clubs.models import Club, Player
from clubs.policy import AnyUser
from config.errors import Refusal
from config.queueing import send_task_on_commit
from games import display
from games.models import Match, MatchSeat
from games.services import ingest_log
from ladder import selectors as ladder_selectors
from ladder.kernel import LadderOptions
from recorder.models import Draft
from recorder.services import create_draft
from tournaments import selectors
from tournaments.models import Entry, ForbiddenPairing, Pairing, PairingSeat, Tournament
from tournaments.pairing import (
    PairingError,
    Table,
    pair_swiss,
    pair_swiss_tables,
    round_robin,
    table_sizes,
)
from tournaments.seating import SeatLayout, game_ids, layout_of
from tournaments.standings import TIEBREAKS

logger = logging.getLogger(__name__)


class TournamentError(Refusal):
    """An organiser's or uploader's request that the event's rules do not allow
    (``config.errors.Refusal``; ``code`` is ``refused`` unless more is known)."""

    code = "refused"


# --- setting up -------------------------------------------------------------------------


def create_tournament(
    *,
    club: Club,
    name: str,
    game: str,
    format: str,
    rounds: int | None = None,
    table_size: int | None = None,
    double: bool = False,
    bye_points: float = 1.0,
    strict_role_parity: bool = False,
    tiebreaks: Sequence[str] | None = None,
    options: dict[str, Any] | None = None,
    created_by: AnyUser | None = None,
) -> Tournament:
    layout = layout_of(game)
    if layout is None:
        raise TournamentError(
            gettext("unknown game %(game)s; known: %(known)s")
            % {"game": repr(game), "known": ", ".join(game_ids())}
        )
    if format not in Tournament.Format.values:
        raise TournamentError(
            gettext("unknown format %(format)s; known: round_robin, swiss")
            % {"format": repr(format)}
        )
    size = table_size or (2 if layout.two_seat else min(4, layout.max_players))
    if not layout.min_players <= size <= layout.max_players:
        raise TournamentError(
            gettext("%(game)s is played by %(min)s to %(max)s players, not %(size)s")
            % {
                "game": layout.name,
                "min": layout.min_players,
                "max": layout.max_players,
                "size": size,
            }
        )
    if double and size != 2:
        raise TournamentError(gettext("the double option needs games of two players"))
    if format == Tournament.Format.ROUND_ROBIN and size != 2:
        raise TournamentError(
            gettext(
                "a round-robin pairs two players per game; for tables of "
                "%(size)s use the Swiss format"
            )
            % {"size": size}
        )
    if format == Tournament.Format.SWISS and not rounds:
        raise TournamentError(gettext("a Swiss event needs its number of rounds"))
    if rounds is not None and rounds < 1:
        raise TournamentError(gettext("the number of rounds must be at least 1"))
    if tiebreaks is None:
        tiebreaks = ["buchholz", "sonneborn_berger"] + (["head_to_head"] if size == 2 else [])
    unknown = [t for t in tiebreaks if t not in TIEBREAKS]
    if unknown:
        raise TournamentError(
            gettext("unknown tie-break(s) %(unknown)s; known: %(known)s")
            % {"unknown": unknown, "known": sorted(TIEBREAKS)}
        )
    if "head_to_head" in tiebreaks and size != 2:
        raise TournamentError(gettext("head-to-head is a tie-break of two-player games only"))
    if bye_points < 0:
        raise TournamentError(gettext("bye points cannot be negative"))
    if strict_role_parity and (format != Tournament.Format.SWISS or size != 2 or double):
        raise TournamentError(
            gettext(
                "strict role parity is an option of two-player Swiss events "
                "with one game per pairing"
            )
        )
    return Tournament.objects.create(
        club=club,
        name=name.strip(),
        game=game,
        format=format,
        rounds=rounds or 1,
        table_size=size,
        double=double,
        bye_points=bye_points,
        strict_role_parity=strict_role_parity,
        tiebreaks=list(tiebreaks),
        options=options or {},
        created_by=created_by if getattr(created_by, "is_authenticated", False) else None,
    )


def add_entry(tournament: Tournament, player: Player, seed_rating: float | None = None) -> Entry:
    """Enter ``player``; without a seed rating, their current rating on the club's ladder
    of this game seeds them (the ladder's initial rating when they have none)."""
    if tournament.status != Tournament.Status.REGISTRATION:
        raise TournamentError(gettext("entries close when the event starts"))
    if player.club_id != tournament.club_id:
        raise TournamentError(
            gettext("%(player)s is not a player of %(club)s")
            % {"player": player.handle, "club": tournament.club.name}
        )
    if player.bot:  # an event's games are played at the table, where no bot sits
        raise TournamentError(
            gettext("%(player)s is the club's %(bot)s: an event's games are played between people")
            % {"player": player.handle, "bot": player.name}
        )
    if seed_rating is None:
        seed_rating = ladder_seed_rating(tournament, player)
    withdrawn = Entry.objects.filter(tournament=tournament, player=player, withdrawn=True).first()
    if withdrawn is not None:  # withdrew, then entered again before the start
        withdrawn.withdrawn, withdrawn.seed_rating = False, seed_rating
        withdrawn.save(update_fields=["withdrawn", "seed_rating"])
        return withdrawn
    try:
        with transaction.atomic():
            return Entry.objects.create(
                tournament=tournament, player=player, seed_rating=seed_rating
            )
    except IntegrityError as exc:
        raise TournamentError(
            gettext("%(player)s is already entered") % {"player": player.handle}
        ) from exc


def enter_handle(tournament: Tournament, handle: str, seed_rating: float | None = None) -> Entry:
    """Enter the club's player of this handle, created when the club has none yet (an
    organiser entering a newcomer before their first game is stored)."""
    handle = handle.strip()
    if not handle:
        raise TournamentError(gettext("type the player's handle"))
    if len(handle) > 64:
        raise TournamentError(gettext("a handle has at most 64 characters"))
    player, _ = Player.objects.get_or_create(club=tournament.club, handle=handle)
    return add_entry(tournament, player, seed_rating)


def ladder_seed_rating(tournament: Tournament, player: Player) -> float:
    ladder = ladder_selectors.ladders_of_club(tournament.club).filter(game=tournament.game).first()
    if ladder is None:
        return LadderOptions().initial
    rating = ladder_selectors.player_rating(ladder, player)
    return rating.rating if rating is not None else ladder.rating_options.initial


def withdraw_entry(entry: Entry) -> Entry:
    """The player is left out of every round paired from now on; results stay."""
    entry.withdrawn = True
    entry.save(update_fields=["withdrawn"])
    return entry


def forbid_pairing(
    tournament: Tournament, first: Entry, second: Entry, reason: str
) -> ForbiddenPairing:
    if first.tournament_id != tournament.id or second.tournament_id != tournament.id:
        raise TournamentError(gettext("both entries must belong to this event"))
    if first.id == second.id:
        raise TournamentError(gettext("a forbidden pairing needs two different players"))
    if not reason.strip():
        raise TournamentError(gettext("say why the pairing is forbidden (family, same team, …)"))
    a, b = sorted((first, second), key=lambda e: e.id)
    try:
        with transaction.atomic():
            return ForbiddenPairing.objects.create(
                tournament=tournament, first=a, second=b, reason=reason.strip()
            )
    except IntegrityError as exc:
        raise TournamentError(
            gettext("%(first)s and %(second)s are already kept apart")
            % {"first": a.player.handle, "second": b.player.handle}
        ) from exc


# --- running ----------------------------------------------------------------------------


@transaction.atomic
def start_tournament(tournament: Tournament) -> Tournament:
    """Close entries, fix a round-robin's number of rounds, and pair round 1."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status != Tournament.Status.REGISTRATION:
        raise TournamentError(gettext("the event has already started"))
    count = selectors.active_entries(tournament).count()
    layout = _layout(tournament)
    if count < 2:
        raise TournamentError(
            gettext("an event needs at least two players; it has %(count)s") % {"count": count}
        )
    if tournament.table_size > 2:
        try:
            table_sizes(count, tournament.table_size, layout.min_players)
        except PairingError as exc:
            raise TournamentError(str(exc)) from exc
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        tournament.rounds = count if count % 2 else count - 1
    tournament.status = Tournament.Status.RUNNING
    tournament.save(update_fields=["rounds", "status"])
    _pair(tournament, 1)
    return tournament


def pair_round(tournament_id: int, round_number: int) -> bool:
    """Pair ``round_number`` if it is the next one and the previous round is complete.

    Idempotent (a no-op returning False when the round is already paired), so the
    automatic trigger and an organiser's request can race safely.
    """
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        if tournament.status != Tournament.Status.RUNNING:
            return False
        if tournament.current_round != round_number - 1:
            return False
        if round_number > tournament.rounds:
            return False
        if not selectors.round_complete(tournament, tournament.current_round):
            raise TournamentError(
                gettext("round %(round)s still has results to come")
                % {"round": tournament.current_round}
            )
        _pair(tournament, round_number)
        return True


def request_next_round(tournament: Tournament) -> int:
    """The organiser asks for the next round now: enqueued once this transaction commits."""
    if tournament.status != Tournament.Status.RUNNING:
        raise TournamentError(gettext("the event is not running"))
    if tournament.current_round >= tournament.rounds:
        raise TournamentError(gettext("every round has been paired"))
    if not selectors.round_complete(tournament, tournament.current_round):
        raise TournamentError(
            gettext("round %(round)s still has results to come")
            % {"round": tournament.current_round}
        )
    _enqueue_pairing(tournament.id, tournament.current_round + 1)
    return tournament.current_round + 1


def _layout(tournament: Tournament) -> SeatLayout:
    layout = layout_of(tournament.game)
    if layout is None:  # the engine no longer has the game (it had, to create the event)
        raise TournamentError(gettext("unknown game %(game)s") % {"game": repr(tournament.game)})
    return layout


def _enqueue_pairing(tournament_id: int, round_number: int) -> None:
    send_task_on_commit("tournaments.pair_round", tournament_id, round_number)


def _tables(tournament: Tournament, round_number: int) -> list[Table]:
    layout = _layout(tournament)
    roles = tuple(layout.seats(2))
    field = selectors.entrants(tournament)
    try:
        if tournament.format == Tournament.Format.ROUND_ROBIN:
            # The schedule is fixed at the start: computed from every entry in seed order.
            schedule = round_robin(
                selectors.entrants(tournament, include_withdrawn=True),
                (roles[0], roles[1]),
                double=tournament.double,
            )
            return schedule[round_number - 1]
        past = selectors.history(tournament, before_round=round_number)
        forbidden = selectors.forbidden_pairs(tournament)
        if tournament.table_size == 2:
            return pair_swiss(
                field,
                past,
                roles=(roles[0], roles[1]),
                double=tournament.double,
                forbidden=forbidden,
                role_class=layout.role_class,
                strict_roles=tournament.strict_role_parity,
            )
        return pair_swiss_tables(
            field,
            past,
            table_size=tournament.table_size,
            seat_names=layout.seats,
            role_class=layout.role_class,
            min_size=layout.min_players,
            forbidden=forbidden,
        )
    except PairingError as exc:
        raise TournamentError(
            gettext("round %(round)s cannot be paired: %(reason)s")
            % {"round": round_number, "reason": exc}
        ) from exc


def _pair(tournament: Tournament, round_number: int) -> None:
    tables = _tables(tournament, round_number)
    entries = {e.id: e for e in tournament.entries.all()}
    for table in tables:
        if table.is_bye:
            pairing = Pairing.objects.create(
                tournament=tournament,
                round=round_number,
                board=table.board,
                status=Pairing.Status.BYE,
                explanation=table.explanation,
                why=table.why,
                completed_at=timezone.now(),
            )
            PairingSeat.objects.create(
                pairing=pairing,
                seat="bye",
                order=0,
                entry=entries[table.players[0]],
                points=tournament.bye_points * tournament.legs,
            )
            continue
        for leg, seating in enumerate(table.games, start=1):
            pairing = Pairing.objects.create(
                tournament=tournament,
                round=round_number,
                board=table.board,
                leg=leg,
                explanation=table.explanation,
                why=table.why,
            )
            PairingSeat.objects.bulk_create(
                [
                    PairingSeat(pairing=pairing, seat=seat, entry=entries[pid], order=order)
                    for order, (seat, pid) in enumerate(seating)
                ]
            )
            # A round-robin's schedule keeps withdrawn players: their games are forfeits.
            gone = [entries[pid] for _seat, pid in seating if entries[pid].withdrawn]
            if gone:
                _settle_forfeit(pairing, gone, "withdrawn from the event")
    tournament.current_round = round_number
    tournament.save(update_fields=["current_round"])
    # A round of byes only (a withdrawn field) is complete at once.
    _after_result(tournament)


def _after_result(tournament: Tournament) -> None:
    """When the current round is complete: pair the next one (a task, after commit) or
    finish the event."""
    if not selectors.round_complete(tournament, tournament.current_round):
        return
    if tournament.current_round < tournament.rounds:
        _enqueue_pairing(tournament.id, tournament.current_round + 1)
    else:
        tournament.status = Tournament.Status.FINISHED
        tournament.save(update_fields=["status"])


# --- results ------------------------------------------------------------------------------


def _lock_pending(pairing: Pairing) -> tuple[Pairing, Tournament]:
    tournament = Tournament.objects.select_for_update().get(pk=pairing.tournament_id)
    pairing = Pairing.objects.select_for_update().get(pk=pairing.pk)
    _pending(pairing)
    return pairing, tournament


def _pending(pairing: Pairing) -> None:
    if pairing.status != Pairing.Status.PENDING:
        raise TournamentError(
            gettext("%(pairing)s already has its result (%(status)s)")
            % {"pairing": _name(pairing), "status": str(pairing.get_status_display()).lower()},
            code="settled",
        )
    if pairing.tournament.status != Tournament.Status.RUNNING:
        raise TournamentError(gettext("the event is not running"))


def _name(pairing: Pairing) -> str:
    if pairing.tournament.double:
        return gettext("round %(round)s, board %(board)s, game %(leg)s") % {
            "round": pairing.round,
            "board": pairing.board,
            "leg": pairing.leg,
        }
    return gettext("round %(round)s, board %(board)s") % {
        "round": pairing.round,
        "board": pairing.board,
    }


def _seat_text(game: str, seats: Sequence[tuple[str, str]]) -> str:
    """Who sits where, each seat by the role the game gives it, in the reader's words:
    "p02 as Cryptid and p01 as Scientist"."""
    return display.words(
        [
            gettext("%(player)s as %(role)s")
            % {"player": handle, "role": display.seat_role(game, seat, {})}
            for seat, handle in seats
        ]
    )


def check_log_matches_pairing(pairing: Pairing, document: Any) -> None:
    """The log must be of this event's game with exactly the pairing's players in the
    pairing's seats; a clear error otherwise."""
    tournament = pairing.tournament
    if not isinstance(document, dict):
        raise TournamentError(gettext("the log must be a JSON object (lantern-log/1)"))
    if document.get("game") != tournament.game:
        raise TournamentError(
            gettext("the log is a game of %(logged)s, but this event plays %(game)s")
            % {"logged": repr(document.get("game")), "game": repr(tournament.game)},
            code="wrong_game",
        )
    expected = [
        (s.seat, s.entry.player.handle)
        for s in pairing.seats.select_related("entry__player").order_by("order")
    ]
    seats = document.get("seats")
    try:
        given = [(str(s["seat"]), str(s["player"])) for s in seats]
    except (TypeError, KeyError) as exc:
        raise TournamentError(
            gettext("the log's seats must be a list of {seat, player}"), code="seats_mismatch"
        ) from exc
    if sorted(given) != sorted(expected):
        raise TournamentError(
            gettext("the log seats %(given)s, but %(pairing)s seats %(expected)s")
            % {
                "given": _seat_text(tournament.game, given),
                "pairing": _name(pairing),
                "expected": _seat_text(tournament.game, expected),
            },
            code="seats_mismatch",
        )


def record_result(pairing: Pairing, document: Any, uploaded_by: AnyUser) -> Match:
    """Settle a pairing with the log of its game (parsed JSON, text or bytes).

    The log goes through ``games.services.ingest_log`` like any other upload, so
    it is stored, replayable and rated on the club ladder; an illegal log raises
    that service's ``LogRejected`` (its attempt is kept). The log is checked
    against the pairing first (game, players in their seats), and the match is
    stored before the pairing is settled, so a log that cannot settle it (an
    unfinished game, a log already settling another pairing) is still kept as a
    match of the club.
    """
    if isinstance(document, bytes | str):
        try:
            parsed = engine.parse_json(document)
        except engine.IllegalAction:
            parsed = None  # ingest_log rejects it with the parse error, and keeps the attempt
    else:
        parsed = document
    if parsed is not None:
        _pending(pairing)
        check_log_matches_pairing(pairing, parsed)
    match = ingest_log(pairing.tournament.club, document if parsed is None else parsed, uploaded_by)
    return _settle_played(pairing, match)


def _settle_played(pairing: Pairing, match: Match) -> Match:
    """Settle ``pairing`` with ``match``, stored already (an upload or a recorded game):
    each seat's points from the match's outcomes, then the next round or the end."""
    with transaction.atomic():
        pairing, tournament = _lock_pending(pairing)
        if match.status != Match.Status.VALID:
            raise TournamentError(
                gettext(
                    "the log is stored as match %(match)s, but it is %(status)s: a "
                    "pairing is settled by a finished game"
                )
                % {"match": match.pk, "status": str(match.get_status_display()).lower()},
                code="unfinished",
            )
        other = Pairing.objects.filter(match=match).first()
        if other is not None:
            raise TournamentError(
                gettext("this log already settles %(pairing)s of %(event)s")
                % {"pairing": _name(other), "event": other.tournament.name},
                code="duplicate",
            )
        outcome = {s.seat: s.outcome for s in match.seats.all()}
        for seat in pairing.seats.all():
            seat.points = 1.0 if outcome.get(seat.seat) == MatchSeat.Outcome.WIN else 0.0
            seat.save(update_fields=["points"])
        pairing.match = match
        pairing.status = Pairing.Status.PLAYED
        pairing.completed_at = timezone.now()
        pairing.save(update_fields=["match", "status", "completed_at"])
        _after_result(tournament)
    return match


def record_at_the_table(
    pairing: Pairing, user: AnyUser, setup: dict[str, Any]
) -> tuple[Draft, bool]:
    """The draft recording ``pairing``'s game: the one being recorded already (resumed:
    ``(draft, False)``), else a new one (``(draft, True)``) of the event's game and
    options, the pairing's players in the pairing's seats (its role balance), chance
    entered as it came out at the table and ``setup`` as dealt there. Its match settles
    the pairing once stored (``settle_recorded``). The caller checks
    ``policy.can_record_pairing_result``; refusals are TournamentError or the recorder's
    DraftError (the engine's sentence about the setup)."""
    with transaction.atomic():
        pairing, tournament = _lock_pending(pairing)
        if pairing.recording is not None:
            return pairing.recording, False
        seats = [
            {"seat": s.seat, "player": s.entry.player.handle}
            for s in pairing.seats.select_related("entry__player").order_by("order")
        ]
        draft, _position = create_draft(
            tournament.club,
            user,
            game_id=tournament.game,
            options=tournament.options,
            seats=seats,
            chance=Draft.Chance.TABLE,
            setup=setup,
        )
        pairing.draft = draft
        pairing.save(update_fields=["draft"])
    return draft, True


def settle_recorded(draft_id: int, match_id: int) -> Pairing | None:
    """A stored draft's match settles the pairing it was recorded for (``settle_stored``).
    None when the draft was no pairing's."""
    pairing = Pairing.objects.filter(draft_id=draft_id).select_related("tournament").first()
    return None if pairing is None else settle_stored(pairing, match_id)


def settle_stored(pairing: Pairing, match_id: int) -> Pairing:
    """A match stored for ``pairing`` (recorded at the table, or played online) settles
    it as an uploaded log does (the same checks: the event's game, the pairing's players
    in their seats, a finished game). A match that cannot settle it (stopped early; the
    pairing forfeited or swapped meanwhile) stays a match of the club and the pairing
    stays pending, to be played again or uploaded."""
    match = Match.objects.select_related("log").get(pk=match_id)
    try:
        _pending(pairing)
        check_log_matches_pairing(pairing, match.log.document)
        _settle_played(pairing, match)
    except TournamentError as exc:
        logger.info("stored match %s does not settle %s: %s", match_id, pairing, exc)
    pairing.refresh_from_db()
    return pairing


def record_forfeit(pairing: Pairing, absent: Sequence[Entry], reason: str) -> Pairing:
    """A game not played: the absent players score 0, the others 1 (all absent: all 0)."""
    if not reason.strip():
        raise TournamentError(gettext("say why the game was forfeited"))
    with transaction.atomic():
        pairing, tournament = _lock_pending(pairing)
        _settle_forfeit(pairing, absent, reason)
        _after_result(tournament)
    return pairing


def _settle_forfeit(pairing: Pairing, absent: Sequence[Entry], reason: str) -> None:
    seats = list(pairing.seats.select_related("entry__player"))
    absent_ids = {e.id for e in absent}
    strangers = absent_ids - {s.entry_id for s in seats}
    if strangers or not absent_ids:
        raise TournamentError(
            gettext("name the absent players among those of %(pairing)s")
            % {"pairing": _name(pairing)}
        )
    everyone_absent = absent_ids == {s.entry_id for s in seats}
    for seat in seats:
        seat.points = 0.0 if everyone_absent or seat.entry_id in absent_ids else 1.0
        seat.save(update_fields=["points"])
    pairing.status = Pairing.Status.FORFEIT
    pairing.forfeit_reason = reason.strip()
    pairing.completed_at = timezone.now()
    pairing.save(update_fields=["status", "forfeit_reason", "completed_at"])


@transaction.atomic
def swap_entries(tournament: Tournament, first: Entry, second: Entry, reason: str) -> list[Pairing]:
    """Manual override: exchange two players' places in the current round (seats,
    boards, or the bye), in every leg. The pairing program's explanation is kept
    and the reason is recorded on each changed pairing."""
    if not reason.strip():
        raise TournamentError(gettext("a manual override needs its reason"))
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status != Tournament.Status.RUNNING:
        raise TournamentError(gettext("the event is not running"))
    if first.id == second.id:
        raise TournamentError(gettext("choose two different players"))
    round_seats = list(
        PairingSeat.objects.select_related("pairing", "entry__player").filter(
            pairing__tournament=tournament,
            pairing__round=tournament.current_round,
            entry__in=[first, second],
        )
    )
    for seat in round_seats:
        if seat.pairing.status not in (Pairing.Status.PENDING, Pairing.Status.BYE):
            raise TournamentError(
                gettext("%(pairing)s already has its result") % {"pairing": _name(seat.pairing)}
            )
    if {s.entry_id for s in round_seats} != {first.id, second.id}:
        raise TournamentError(gettext("both players must be paired in the current round"))
    changed = {seat.pairing_id: seat.pairing for seat in round_seats}
    # Every seat one of them held now holds the other: that swaps seats within one
    # pairing, boards between two, or who has the bye. Rows are recreated because the
    # (pairing, entry) unique constraint refuses the half-swapped state in between.
    swap = {first.id: second.id, second.id: first.id}
    replacements = [
        PairingSeat(
            pairing_id=s.pairing_id,
            seat=s.seat,
            order=s.order,
            points=s.points,
            entry_id=swap[s.entry_id],
        )
        for s in round_seats
    ]
    PairingSeat.objects.filter(id__in=[s.id for s in round_seats]).delete()
    PairingSeat.objects.bulk_create(replacements)
    _check_forbidden(tournament, changed.values())
    for pairing in changed.values():
        pairing.overridden = True
        pairing.override_reason = (
            pairing.override_reason + "\n" if pairing.override_reason else ""
        ) + (f"{first.player.handle} and {second.player.handle} swapped: {reason.strip()}")
        pairing.save(update_fields=["overridden", "override_reason"])
    return list(changed.values())


def _check_forbidden(tournament: Tournament, changed) -> None:
    forbidden = set(selectors.forbidden_pairs(tournament))
    for pairing in changed:
        ids = list(pairing.seats.values_list("entry_id", flat=True))
        for i, a in enumerate(ids):
            for b in ids[i + 1 :]:
                if frozenset((a, b)) in forbidden:
                    raise TournamentError(gettext("the swap would pair players who are kept apart"))
