"""Match lists with filters and cursor pages, exports, unfinished logs, revalidation."""

from __future__ import annotations

import hashlib
import io
import json
import zipfile

import pytest
from django.core.management import call_command

from clubs.models import Club
from games import services
from games.models import Match, MatchLog, MatchSeat, Upload
from tests.games.logs import bot_log, corrupt

pytestmark = pytest.mark.django_db

CRYPTID, MISTER_X = "cryptid-urban-legends", "mister-x"


def store(club: Club, log: dict) -> Match:
    return services.ingest_log(club, log, None, source=Upload.Source.SITE)


@pytest.fixture
def season(club):
    """Five matches: three cryptid (alice/bob, alice/cat, dan/bob) in November, two Mister X."""
    played = [
        (CRYPTID, ["alice", "bob"], "2026-11-02T19:00:00Z"),
        (CRYPTID, ["alice", "cat"], "2026-11-09T19:00:00Z"),
        (CRYPTID, ["dan", "bob"], "2026-11-16T19:00:00Z"),
        (MISTER_X, ["alice", "dan", "cat"], "2026-11-10T19:00:00Z"),
        (MISTER_X, ["bob", "cat", "dan"], "2026-10-30T19:00:00Z"),
    ]
    return [
        store(club, bot_log(game, seed, players, played_at=when))
        for seed, (game, players, when) in enumerate(played)
    ]


def ids(response) -> list[int]:
    return [m["id"] for m in response.json()["results"]]


def test_filters_by_game_player_dates_and_status(api, season):
    c = api(None)
    url = "/api/clubs/riverside/matches/"
    newest_first = [m.pk for m in reversed(season)]
    assert ids(c.get(url)) == newest_first
    assert ids(c.get(url, {"game": CRYPTID})) == [season[2].pk, season[1].pk, season[0].pk]
    assert ids(c.get(url, {"player": "cat"})) == [season[4].pk, season[3].pk, season[1].pk]
    assert ids(c.get(url, {"player": "cat", "game": MISTER_X})) == [season[4].pk, season[3].pk]
    assert ids(c.get(url, {"played_from": "2026-11-05", "played_to": "2026-11-10"})) == [
        season[3].pk,
        season[1].pk,
    ]
    assert ids(c.get(url, {"status": "unfinished"})) == []
    assert ids(c.get(url, {"status": "valid"})) == newest_first


def test_bad_filters_are_400_in_the_error_shape(api, season):
    response = api(None).get("/api/clubs/riverside/matches/", {"played_from": "last tuesday"})
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "malformed"
    assert "played_from" in body["message"]


def test_cursor_pages_cover_every_match_once(api, season):
    c = api(None)
    seen: list[int] = []
    response = c.get("/api/clubs/riverside/matches/", {"limit": 2})
    pages = 0
    while True:
        pages += 1
        seen += ids(response)
        if not response.json()["next"]:
            break
        response = c.get(response.json()["next"])
    assert pages == 3
    assert seen == [m.pk for m in reversed(season)]


def test_an_unfinished_log_is_stored_as_unfinished_with_no_outcomes(club):
    log = bot_log(MISTER_X, 7, ["alice", "bob"])
    log["actions"] = log["actions"][:10]
    log["result"] = None
    match = store(club, log)
    assert (match.status, match.result, match.winner, match.action_count) == (
        "unfinished",
        None,
        "",
        10,
    )
    assert set(MatchSeat.objects.filter(match=match).values_list("outcome", flat=True)) == {"none"}


def test_mister_x_detectives_win_together(club):
    for seed in range(40):
        log = bot_log(MISTER_X, seed, ["alice", "bob", "cat"])
        if log["result"]["winner"] == "detectives":
            break
    else:
        pytest.fail("no detectives' win in 40 bot games")
    match = store(club, log)
    outcomes = dict(MatchSeat.objects.filter(match=match).values_list("seat", "outcome"))
    assert outcomes == {"mrx": "loss", "det1": "win", "det2": "win"}


def test_export_zip_and_json_lines_hold_the_stored_logs(api, season, club):
    c = api(None)
    response = c.get("/api/clubs/riverside/matches/export.zip", {"game": CRYPTID})
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    assert 'filename="riverside-logs.zip"' in response["Content-Disposition"]
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    names = sorted(archive.namelist())
    assert names == sorted(f"riverside-{m.pk}-{CRYPTID}.json" for m in season[:3])
    for match in season[:3]:
        text = archive.read(f"riverside-{match.pk}-{CRYPTID}.json")
        assert hashlib.sha256(text).hexdigest() == match.content_hash

    lines = b"".join(c.get("/api/clubs/riverside/matches/export.jsonl").streaming_content)
    documents = [json.loads(line) for line in lines.splitlines()]
    assert documents == [MatchLog.objects.get(match=m).document for m in season]

    # An export imports again: into another club, as new matches.
    other = Club.objects.create(name="Hilltop", slug="hilltop")
    run = services.create_import(other, response.content, "riverside.zip", None, enqueue=False)
    run = services.run_import(run.pk)
    assert (run.accepted, run.rejected) == (3, 0)


def test_revalidate_reports_what_changed_and_changes_nothing(season, capsys):
    # Pretend the engine's reading changed: one stored log is now illegal, one result differs.
    now_illegal, other_result = season[0], season[3]
    log = MatchLog.objects.get(match=now_illegal)
    log.document = corrupt(log.document)
    log.save()
    claimed = dict(
        other_result.result, winner="detectives" if other_result.winner == "mrx" else "mrx"
    )
    Match.objects.filter(pk=other_result.pk).update(result=claimed, winner=claimed["winner"])

    report = services.revalidate_matches()
    assert report.checked == 5
    changed = {c.match_id: c for c in report.changed}
    assert set(changed) == {now_illegal.pk, other_result.pk}
    assert changed[now_illegal.pk].status == "rejected"
    assert changed[now_illegal.pk].rejection["rule"] == "CUL-1.1"
    assert changed[now_illegal.pk].rejection["index"] == 0
    assert changed[other_result.pk].stored_result == claimed
    assert changed[other_result.pk].result == other_result.result
    assert services.revalidate_matches(game=CRYPTID).checked == 3

    with pytest.raises(SystemExit) as exit_info:
        call_command("revalidate", "--game", MISTER_X)
    assert exit_info.value.code == 1
    out = capsys.readouterr().out
    assert f"match {other_result.pk} (riverside, mister-x" in out
    assert "2 matches replayed, 1 changed" in out
    assert Match.objects.count() == 5  # nothing deleted
    assert Match.objects.get(pk=now_illegal.pk).status == "valid"  # nor changed


def test_revalidate_task_returns_the_report(season):
    from games.tasks import revalidate_task

    assert revalidate_task.delay(CRYPTID).get() == {"checked": 3, "changed": []}
