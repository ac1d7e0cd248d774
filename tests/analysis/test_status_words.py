"""What an analysis under way says: one sent to the workers but not yet picked up by any
(no chunk of it started) is waiting in the queue, not "running, 0 positions"; once a
worker has a chunk it is running, with the positions done."""

from __future__ import annotations

import pytest

from analysis.models import AnalysisChunk
from tests.analysis.conftest import running
from tests.replay.browsing import open_replay


@pytest.fixture
def match(club, example_log):
    from games.services import ingest_log

    return ingest_log(club, example_log("cryptid-escape.json"), None)


def url(match):
    return f"/api/matches/{match.pk}/analysis?view=all"


def started(analysis, plies_done: int) -> None:
    """A worker has picked up the analysis' first chunk and done ``plies_done`` plies."""
    AnalysisChunk.objects.create(analysis=analysis, index=0, first=0, stop=10)
    analysis.plies_done = plies_done
    analysis.save(update_fields=["plies_done"])


@pytest.mark.django_db
def test_a_started_analysis_no_worker_has_picked_up_is_queued_then_running(api, match):
    analysis = running(match)  # its start ran: its chunks wait in the queue
    total = analysis.plies_total
    waiting = api(None).get(url(match)).json()
    assert waiting["status"] == "queued", waiting
    assert waiting["progress"] == {"done": 0, "total": total}
    started(analysis, 4)
    under_way = api(None).get(url(match)).json()
    assert under_way["status"] == "running"
    assert under_way["progress"] == {"done": 4, "total": total}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("language", "waiting", "analysing"),
    [
        ("en", "Waiting in the queue", "Analysing… 4 of {total} positions"),
        ("ja", "順番待ちです", "解析中… {total}局面中 4"),
        ("ru", "В очереди", "Анализ… 4 из {total} позиц"),
    ],
)
def test_the_replay_says_waiting_in_the_queue_then_analysing(
    page, live_server, match, language, waiting, analysing
):
    analysis = running(match)
    open_replay(page, live_server, match, f"?lang={language}")
    status = page.locator(".analysis-status")
    page.wait_for_function(
        "t => document.querySelector('.analysis-status').textContent.includes(t)", arg=waiting
    )
    assert "0" not in status.inner_text()
    started(analysis, 4)
    # the panel asks again every 2 s while the analysis is under way
    page.wait_for_function(
        "t => document.querySelector('.analysis-status').textContent.includes(t)",
        arg=analysing.format(total=analysis.plies_total),
        timeout=10_000,
    )
