"""A signed-out visitor of a public club reads its stored analyses (issue 33 item 6): from
the home page to the club, to an analysed match, to the graph with its axes (0 to 100 %,
rounds), its legend and what the lines and marks mean, in the visitor's language; an
analysed game of each kind at 1400 and 390 px in Japanese and Russian, nothing wider
than the window."""

from __future__ import annotations

from typing import Any

import pytest

from analysis import services
from analysis.models import MatchAnalysis

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: what the visitor reads, per language: the x axis's title, the band's legend, the
#: start of the sentence saying what a mark means
WORDS = {
    "en": ("Rounds", "how sure (19 times in 20)", "Marks ?! inaccuracy"),
    "ja": ("ラウンド", "確かさ（20回に19回）", "印"),
    "ru": ("Раунды", "насколько точно (19 раз из 20)", "Отметки"),
}
#: how a Cryptid chance was made at budget 2, as the visitor reads it: a seat's own
#: chance from 4 batches of 2 playouts, the dashed lines from 2, every playout stopped at
#: the next round and scored there if not over (engine.analysis_playouts)
MADE = {
    "en": (
        "Each seat's chance comes from 8 games played on from that moment",
        "Each is played for a few turns at most; one not over by then is scored",
        "The dashed lines: 2 games per point. These too are played for a few turns at most.",
    ),
    "ja": (
        "ゲームを8回進めた結果",
        "最大で数手番だけ進め",
        "破線の各点は2回のゲームの結果です。",
        "こちらも最大で",
    ),
    "ru": (
        "на всех местах 8 раз продолжает партию",
        "не больше чем на несколько ходов",
        "продолжают 2 раза",
    ),
}


@pytest.fixture
def analysed(club, example_log) -> dict[str, Any]:
    """A match of each game in the (public) club, analysed at a small budget."""
    from engine import play
    from games.services import ingest_log

    logs = {
        "cryptid-urban-legends": example_log("cryptid-escape.json"),
        "mister-x": example_log("misterx-destination.json"),
        "cloak-and-dagger": play(
            "cloak-and-dagger", 3, ["greedy"] * 4, players=["alice", "bob", "chen", "dana"]
        ),
    }
    matches = {}
    for game, log in logs.items():
        match = ingest_log(club, log, None)
        analysis = MatchAnalysis.objects.create(
            match=match, engine_version=services.current_version(match), budget=2
        )
        assert services.run_analysis(analysis.pk) == "done"
        matches[game] = match
    return matches


def visitor(chromium: Any, language: str, width: int = 1400) -> tuple[Any, Any, list[str]]:
    context = chromium.new_context(
        viewport={"width": width, "height": 900}, locale={"en": "en-GB"}.get(language, language)
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    return context, page, errors


def test_a_visitor_clicks_from_the_home_page_to_an_analysed_match_and_reads_its_graph(
    chromium, live_server, club, analysed, screenshot
):
    cryptid = analysed["cryptid-urban-legends"]
    for language, (rounds, band, marks) in WORDS.items():
        context, page, errors = visitor(chromium, language)
        page.goto(live_server.url + "/")
        page.click(f"a[href='/clubs/{club.slug}/']")
        for width in (390, 1400):
            page.set_viewport_size({"width": width, "height": 900})
            overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            assert overflow <= 1, f"the club page, {width} px: {overflow} px too wide"
            shot = screenshot(page, f"visitor-club-{language}-{width}")
            page.locator(".analysed-matches").screenshot(path=str(shot.with_suffix(".list.png")))
        page.click(f".analysed-matches a[href='/matches/{cryptid.pk}/replay']")
        page.wait_for_selector(".analysis-graph")
        assert page.inner_text(".analysis-y").split() == ["100", "%", "50", "%", "0", "%"]
        assert page.inner_text(".analysis-x-title") == rounds
        assert page.locator(".analysis-x span").count() >= 2  # the rounds' numbers
        legend = page.inner_text(".analysis-legend")
        assert band in legend and marks in legend, legend
        assert all(words in legend for words in MADE[language]), legend
        # each seat has its line and a swatch of its colour in the legend
        assert page.locator(".analysis-legend li").count() >= 2
        screenshot(page, f"visitor-analysis-cryptid-{language}")
        context.close()
        assert not errors, errors


@pytest.mark.parametrize("language", ["ja", "ru"])
def test_an_analysed_game_of_each_kind_fits_a_phone_and_a_wide_screen(
    chromium, live_server, analysed, screenshot, language
):
    for game, match in analysed.items():
        for width in (1400, 390):
            context, page, errors = visitor(chromium, language, width)
            page.goto(f"{live_server.url}/matches/{match.pk}/replay?ply=12")
            page.wait_for_selector(".analysis-graph")
            page.wait_for_timeout(150)
            overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            assert overflow <= 1, f"{game}, {width} px: {overflow} px too wide"
            plot = page.locator(".analysis-plot").bounding_box()
            assert plot["x"] >= 0 and plot["x"] + plot["width"] <= width + 1, (game, plot)
            shot = screenshot(page, f"visitor-analysis-{game}-{language}-{width}")
            # the panel alone, at full size, to look at
            page.locator("#replay-analysis").screenshot(path=str(shot.with_suffix(".panel.png")))
            context.close()
            assert not errors, errors
