"""The analysis panel of the replay page in headless Chromium: one line per seat from the
perspective's own information (the all-seeing view adds the dashed all-seeing lines),
the move list's marks where the analysis labelled a move, and a jump from the graph."""

from __future__ import annotations

import pytest

from analysis import services
from analysis.models import MatchAnalysis
from tests.replay.browsing import board_ply, open_replay

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def analysed(club, example_log):
    from matches.services import ingest_log

    match = ingest_log(club, example_log("cryptid-escape.json"), None)
    analysis = MatchAnalysis.objects.create(match=match, engine_version=services.current_version(match), budget=2)
    assert services.run_analysis(analysis.pk) == "done"
    analysis.refresh_from_db()
    return match, analysis.result


def lines(page):
    return page.eval_on_selector_all(
        "path.analysis-line", "els => els.map(e => e.dataset.seat + ':' + e.classList[1])")


def test_each_perspective_draws_its_own_lines_and_the_marks(page, live_server, analysed, screenshot):
    match, result = analysed
    open_replay(page, live_server, match)
    page.wait_for_selector(".analysis-graph")
    assert sorted(lines(page)) == sorted(f"{s}:analysis-{k}" for s in ("cryptid", "scientist") for k in ("own", "all"))
    labelled = {m["ply"]: m["label"] for m in result["moves"] if m["rated"] and m["label"]}
    marked = page.eval_on_selector_all(
        "#replay-moves .analysis-mark:not(.analysis-unknowable)",
        "els => els.map(e => [Number(e.closest('button').dataset.ply), e.classList[1]])")
    assert {ply: label.removeprefix("analysis-") for ply, label in marked} == labelled
    screenshot(page, "analysis-cryptid-all")

    open_replay(page, live_server, match, "?view=scientist")
    page.wait_for_selector(".analysis-graph")
    assert lines(page) == ["scientist:analysis-own"]
    assert page.query_selector(".analysis-unknowable") is None
    seats = page.eval_on_selector_all(
        "#replay-moves .analysis-mark", "els => els.map(e => e.closest('button').dataset.seat)")
    assert set(seats) <= {"scientist"}

    graph = page.query_selector(".analysis-graph")
    graph.scroll_into_view_if_needed()
    box = graph.bounding_box()
    graph.click(position={"x": box["width"] - 2, "y": box["height"] / 2})
    page.wait_for_function("document.getElementById('replay-board').dataset.ply !== '0'")
    assert board_ply(page) == len(match.log.document["actions"])
