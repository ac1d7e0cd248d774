"""What ingest_log costs the database, and the behaviour its shortcuts keep: no look-up
for a duplicate before storing (the unique constraint finds it), player ids in one
plain query, one rating task per batch of a bulk import."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

import engine
from clubs.models import Club
from games import services
from games.bundles import write_json_lines
from games.models import Match, Upload
from games.services import ingest_log
from ladder.models import Rating, RatingChange
from tests.games.logs import bot_log, compact

pytestmark = pytest.mark.django_db

CRYPTID = "cryptid-urban-legends"


def statements(captured: CaptureQueriesContext) -> list[str]:
    return [query["sql"] for query in captured.captured_queries]


def test_a_new_match_costs_one_select_and_one_insert_per_table(club):
    text = compact(bot_log(CRYPTID, 1, ["alice", "bob"]))  # both already players of the club
    with CaptureQueriesContext(connection) as captured:
        match = ingest_log(club, text, None)

    assert match.created
    sql = statements(captured)
    selects = [s for s in sql if s.startswith("SELECT")]
    assert len(selects) == 1, selects  # the players' ids; nothing looks for a duplicate first
    assert '"games_player"' in selects[0] and "JOIN" not in selects[0]
    inserted = [s.split()[2] for s in sql if s.startswith("INSERT")]
    assert inserted == ['"games_match"', '"games_matchseat"', '"games_matchlog"', '"games_upload"']
    assert sorted(match.seats.values_list("player__handle", flat=True)) == ["alice", "bob"]


def test_the_same_log_again_is_the_stored_match_and_stores_nothing_else(club):
    text = compact(bot_log(CRYPTID, 2, ["alice", "bob"]))
    first = ingest_log(club, text, None)
    again = ingest_log(club, text, None)

    assert (again.pk, again.created) == (first.pk, False)
    assert Match.objects.count() == 1
    assert first.seats.count() == 2
    assert list(Upload.objects.order_by("id").values_list("status", "match_id")) == [
        ("accepted", first.pk),
        ("duplicate", first.pk),
    ]


def test_a_duplicate_with_new_handles_adds_no_players(club):
    """An organiser's duplicate rolls back the players it would have created with it."""
    first = ingest_log(club, compact(bot_log(CRYPTID, 3, ["alice", "bob"])), None)
    first.seats.update(player=club.players.get(handle="bob"))  # as if alice were merged away
    club.players.filter(handle="alice").delete()

    again = ingest_log(club, compact(bot_log(CRYPTID, 3, ["alice", "bob"])), None)

    assert (again.pk, again.created) == (first.pk, False)
    assert sorted(club.players.values_list("handle", flat=True)) == ["bob"]


def test_a_stored_log_the_engine_now_refuses_is_still_a_duplicate(club, monkeypatch):
    text = compact(bot_log(CRYPTID, 4, ["alice", "bob"]))
    first = ingest_log(club, text, None)

    def refuse(log):
        raise engine.IllegalAction("CUL-1.1", "refused by newer rules", index=0)

    monkeypatch.setattr(services.ingest.engine, "replay", refuse)
    again = ingest_log(club, text, None)

    assert (again.pk, again.created) == (first.pk, False)
    assert Upload.objects.filter(status="duplicate", match=first).count() == 1
    # A log that was never stored is still refused.
    with pytest.raises(services.LogRejected) as refused:
        ingest_log(club, compact(bot_log(CRYPTID, 5, ["alice", "bob"])), None)
    assert (refused.value.code, refused.value.rule) == ("illegal", "CUL-1.1")
    assert Match.objects.count() == 1


def test_a_bulk_import_queues_one_rating_task_per_batch_with_the_same_ratings(
    club, queued_tasks, django_capture_on_commit_callbacks
):
    logs = [
        compact(bot_log(CRYPTID, seed, ["ann", "ben"])) for seed in range(services.IMPORT_BATCH + 5)
    ]
    run = services.create_import(club, write_json_lines(logs), "s.jsonl", None, enqueue=False)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        run = services.run_import(run.pk)
    assert (run.status, run.accepted) == ("done", len(logs))
    assert queued_tasks(callbacks) == ["ladder.rate_matches"] * 2  # two batches, one task each

    finished = Match.objects.filter(club=club, status="valid")
    assert finished.count() > services.IMPORT_BATCH
    assert set(RatingChange.objects.values_list("match_id", flat=True)) == set(
        finished.values_list("pk", flat=True)
    )
    # The same logs uploaded one by one (a rate_match task each) rate the same.
    other = Club.objects.create(name="Other", slug="other")
    for text in logs:
        with django_capture_on_commit_callbacks(execute=True):
            ingest_log(other, text, None)

    def ratings(of: Club) -> dict[str, float]:
        return dict(Rating.objects.filter(ladder__club=of).values_list("player__handle", "rating"))

    assert ratings(club) == pytest.approx(ratings(other), abs=1e-9)
    assert set(ratings(club)) == {"ann", "ben"}


def test_a_bulk_import_batch_writes_seats_logs_and_uploads_with_one_insert_each(club):
    logs = [compact(bot_log(CRYPTID, seed, ["ann", "ben"])) for seed in range(10)]
    run = services.create_import(club, write_json_lines(logs), "s.jsonl", None, enqueue=False)
    with CaptureQueriesContext(connection) as captured:
        run = services.run_import(run.pk)

    assert (run.status, run.accepted) == ("done", 10)
    sql = statements(captured)
    inserts = [s.split()[2] for s in sql if s.startswith("INSERT")]
    assert inserts.count('"games_match"') == 10
    assert inserts.count('"games_matchseat"') == 1
    assert inserts.count('"games_matchlog"') == 1
    assert inserts.count('"games_upload"') == 1
    # ann and ben: looked up, created and read back by the first log; the other nine
    # logs of the batch do not ask again.
    assert sum('FROM "games_player"' in s for s in sql) == 2
    for match in Match.objects.filter(club=club):
        assert sorted(match.seats.values_list("player__handle", flat=True)) == ["ann", "ben"]
        assert match.log.content_hash == match.content_hash
    assert Upload.objects.filter(import_run=run, status="accepted").count() == 10


def test_a_handle_created_for_a_duplicate_in_a_batch_is_not_reused(club):
    """A duplicate's new handles are undone with it: the next log of the batch that names
    the same handle creates it again rather than pointing at a player that is gone."""
    stored = ingest_log(club, compact(bot_log(CRYPTID, 6, ["ann", "zed"])), None)
    stored.seats.filter(player__handle="zed").update(player=club.players.get(handle="ann"))
    club.players.filter(handle="zed").delete()  # as if zed were merged into ann
    logs = [
        compact(bot_log(CRYPTID, 6, ["ann", "zed"])),  # the stored log again: a duplicate
        compact(bot_log(CRYPTID, 7, ["ann", "zed"])),  # new
    ]
    run = services.create_import(club, write_json_lines(logs), "s.jsonl", None, enqueue=False)
    run = services.run_import(run.pk)

    assert (run.status, run.accepted, run.duplicates) == ("done", 1, 1)
    new = Match.objects.exclude(pk=stored.pk).get()
    assert sorted(new.seats.values_list("player__handle", flat=True)) == ["ann", "zed"]
    assert club.players.filter(handle="zed").count() == 1
