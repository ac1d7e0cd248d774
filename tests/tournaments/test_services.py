"""Event services without logs: setup, pairing rounds, byes, forfeits, overrides, constraints."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from clubs.models import Club, Player
from config.errors import http_status
from tournaments import selectors, services
from tournaments.models import Entry, ForbiddenPairing, Pairing, PairingSeat, Tournament

pytestmark = pytest.mark.django_db


def refused(create) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        create()


def handles(pairing: Pairing) -> list[tuple[str, str]]:
    return [(s.seat, s.entry.player.handle) for s in pairing.seats.all()]


def test_start_pairs_round_one_with_a_bye_for_the_lowest_seed(make_event):
    tournament = services.start_tournament(make_event(5))
    assert tournament.status == "running" and tournament.current_round == 1
    rows = list(selectors.pairings(tournament, 1))
    assert [handles(p) for p in rows] == [
        [("cryptid", "p01"), ("scientist", "p03")],
        [("cryptid", "p04"), ("scientist", "p02")],
        [("bye", "p05")],
    ]
    bye = rows[2]
    assert bye.status == "bye" and bye.seats.get().points == 1.0
    assert "bye: odd number of players; p05" in bye.explanation


def test_forfeits_complete_the_round_and_the_next_round_is_paired_by_itself(
    make_event, django_capture_on_commit_callbacks
):
    tournament = services.start_tournament(make_event(4, rounds=2))
    first, second = selectors.pairings(tournament, 1)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        services.record_forfeit(first, [first.seats.get(seat="scientist").entry], "no show")
    assert callbacks == []  # the round is not complete yet
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        services.record_forfeit(second, [second.seats.get(seat="cryptid").entry], "ill")
    assert len(callbacks) == 1
    tournament.refresh_from_db()
    assert tournament.current_round == 2
    # Winners p01 and p02 meet; losers too. A forfeit is no game played, so nobody
    # has a role due: the higher seed takes cryptid on board 1, scientist on board 2.
    assert [handles(p) for p in selectors.pairings(tournament, 2)] == [
        [("cryptid", "p01"), ("scientist", "p02")],
        [("cryptid", "p04"), ("scientist", "p03")],
    ]
    # Pairing the same round again (a late organiser request, a retried task): no-op.
    assert services.pair_round(tournament.id, 2) is False
    assert Pairing.objects.filter(tournament=tournament, round=2).count() == 2
    for pairing in selectors.pairings(tournament, 2):
        services.record_forfeit(pairing, [pairing.seats.first().entry], "late")
    tournament.refresh_from_db()
    assert tournament.status == "finished"


def test_forfeit_points_and_standings(make_event):
    tournament = services.start_tournament(make_event(2, rounds=1))
    (pairing,) = selectors.pairings(tournament, 1)
    p01 = Entry.objects.get(player__handle="p01")
    services.record_forfeit(pairing, [p01], "did not come")
    rows = selectors.standings(tournament)
    assert [(r.entrant.name, r.points, r.played) for r in rows] == [("p02", 1, 0), ("p01", 0, 0)]


def test_double_forfeit_scores_nobody(make_event):
    tournament = services.start_tournament(make_event(2, rounds=1))
    (pairing,) = selectors.pairings(tournament, 1)
    services.record_forfeit(pairing, list(tournament.entries.all()), "both absent")
    assert sorted(pairing.seats.values_list("points", flat=True)) == [0.0, 0.0]


def test_a_result_cannot_be_recorded_twice(make_event):
    tournament = services.start_tournament(make_event(2, rounds=1))
    (pairing,) = selectors.pairings(tournament, 1)
    services.record_forfeit(pairing, [pairing.seats.first().entry], "absent")
    with pytest.raises(services.TournamentError, match="already has its result"):
        services.record_forfeit(pairing, [pairing.seats.first().entry], "absent")


def test_a_refusal_keeps_its_code_and_status(make_event):
    """A TournamentError (a ``config.errors.Refusal``) is ``refused`` (422) unless it names
    its kind: a pairing settled already is ``settled`` (409), the sentence its body's."""
    tournament = services.start_tournament(make_event(2, rounds=1))
    (pairing,) = selectors.pairings(tournament, 1)
    services.record_forfeit(pairing, [pairing.seats.first().entry], "absent")
    with pytest.raises(services.TournamentError) as exc:
        services.record_forfeit(pairing, [pairing.seats.first().entry], "absent")
    body = exc.value.as_dict()
    assert (body["error"], body["index"], body["rule"]) == ("settled", None, None)
    assert body["message"].endswith("already has its result (forfeit)"), body
    assert set(body) == {"error", "index", "rule", "message"}
    assert http_status(exc.value) == 409
    with pytest.raises(services.TournamentError) as exc:
        services.request_next_round(services.start_tournament(make_event(4)))
    assert (exc.value.code, http_status(exc.value)) == ("refused", 422)


def test_next_round_needs_every_result(make_event):
    tournament = services.start_tournament(make_event(4))
    with pytest.raises(services.TournamentError, match="round 1 still has results to come"):
        services.request_next_round(tournament)


def test_round_robin_sets_rounds_and_meets_everyone(make_event, django_capture_on_commit_callbacks):
    tournament = services.start_tournament(make_event(5, format="round_robin"))
    assert tournament.rounds == 5
    met = set()
    while tournament.status == "running":
        for pairing in selectors.pairings(tournament, tournament.current_round):
            if pairing.status == "pending":
                ids = [s.entry_id for s in pairing.seats.all()]
                met.add(frozenset(ids))
                with django_capture_on_commit_callbacks(execute=True):
                    services.record_forfeit(pairing, [pairing.seats.last().entry], "test")
        tournament.refresh_from_db()
    assert len(met) == 10
    assert all(r.byes == 1 for r in selectors.standings(tournament))


def test_forbidden_pairing_is_kept_apart(make_event):
    tournament = make_event(4)
    p01 = Entry.objects.get(player__handle="p01")
    p03 = Entry.objects.get(player__handle="p03")
    services.forbid_pairing(tournament, p03, p01, "siblings")
    services.start_tournament(tournament)
    pairs = {
        frozenset(s.entry_id for s in p.seats.all()) for p in selectors.pairings(tournament, 1)
    }
    assert frozenset((p01.id, p03.id)) not in pairs
    with pytest.raises(services.TournamentError, match="already kept apart"):
        services.forbid_pairing(tournament, p01, p03, "again")


def test_swap_is_a_manual_override_with_its_reason(make_event):
    tournament = services.start_tournament(make_event(5))
    p01, p05 = (Entry.objects.get(player__handle=h) for h in ("p01", "p05"))
    changed = services.swap_entries(tournament, p01, p05, "p01 arrives late")
    assert len(changed) == 2
    rows = list(selectors.pairings(tournament, 1))
    assert handles(rows[0]) == [("cryptid", "p05"), ("scientist", "p03")]
    assert handles(rows[2]) == [("bye", "p01")]
    assert rows[0].overridden and "p01 and p05 swapped: p01 arrives late" in rows[0].override_reason
    assert "bye: odd number of players; p05" in rows[2].explanation  # the program's reason stays
    # Swapping within one pairing exchanges the roles.
    p03 = Entry.objects.get(player__handle="p03")
    services.swap_entries(tournament, p05, p03, "role preference")
    assert handles(selectors.pairings(tournament, 1)[0]) == [
        ("cryptid", "p03"),
        ("scientist", "p05"),
    ]
    with pytest.raises(services.TournamentError, match="needs its reason"):
        services.swap_entries(tournament, p05, p03, " ")


def test_swap_refuses_a_forbidden_pairing(make_event):
    tournament = make_event(4)
    p01, p02, p03 = (Entry.objects.get(player__handle=h) for h in ("p01", "p02", "p03"))
    services.forbid_pairing(tournament, p01, p02, "same team")
    services.start_tournament(tournament)
    # Round 1: p01 v p03, p04 v p02; moving p03 out for p02 would seat p01 v p02.
    with pytest.raises(services.TournamentError, match="kept apart"):
        services.swap_entries(tournament, p03, p02, "try")
    assert handles(selectors.pairings(tournament, 1)[0]) == [
        ("cryptid", "p01"),
        ("scientist", "p03"),
    ]


def test_setup_errors_are_plain_sentences(club, make_event):
    with pytest.raises(services.TournamentError, match="unknown game"):
        services.create_tournament(club=club, name="x", game="chess", format="swiss", rounds=3)
    with pytest.raises(services.TournamentError, match="needs its number of rounds"):
        services.create_tournament(club=club, name="x", game="mister-x", format="swiss")
    with pytest.raises(services.TournamentError, match="head-to-head is a tie-break of two"):
        services.create_tournament(
            club=club,
            name="x",
            game="mister-x",
            format="swiss",
            rounds=3,
            tiebreaks=["head_to_head"],
        )
    with pytest.raises(services.TournamentError, match="for tables of 4 use the Swiss"):
        services.create_tournament(
            club=club, name="x", game="cloak-and-dagger", format="round_robin"
        )
    tournament = make_event(2)
    other = Club.objects.create(name="Other", slug="other")
    stranger = Player.objects.create(club=other, handle="zed")
    with pytest.raises(services.TournamentError, match="zed is not a player of"):
        services.add_entry(tournament, stranger)
    with pytest.raises(services.TournamentError, match="already entered"):
        services.add_entry(tournament, Player.objects.get(handle="p01"))


def test_tables_event_seats_mister_x_tables(make_event):
    tournament = services.start_tournament(make_event(7, game="mister-x", table_size=4))
    rows = list(selectors.pairings(tournament, 1))
    assert [len(p.seats.all()) for p in rows] == [4, 3]
    assert [s.seat for s in rows[0].seats.all()] == ["mrx", "det1", "det2", "det3"]


def test_database_refuses_inconsistent_pairings(make_event):
    tournament = services.start_tournament(make_event(2, rounds=1))
    (pairing,) = selectors.pairings(tournament, 1)
    entry = pairing.seats.first().entry

    def played_without_match():
        Pairing.objects.filter(pk=pairing.pk).update(status="played")

    def override_without_reason():
        Pairing.objects.filter(pk=pairing.pk).update(overridden=True)

    def same_board_twice():
        Pairing.objects.create(tournament=tournament, round=1, board=1, explanation="x")

    def entry_twice_in_a_pairing():
        PairingSeat.objects.create(pairing=pairing, seat="extra", entry=entry, order=5)

    def forbidden_unordered():
        a, b = sorted(Entry.objects.filter(tournament=tournament), key=lambda e: -e.id)
        ForbiddenPairing.objects.create(tournament=tournament, first=a, second=b, reason="x")

    def round_beyond_rounds():
        Tournament.objects.filter(pk=tournament.pk).update(current_round=5)

    def double_at_a_table():
        Tournament.objects.filter(pk=tournament.pk).update(table_size=4, double=True)

    for write in (
        played_without_match,
        override_without_reason,
        same_board_twice,
        entry_twice_in_a_pairing,
        forbidden_unordered,
        round_beyond_rounds,
        double_at_a_table,
    ):
        refused(write)


def test_seed_rating_defaults_to_the_ladder_rating(club, make_event):
    from ladder.models import Ladder, Rating

    tournament = make_event(0)
    ann = Player.objects.create(club=club, handle="ann")
    bob = Player.objects.create(club=club, handle="bob")
    assert services.add_entry(tournament, ann).seed_rating == 1500.0  # no ladder yet
    ladder = Ladder.objects.create(
        club=club, game="cryptid-urban-legends", options={"initial": 1400}
    )
    Rating.objects.create(ladder=ladder, player=bob, rating=1612.5)
    assert services.add_entry(tournament, bob).seed_rating == 1612.5
    cat = Player.objects.create(club=club, handle="cat")
    assert services.add_entry(tournament, cat).seed_rating == 1400.0  # the ladder's initial


def test_withdrawn_players_are_left_out_of_swiss_rounds(
    make_event, django_capture_on_commit_callbacks
):
    tournament = services.start_tournament(make_event(4, rounds=2))
    p04 = Entry.objects.get(player__handle="p04")
    services.withdraw_entry(p04)
    with django_capture_on_commit_callbacks(execute=True):
        for pairing in selectors.pairings(tournament, 1):
            services.record_forfeit(pairing, [pairing.seats.last().entry], "test")
    round_two = [
        [s.entry.player.handle for s in p.seats.all()] for p in selectors.pairings(tournament, 2)
    ]
    assert sorted(h for hs in round_two for h in hs) == ["p01", "p02", "p03"]
    assert len(selectors.standings(tournament)) == 4  # still in the standings


def test_withdrawn_players_forfeit_their_round_robin_games(
    make_event, django_capture_on_commit_callbacks
):
    tournament = services.start_tournament(make_event(4, format="round_robin"))
    p02 = Entry.objects.get(player__handle="p02")
    services.withdraw_entry(p02)
    with django_capture_on_commit_callbacks(execute=True):
        for pairing in selectors.pairings(tournament, 1):
            services.record_forfeit(pairing, [pairing.seats.last().entry], "test")
    later = [
        p
        for p in selectors.pairings(tournament, 2)
        if p02.id in {s.entry_id for s in p.seats.all()}
    ]
    assert len(later) == 1 and later[0].status == "forfeit"
    assert later[0].forfeit_reason == "withdrawn from the event"
    assert later[0].seats.get(entry=p02).points == 0.0


def test_strict_role_parity_is_an_option_of_two_seat_swiss_only(make_event):
    assert make_event(4, strict_role_parity=True).strict_role_parity is True
    assert make_event(4).strict_role_parity is False
    for options in [
        {"double": True},
        {"format": "round_robin"},
        {"game": "mister-x", "table_size": 3},
    ]:
        with pytest.raises(
            services.TournamentError,
            match="strict role parity is an option "
            "of two-player Swiss events with one game per pairing",
        ):
            make_event(4, strict_role_parity=True, **options)
    tournament = make_event(4)
    refused(
        lambda: Tournament.objects.filter(pk=tournament.pk).update(
            strict_role_parity=True, double=True
        )
    )
