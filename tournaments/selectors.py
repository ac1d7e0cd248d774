"""Reads of events (HackSoft style: views and services call these, never build queries)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import Prefetch, QuerySet
from django.shortcuts import get_object_or_404

from clubs.policy import AnyUser, club_visibility
from games import policy as match_policy
from games.models import Match
from tournaments.models import Entry, ForbiddenPairing, Pairing, PairingSeat, Tournament
from tournaments.pairing import Bye, Entrant, History, PlayedGame
from tournaments.seating import layout_of
from tournaments.standings import Row, compute_standings

if TYPE_CHECKING:
    from clubs.models import Club
    from games.models import Match


def visible_tournaments(user: AnyUser) -> QuerySet[Tournament]:
    """Events of the clubs the user can see (clubs.policy)."""
    return Tournament.objects.filter(club__in=_visible_club_ids(user)).select_related("club")


def club_tournaments(club: Club, limit: int) -> QuerySet[Tournament]:
    """A club's latest events (its page lists them)."""
    return Tournament.objects.filter(club=club)[:limit]


def pairing_of(match: Match) -> Pairing | None:
    """The tournament pairing ``match`` was played for, with its event; None for a match
    played outside any event."""
    return Pairing.objects.select_related("tournament").filter(match=match).first()


def _visible_club_ids(user: AnyUser):
    from clubs.models import Club

    return Club.objects.filter(club_visibility(user)).values("id")


def player_choices(tournament: Tournament) -> list[tuple[str, list[tuple[str, str]]]]:
    """Who may be entered, for the organiser's picker, as ``clubs.selectors.seat_picks``
    offers a seat (members by name and handle, a member with no handle yet as
    ``member:<id>``, then the other handles), without those entered already; a handle's
    value is its player's id."""
    from clubs.selectors import MEMBER_PICK, seat_picks

    entered = set(
        tournament.entries.filter(withdrawn=False).values_list("player__handle", flat=True)
    )
    ids = dict(tournament.club.players.values_list("handle", "pk"))
    groups = []
    for group, picks in seat_picks(tournament.club):
        rows = [
            (value if value.startswith(MEMBER_PICK) else str(ids[value]), label)
            for value, label in picks
            if value not in entered
        ]
        if rows:
            groups.append((group, rows))
    return groups


def own_players(user: AnyUser, tournament: Tournament):
    """The club's handles linked to ``user`` (what they may enter themselves with)."""
    from clubs.models import Player

    if not user.is_authenticated:
        return Player.objects.none()
    return Player.objects.filter(club=tournament.club, user=user)


def active_entries(tournament: Tournament) -> QuerySet[Entry]:
    return tournament.entries.filter(withdrawn=False).select_related("player")


def entrants(tournament: Tournament, include_withdrawn: bool = False) -> list[Entrant]:
    """Entries in seed order (rating, then entry order) as the pairing code sees them."""
    entries = tournament.entries.select_related("player").order_by("-seed_rating", "id")
    if not include_withdrawn:
        entries = entries.filter(withdrawn=False)
    return [Entrant(e.id, e.player.handle, e.seed_rating) for e in entries]


def pairings(tournament: Tournament, round_number: int | None = None) -> QuerySet[Pairing]:
    qs = tournament.pairings.prefetch_related(
        Prefetch("seats", queryset=PairingSeat.objects.select_related("entry__player"))
    ).select_related("match", "draft__created_by")
    if round_number is not None:
        qs = qs.filter(round=round_number)
    return qs.order_by("round", "board", "leg")


def history(tournament: Tournament, before_round: int | None = None) -> History:
    """Every settled pairing (played, forfeit, bye) as the pairing code's History."""
    result = History()
    qs = pairings(tournament).exclude(status=Pairing.Status.PENDING)
    if before_round is not None:
        qs = qs.filter(round__lt=before_round)
    for pairing in qs:
        seats = list(pairing.seats.all())
        if pairing.status == Pairing.Status.BYE:
            result.byes.append(Bye(pairing.round, seats[0].entry_id, seats[0].points or 0.0))
            continue
        result.games.append(
            PlayedGame(
                pairing.round,
                tuple((s.seat, s.entry_id) for s in seats),
                {s.entry_id: s.points or 0.0 for s in seats},
                forfeit=pairing.status == Pairing.Status.FORFEIT,
            )
        )
    return result


def forbidden_pairs(tournament: Tournament) -> list[frozenset[int]]:
    return [
        frozenset((f.first_id, f.second_id))
        for f in ForbiddenPairing.objects.filter(tournament=tournament)
    ]


def standings(tournament: Tournament) -> list[Row]:
    """Live standings: every settled result so far, tie-breaks in the event's order."""
    layout = layout_of(tournament.game)
    sides = {} if layout is None else {"side_of": layout.side_of}  # no game: a seat is a side
    return compute_standings(
        entrants(tournament, include_withdrawn=True),
        history(tournament),
        tiebreaks=tournament.tiebreaks,
        **sides,
    )


def round_complete(tournament: Tournament, round_number: int) -> bool:
    return (
        round_number >= 1
        and not tournament.pairings.filter(
            round=round_number, status=Pairing.Status.PENDING
        ).exists()
    )


def played_matches(tournament: Tournament, user: AnyUser) -> QuerySet[Pairing]:
    """Played pairings with their match logs, for the event download by ``user``: less
    the games played online whose logs are still kept from them (``games.policy``)."""
    hidden = Match.objects.filter(match_policy.hidden_from(user, tournament.club))
    return (
        tournament.pairings.filter(status=Pairing.Status.PLAYED)
        .exclude(match__in=hidden)
        .select_related("match__log")
        .prefetch_related("seats__entry__player")
        .order_by("round", "board", "leg")
    )


def crosstable(tournament: Tournament, rows: list[Row]) -> list[tuple[Row, list[str]]]:
    """Each standings row with one cell per round: ``W3`` beat the player ranked 3rd,
    ``L3`` lost to them, ``D3`` neither beat the other, ``+``/``−`` a forfeit won or
    lost, ``bye``; several opponents (a table) are listed with ``/``. Empty: not
    played (yet, or withdrawn)."""
    rank = {row.entrant.id: row.rank for row in rows}
    settled = history(tournament)
    cells: dict[int, dict[int, list[str]]] = {row.entrant.id: {} for row in rows}
    layout = layout_of(tournament.game)
    side_of = layout.side_of if layout is not None else (lambda seat: seat)
    for bye in settled.byes:
        cells.setdefault(bye.player, {}).setdefault(bye.round, []).append("bye")
    for game in settled.games:
        sides = {player: side_of(seat) for seat, player in game.seats}
        for player in sides:
            mine = game.points.get(player, 0.0)
            if game.forfeit:
                cells[player].setdefault(game.round, []).append("+" if mine > 0 else "−")
                continue
            for other, side in sides.items():
                if other == player or side == sides[player]:
                    continue
                theirs = game.points.get(other, 0.0)
                mark = "W" if mine > theirs else "L" if mine < theirs else "D"
                cells[player].setdefault(game.round, []).append(f"{mark}{rank.get(other, '?')}")
    return [
        (
            row,
            [
                " ".join(cells[row.entrant.id].get(n, []))
                for n in range(1, tournament.current_round + 1)
            ],
        )
        for row in rows
    ]


def visible_pairings(user: AnyUser) -> QuerySet[Pairing]:
    """The pairings of the events ``user`` can see, in event, round and board order."""
    return (
        Pairing.objects.filter(tournament__in=visible_tournaments(user))
        .select_related("draft", "table")
        .prefetch_related("seats__entry__player")
        .order_by("tournament", "round", "board", "leg")
    )


def entries_by_ids(tournament: Tournament, entry_ids: list[int]) -> list[Entry]:
    """The event's entries among these ids (others, of other events, left out)."""
    return list(Entry.objects.filter(tournament=tournament, pk__in=entry_ids))


def pairing_with_draft(tournament: Tournament, pairing_id: int) -> Pairing:
    """The event's pairing the URL names, with the draft recording it (404 otherwise)."""
    return get_object_or_404(
        Pairing.objects.select_related("draft"), tournament=tournament, pk=pairing_id
    )
