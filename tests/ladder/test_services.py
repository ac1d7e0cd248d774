"""Rating stored matches: incremental, back-dated, voided, recomputed (ratings.md)."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.db import connection

import engine
from clubs.models import Club
from games.models import Match
from ladder import services
from ladder.models import Ladder, Rating, RatingChange, RecomputeJob
from ladder.services import Outcome, apply_match, recompute_ladder
from tests.ladder.factories import BASE, make_match, random_matches

pytestmark = pytest.mark.django_db

CRYPTID = "cryptid-urban-legends"


def standings(club: Club, game: str) -> dict[str, tuple]:
    """Every rating of the ladder, exactly (floats compared to the last digit)."""
    return {
        r.player.handle: (r.rating, r.games, r.wins, r.losses, r.roles, r.provisional)
        for r in Rating.objects.filter(ladder__club=club, ladder__game=game).select_related(
            "player"
        )
    }


def history(club: Club, game: str) -> list[tuple]:
    return [
        (
            c.sequence,
            c.match.content_hash,
            c.player.handle,
            c.before,
            c.after,
            c.expected,
            c.score,
            c.k,
            c.weight,
            c.advantage,
            c.opponent_rating,
            c.won,
        )
        for c in RatingChange.objects.filter(ladder__club=club, ladder__game=game)
        .select_related("match", "player")
        .order_by("sequence", "player__handle")
    ]


def test_first_match_creates_the_ladder_and_rates_it(club):
    # New ladder, default options (EL-1.1): both 1500, K 64 (provisional), the role
    # advantage estimated from no history: p = 1/2, adv 0. E = 0.5.
    # The scientist wins: +64 * 0.5 = +32 -> 1532; the cryptid 1468.
    match = make_match(
        club, CRYPTID, [("cryptid", "ann"), ("scientist", "ben")], "scientist", played_at=BASE
    )
    assert apply_match(match.pk) == Outcome.RATED
    ladder = Ladder.objects.get(club=club, game=CRYPTID)
    assert ladder.options == {} and ladder.role_tallies == {"cryptid": [0, 1]}
    assert standings(club, CRYPTID) == {
        "ann": (1468.0, 1, 0, 1, {"cryptid": {"wins": 0, "losses": 1}}, True),
        "ben": (1532.0, 1, 1, 0, {"scientist": {"wins": 1, "losses": 0}}, True),
    }
    ben = Rating.objects.get(player__handle="ben")
    assert ben.display == "1532?"
    change = RatingChange.objects.get(player__handle="ben")
    assert (
        change.before,
        change.after,
        change.expected,
        change.score,
        change.k,
        change.advantage,
        change.sequence,
    ) == (1500.0, 1532.0, 0.5, 1.0, 64.0, 0.0, 1)


def test_rating_twice_changes_nothing(club):
    match = make_match(
        club, CRYPTID, [("cryptid", "ann"), ("scientist", "ben")], "cryptid", played_at=BASE
    )
    assert apply_match(match.pk) == Outcome.RATED
    before = (standings(club, CRYPTID), history(club, CRYPTID))
    assert apply_match(match.pk) == Outcome.ALREADY_RATED
    assert (standings(club, CRYPTID), history(club, CRYPTID)) == before
    assert RatingChange.objects.count() == 2


def test_recompute_is_idempotent_and_equals_incremental(club):
    for spec in random_matches(seed=3, count=30):
        apply_match(make_match(club, **spec).pk)
    games = {CRYPTID, "mister-x", "cloak-and-dagger"}
    incremental = {g: (standings(club, g), history(club, g)) for g in games}
    for ladder in Ladder.objects.filter(club=club):
        recompute_ladder(ladder.pk)
        recompute_ladder(ladder.pk)
    assert {g: (standings(club, g), history(club, g)) for g in games} == incremental


def test_el_1_2_unfinished_rejected_and_void_matches_are_never_rated(club):
    unfinished = make_match(
        club,
        CRYPTID,
        [("cryptid", "ann"), ("scientist", "ben")],
        "",
        status=Match.Status.UNFINISHED,
        played_at=BASE,
    )
    rejected = make_match(
        club,
        CRYPTID,
        [("cryptid", "ann"), ("scientist", "ben")],
        "",
        status=Match.Status.REJECTED,
        played_at=BASE,
    )
    void = make_match(
        club, CRYPTID, [("cryptid", "ann"), ("scientist", "ben")], "cryptid", played_at=BASE
    )
    Match.objects.filter(pk=void.pk).update(is_void=True)
    for match in (unfinished, rejected, void):
        assert apply_match(match.pk) == Outcome.NOT_RATED
    assert not RatingChange.objects.exists() and not Rating.objects.exists()


def test_voiding_a_rated_match_recomputes_without_it(club):
    first = make_match(
        club, CRYPTID, [("cryptid", "ann"), ("scientist", "ben")], "cryptid", played_at=BASE
    )
    second = make_match(
        club,
        CRYPTID,
        [("cryptid", "ben"), ("scientist", "cat")],
        "cryptid",
        played_at=BASE + timedelta(days=1),
    )
    apply_match(first.pk)
    apply_match(second.pk)
    Match.objects.filter(pk=first.pk).update(is_void=True)
    assert apply_match(first.pk) == Outcome.RECOMPUTED
    # Only the second match remains: ben and cat new, 1500 each, adv 0 (no history),
    # ben (cryptid) wins: 1532 / 1468. ann has no rating left.
    assert standings(club, CRYPTID) == {
        "ben": (1532.0, 1, 1, 0, {"cryptid": {"wins": 1, "losses": 0}}, True),
        "cat": (1468.0, 1, 0, 1, {"scientist": {"wins": 0, "losses": 1}}, True),
    }
    job = RecomputeJob.objects.get()
    assert (job.reason, job.status, job.progress, job.total) == ("changed", "done", 1, 1)


def test_order_of_storage_does_not_change_ratings():
    """Same matches stored in order, shuffled, or with a back-dated one: identical
    ratings and history to the last digit."""
    specs = random_matches(seed=11, count=45)
    in_order = sorted(specs, key=lambda s: s["played_at"])
    shuffled = list(specs)
    random.Random(5).shuffle(shuffled)
    results = []
    for n, order in enumerate((in_order, shuffled)):
        club = Club.objects.create(name=f"Club {n}", slug=f"club-{n}")
        for spec in order:
            apply_match(make_match(club, **spec).pk)
        results.append(
            {
                g: (standings(club, g), history(club, g))
                for g in (CRYPTID, "mister-x", "cloak-and-dagger")
            }
        )
    assert results[0] == results[1]
    # Shuffled arrival means back-dated uploads, and those recomputed the ladder.
    assert RecomputeJob.objects.filter(reason="backdated", status="done").exists()
    assert sum(len(h) for _, h in results[0].values()) > 0


def test_back_dated_upload_gives_the_in_order_ratings():
    # ann beats ben on day 1 and day 3, then a day-2 match (ben beats ann) arrives last.
    specs = [
        ({"cryptid": "ann", "scientist": "ben"}, "cryptid", 1),
        ({"cryptid": "ben", "scientist": "ann"}, "cryptid", 2),
        ({"cryptid": "ann", "scientist": "ben"}, "cryptid", 3),
    ]
    results = []
    for n, arrival in enumerate(([0, 1, 2], [0, 2, 1])):
        club = Club.objects.create(name=f"Club {n}", slug=f"club-{n}")
        outcomes = []
        for i in arrival:
            seats, winner, day = specs[i]
            match = make_match(
                club,
                CRYPTID,
                list(seats.items()),
                winner,
                played_at=BASE + timedelta(days=day),
                content_hash=f"{i + 1:064x}",
            )
            outcomes.append(apply_match(match.pk))
        results.append((standings(club, CRYPTID), history(club, CRYPTID)))
        if n == 1:
            assert outcomes == [Outcome.RATED, Outcome.RATED, Outcome.RECOMPUTED]
    assert results[0] == results[1]


def test_same_played_at_is_ordered_by_match_id(club):
    # Two matches at the same minute: the lower id is rated first, whatever arrives when.
    first = make_match(
        club, CRYPTID, [("cryptid", "ann"), ("scientist", "ben")], "cryptid", played_at=BASE
    )
    second = make_match(
        club, CRYPTID, [("cryptid", "ann"), ("scientist", "cat")], "cryptid", played_at=BASE
    )
    apply_match(second.pk)
    assert apply_match(first.pk) == Outcome.RECOMPUTED
    order = list(
        RatingChange.objects.filter(player__handle="ann").values_list("match_id", flat=True)
    )
    assert order == [first.pk, second.pk]


def test_mister_x_pawns_come_from_the_log(club):
    # det1 2 pawns, det2 2, det3 1 (options.pawns). All new: 1500, K 64, adv 0 (no history).
    # T = 1500, E_mrx = 0.5; detectives win: X -32; det 64 * 0.4 * 0.5 = 12.8, 12.8, 6.4.
    match = make_match(
        club,
        "mister-x",
        [("mrx", "xav"), ("det1", "ann"), ("det2", "ben"), ("det3", "cat")],
        "detectives",
        played_at=BASE,
        pawns={"det1": ["red", "blue"], "det2": ["green", "yellow"], "det3": ["black"]},
    )
    apply_match(match.pk)
    rated = {h: s[0] for h, s in standings(club, "mister-x").items()}
    assert rated == pytest.approx(
        {"xav": 1468.0, "ann": 1512.8, "ben": 1512.8, "cat": 1506.4}, abs=1e-9
    )
    weights = dict(RatingChange.objects.values_list("player__handle", "weight"))
    assert weights == {"xav": 1.0, "ann": 0.4, "ben": 0.4, "cat": 0.2}


def test_mister_x_default_pawn_shares():
    # MX-6.10 default: 5 pawns over 3 seats -> 2, 2, 1 (the first seats take one more).
    # The ladder asks the engine (Game.team_shares), which deals the board's pawns.
    game = engine.get_game("mister-x")
    assert game.team_shares({}, ["mrx", "det3", "det1", "det2"]) == {
        "det1": 2,
        "det2": 2,
        "det3": 1,
    }
    assert game.team_shares(
        {"pawns": {"det1": ["red"], "det2": ["blue", "green", "yellow", "black"]}},
        ["mrx", "det1", "det2"],
    ) == {"det1": 1, "det2": 4}


def test_a_crash_while_swapping_leaves_the_previous_ratings(club, monkeypatch):
    for spec in random_matches(seed=5, count=12):
        apply_match(make_match(club, **spec).pk)
    before = {g: (standings(club, g), history(club, g)) for g in (CRYPTID, "mister-x")}
    ladder = Ladder.objects.get(club=club, game=CRYPTID)
    real_insert = services.recompute.insert_changes

    def crash_after_changes(rows):
        real_insert(rows)  # the new history is in (inside the swap's transaction)...
        raise RuntimeError("worker lost")  # ...and the worker dies before the ratings

    monkeypatch.setattr(services.recompute, "insert_changes", crash_after_changes)
    with pytest.raises(RuntimeError, match="worker lost"):
        recompute_ladder(ladder.pk)
    assert {g: (standings(club, g), history(club, g)) for g in (CRYPTID, "mister-x")} == before
    job = RecomputeJob.objects.filter(ladder=ladder).latest("id")
    assert job.status == "failed" and job.error == "RuntimeError: worker lost"


def test_recompute_reads_in_a_fixed_number_of_queries(club, django_assert_max_num_queries):
    for spec in random_matches(seed=8, count=40):
        make_match(club, **spec)
    services.ensure_ladders()
    ladder = Ladder.objects.get(club=club, game="mister-x")
    # reads: ladder, matches, seats, pawns; writes: deletes, batched inserts, ladder,
    # job bookkeeping — no query per match or per row.
    with django_assert_max_num_queries(20):
        recompute_ladder(ladder.pk)
    assert Rating.objects.filter(ladder=ladder).exists()
    assert connection.vendor in {"sqlite", "postgresql"}


def test_back_dated_match_recomputes_from_its_date_only(club):
    days = [0, 1, 2, 4, 5]
    matches = [
        make_match(
            club,
            CRYPTID,
            [("cryptid", "ann"), ("scientist", "ben")],
            "cryptid" if d % 2 else "scientist",
            played_at=BASE + timedelta(days=d),
        )
        for d in days
    ]
    for match in matches:
        apply_match(match.pk)
    kept = list(
        RatingChange.objects.filter(sequence__lte=3)
        .order_by("id")
        .values_list("id", "sequence", "after")
    )
    late = make_match(
        club,
        CRYPTID,
        [("cryptid", "cat"), ("scientist", "ann")],
        "cryptid",
        played_at=BASE + timedelta(days=3),
    )
    assert apply_match(late.pk) == Outcome.RECOMPUTED
    job = RecomputeJob.objects.get()
    # Only the back-dated match (day 3) and the two after it were rated again.
    assert (job.reason, job.status, job.total) == ("backdated", "done", 3)
    assert (
        list(
            RatingChange.objects.filter(sequence__lte=3)
            .order_by("id")
            .values_list("id", "sequence", "after")
        )
        == kept
    )
    assert list(RatingChange.objects.filter(match=late).values_list("sequence", flat=True)) == [
        4,
        4,
    ]
    full = (standings(club, CRYPTID), history(club, CRYPTID))
    recompute_ladder(Ladder.objects.get().pk)
    assert (standings(club, CRYPTID), history(club, CRYPTID)) == full
    ladder = Ladder.objects.get()
    assert (ladder.rated_matches, ladder.last_rated_match_id) == (6, matches[-1].pk)


def test_one_recompute_rates_every_waiting_back_dated_match(club):
    """A bulk import queues one task per match; the first back-dated one rates all the
    matches still waiting, the later tasks find theirs rated."""
    newest = make_match(
        club,
        CRYPTID,
        [("cryptid", "ann"), ("scientist", "ben")],
        "cryptid",
        played_at=BASE + timedelta(days=10),
    )
    apply_match(newest.pk)
    waiting = [
        make_match(
            club,
            CRYPTID,
            [("cryptid", "ben"), ("scientist", "cat")],
            "scientist",
            played_at=BASE + timedelta(days=d),
        )
        for d in (5, 2, 7)
    ]
    assert apply_match(waiting[0].pk) == Outcome.RECOMPUTED
    assert [apply_match(m.pk) for m in waiting[1:]] == [Outcome.ALREADY_RATED] * 2
    job = RecomputeJob.objects.get()
    assert job.total == 4  # days 2, 5, 7 and 10
    in_order = Club.objects.create(name="In order", slug="in-order")
    for match in sorted([newest, *waiting], key=lambda m: m.played_at):
        seats = [(s.seat, s.player.handle) for s in match.seats.select_related("player")]
        apply_match(
            make_match(in_order, CRYPTID, seats, match.winner, played_at=match.played_at).pk
        )
    assert standings(club, CRYPTID) == standings(in_order, CRYPTID)


def test_nightly_task_recomputes_every_ladder_and_creates_missing_ones(club):
    from config.celery import app
    from ladder.tasks import recompute_all_ladders

    entry = app.conf.beat_schedule["ladder-nightly-recompute"]
    assert entry["task"] == "ladder.recompute_all_ladders" == recompute_all_ladders.name
    specs = random_matches(seed=2, count=12)
    for spec in specs:
        make_match(club, **spec)  # stored, never rated (e.g. the worker was down)
    games = {spec["game"] for spec in specs}
    assert len(games) == 3 and not Ladder.objects.exists()
    assert recompute_all_ladders() == Ladder.objects.count() == 3
    assert RecomputeJob.objects.filter(reason="nightly", status="done").count() == 3
    assert RatingChange.objects.values("match").distinct().count() == 12


def test_a_match_the_kernel_refuses_is_skipped_and_reported(club):
    # One player in both Cryptid seats (EL-4 has two players): never rated, the other
    # matches are, and the recompute says which match it left out and why.
    good = make_match(
        club, CRYPTID, [("cryptid", "ann"), ("scientist", "ben")], "cryptid", played_at=BASE
    )
    odd = make_match(
        club,
        CRYPTID,
        [("cryptid", "ann"), ("scientist", "ann")],
        "cryptid",
        played_at=BASE + timedelta(days=1),
    )
    assert apply_match(good.pk) == Outcome.RATED
    assert apply_match(odd.pk) == Outcome.NOT_RATED
    job = recompute_ladder(Ladder.objects.get().pk)
    assert (job.status, job.total) == ("done", 1)
    assert job.error == f"match {odd.pk} not rated: EL-4: a player cannot hold both seats"
    assert not RatingChange.objects.filter(match=odd).exists()
    assert dict(Rating.objects.values_list("player__handle", "rating")) == {
        "ann": 1532.0,
        "ben": 1468.0,
    }


def test_a_recompute_rewrites_history_only_from_the_first_match_that_changed(club):
    for spec in random_matches(seed=11, count=36):
        apply_match(make_match(club, **spec).pk)
    ladder = Ladder.objects.get(club=club, game=CRYPTID)

    def stored_rows() -> list[tuple[int, int]]:
        return list(
            RatingChange.objects.filter(ladder=ladder)
            .order_by("sequence", "id")
            .values_list("id", "sequence")
        )

    rated = stored_rows()
    incremental = (standings(club, CRYPTID), history(club, CRYPTID))
    recompute_ladder(ladder.pk)  # the same matches: the same history, left where it is
    assert stored_rows() == rated
    assert (standings(club, CRYPTID), history(club, CRYPTID)) == incremental

    middle = rated[len(rated) // 2][1]
    voided = (
        RatingChange.objects.filter(ladder=ladder, sequence=middle)
        .values_list("match_id", flat=True)
        .first()
    )
    Match.objects.filter(pk=voided).update(is_void=True)
    recompute_ladder(ladder.pk)
    after = stored_rows()
    kept = [row for row in rated if row[1] < middle]
    assert after[: len(kept)] == kept  # before the voided match: untouched rows
    assert not {row_id for row_id, _ in after[len(kept) :]} & {row_id for row_id, _ in rated}
    assert len(after) == len(rated) - 2  # the voided match's two changes are gone

    # ...and it is exactly what a recompute from an empty history gives.
    partly_rewritten = (standings(club, CRYPTID), history(club, CRYPTID))
    RatingChange.objects.filter(ladder=ladder).delete()
    Rating.objects.filter(ladder=ladder).delete()
    recompute_ladder(ladder.pk)
    assert (standings(club, CRYPTID), history(club, CRYPTID)) == partly_rewritten


def test_a_back_dated_match_is_computed_once_holding_the_ladder_lock(club, monkeypatch):
    """Uploads keep rating a busy ladder: a back-dated one computes while holding the
    ladder's lock from the start (once), instead of computing without it and being
    overtaken by the next rating (then computing again, up to four times)."""
    for d in (0, 1, 2):
        apply_match(
            make_match(
                club,
                CRYPTID,
                [("cryptid", "ann"), ("scientist", "ben")],
                "cryptid",
                played_at=BASE + timedelta(days=d),
            ).pk
        )
    calls = []
    compute = services.recompute.compute_ladder

    def watched(ladder, progress=None, since=None):
        # Inside the test's transaction, one more atomic block (a savepoint) is the
        # one that took the ladder's lock (select_for_update) before computing.
        calls.append(len(connection.savepoint_ids))
        return compute(ladder, progress, since)

    monkeypatch.setattr(services.recompute, "compute_ladder", watched)
    late = make_match(
        club,
        CRYPTID,
        [("cryptid", "cat"), ("scientist", "ann")],
        "scientist",
        played_at=BASE + timedelta(hours=12),
    )
    assert apply_match(late.pk) == Outcome.RECOMPUTED
    assert calls == [1]
    assert RatingChange.objects.filter(match=late).count() == 2
    assert Ladder.objects.get().rated_matches == 4
