"""The analysis panel of the replay page in headless Chromium: one line per seat from the
perspective's own information (the all-seeing view adds the dashed all-seeing lines),
the move list's marks where the analysis labelled a move, and a jump from the graph."""

from __future__ import annotations

import math

import pytest

from analysis import services
from analysis.models import MatchAnalysis
from tests.replay.browsing import board_ply, open_replay

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def analysed(club, example_log):
    from games.services import ingest_log

    match = ingest_log(club, example_log("cryptid-escape.json"), None)
    analysis = MatchAnalysis.objects.create(
        match=match, engine_version=services.current_version(match), budget=2
    )
    assert services.run_analysis(analysis.pk) == "done"
    analysis.refresh_from_db()
    return match, analysis.result


def lines(page):
    return page.eval_on_selector_all(
        "path.analysis-line", "els => els.map(e => e.dataset.seat + ':' + e.classList[1])"
    )


def test_each_perspective_draws_its_own_lines_and_the_marks(
    page, live_server, analysed, screenshot
):
    match, result = analysed
    open_replay(page, live_server, match)
    page.wait_for_selector(".analysis-graph")
    assert sorted(lines(page)) == sorted(
        f"{s}:analysis-{k}" for s in ("cryptid", "scientist") for k in ("own", "all")
    )
    labelled = {m["ply"]: m["label"] for m in result["moves"] if m["rated"] and m["label"]}
    marked = page.eval_on_selector_all(
        "#replay-moves .analysis-mark:not(.analysis-unknowable)",
        "els => els.map(e => [Number(e.closest('button').dataset.ply), e.classList[1]])",
    )
    assert {ply: label.removeprefix("analysis-") for ply, label in marked} == labelled
    # a mark says the points lost: between the ends of its interval, or one figure when
    # both ends round to the same point (never "between 29 and 29")
    titles = page.eval_on_selector_all(
        "#replay-moves .analysis-mark:not(.analysis-unknowable)", "els => els.map(e => e.title)"
    )
    for move, title in zip(
        (m for m in result["moves"] if m["rated"] and m["label"]), titles, strict=True
    ):
        # as JavaScript's toFixed(0) rounds: a half up
        low, high = (math.floor(max(0.0, move[end]) + 0.5) for end in ("drop_low", "drop_high"))
        said = f"between {low} and {high} points" if low != high else f": {low} point"
        assert said in title, (title, move)
    # Each seat's accuracy says over how many of its moves it was judged.
    counts = {
        seat: sum(1 for m in result["moves"] if m["rated"] and m["seat"] == seat)
        for seat in ("cryptid", "scientist")
    }
    accuracy = page.inner_text(".analysis-accuracy")
    for seat, count in counts.items():
        # with the half-width of its 95 % interval (JavaScript rounds half up)
        within = int(1.96 * result["accuracy_se"][seat] + 0.5)
        assert (
            f"{result['accuracy'][seat]:g}% ±{within} ({count} move{'' if count == 1 else 's'})"
            in accuracy
        )
    # each seat's own chance in its band, the axes named
    assert len(page.query_selector_all("polygon.analysis-band")) >= 2
    assert page.inner_text(".analysis-y").split() == ["100", "%", "50", "%", "0", "%"]
    screenshot(page, "analysis-cryptid-all")

    open_replay(page, live_server, match, "?view=scientist")
    page.wait_for_selector(".analysis-graph")
    assert lines(page) == ["scientist:analysis-own"]
    assert page.query_selector(".analysis-unknowable") is None
    seats = page.eval_on_selector_all(
        "#replay-moves .analysis-mark", "els => els.map(e => e.closest('button').dataset.seat)"
    )
    assert set(seats) <= {"scientist"}

    graph = page.query_selector(".analysis-graph")
    graph.scroll_into_view_if_needed()
    box = graph.bounding_box()
    graph.click(position={"x": box["width"] - 2, "y": box["height"] / 2})
    page.wait_for_function("document.getElementById('replay-board').dataset.ply !== '0'")
    assert board_ply(page) == len(match.log.document["actions"])


def test_a_cloak_and_dagger_match_is_analysed_on_its_page(page, live_server, club, screenshot):
    """Cloak & Dagger has a belief sampler now: its page draws the graph (one line per seat,
    or the seat's own line from its perspective) instead of saying it cannot be analysed.
    ``LANTERN_SCREENSHOTS=docs/screenshots`` refreshes the committed screenshots."""
    import os
    from pathlib import Path

    from engine import play
    from games.services import ingest_log

    log = play("cloak-and-dagger", 3, ["greedy"] * 4)
    match = ingest_log(club, log, None)
    analysis = MatchAnalysis.objects.create(
        match=match, engine_version=services.current_version(match), budget=2
    )
    assert services.run_analysis(analysis.pk) == "done"
    seats = ("p1", "p2", "p3", "p4")
    open_replay(page, live_server, match, "?ply=40")
    page.wait_for_selector(".analysis-graph")
    assert sorted(lines(page)) == sorted(f"{s}:analysis-{k}" for s in seats for k in ("own", "all"))
    assert "cannot be analysed" not in page.text_content("body")
    open_replay(page, live_server, match, "?view=p2&ply=40")
    page.wait_for_selector(".analysis-graph")
    assert lines(page) == ["p2:analysis-own"]
    root = Path(__file__).resolve().parents[2]
    for width in (1400, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(150)
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 1, f"{width} px: {overflow} px too wide"
        screenshot(page, f"analysis-cloak-p2-{width}")
        if os.environ.get("LANTERN_SCREENSHOTS"):
            page.screenshot(
                path=str(
                    root / os.environ["LANTERN_SCREENSHOTS"] / f"analysis-cloak-p2-{width}.png"
                ),
                full_page=True,
            )
