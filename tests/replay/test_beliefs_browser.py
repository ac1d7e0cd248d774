"""Beliefs on the replay page in headless Chromium, at 1400 and 390 px: Mister X's possible
cities as a heat layer on the map (one spot per city of the engine's belief, the likeliest
the most opaque), the Cryptid opponent's hand, a Cloak & Dagger check sheet's proofs, and
in the move list how each move changed the belief. A seat's perspective shows its own.
Screenshots go to artifacts/replay/ (and to ``$LANTERN_SCREENSHOTS``: ``docs/screenshots``
refreshes the committed ones)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from analysis import services
from analysis.models import MatchAnalysis
from engine import play
from replay.frames import ALL, build_beliefs
from tests.replay.browsing import open_replay

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = (1400, 390)
ROOT = Path(__file__).resolve().parents[2]


def _analysed(club: Any, log: dict[str, Any], analyse: bool = True) -> Any:
    from games.services import ingest_log

    match = ingest_log(club, log, None)
    if analyse:
        analysis = MatchAnalysis.objects.create(
            match=match, engine_version=services.current_version(match), budget=2
        )
        assert services.run_analysis(analysis.pk) == "done"
    return match


def _marks(page) -> dict[int, str]:
    """The move list's marks (drawn by CSS from data-belief, outside the move's text)."""
    return dict(
        page.eval_on_selector_all(
            "#replay-moves button[data-belief]",
            "els => els.map(e => [Number(e.dataset.ply), e.dataset.belief])",
        )
    )


def _expected_marks(track: dict[str, Any], holder: str) -> dict[int, str]:
    marks = {}
    for entry in track["plies"]:
        for belief in entry["beliefs"]:
            change = belief["changed"]
            if belief["holder"] == holder and change and change["from"] != change["to"]:
                marks[entry["ply"]] = f"{change['from']}→{change['to']}"
    return marks


def _at_widths(page, screenshot, name: str) -> None:
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(150)
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 1, f"{name} at {width} px is {overflow} px wider than the window"
        path = screenshot(page, f"{name}-{width}")
        page.locator("#replay-beliefs").screenshot(
            path=str(path.with_name(f"{name}-{width}-panel.png"))
        )
        if os.environ.get("LANTERN_SCREENSHOTS"):  # =docs/screenshots refreshes the committed ones
            page.screenshot(
                path=str(ROOT / os.environ["LANTERN_SCREENSHOTS"] / f"{name}-{width}.png"),
                full_page=True,
            )


def test_mister_x_heat_layer_and_the_changes_in_the_move_list(page, live_server, club, screenshot):
    log = play("mister-x", 7, ["greedy", "greedy", "greedy"])
    match = _analysed(club, log)
    track = build_beliefs(log, "detectives")
    # a moment where the cities are few but not equally likely
    shown = [
        entry["ply"]
        for entry in track["plies"]
        if 4 <= entry["beliefs"][0]["measure"]["count"] <= 15
        and len({p for _, p in entry["beliefs"][0]["cities"]}) > 2
    ]
    ply = shown[len(shown) // 2]
    open_replay(page, live_server, match, f"?view=detectives&ply={ply}")
    page.wait_for_selector(".belief-heat")
    belief = track["plies"][ply]["beliefs"][0]
    spots = page.eval_on_selector_all(
        ".belief-heat-spot",
        "els => els.map(e => [Number(e.dataset.city), Number(e.getAttribute('fill-opacity'))])",
    )
    assert sorted(c for c, _ in spots) == sorted(c for c, _ in belief["cities"])
    # the likeliest city is drawn the most opaque
    assert max(spots, key=lambda s: s[1])[0] == belief["cities"][0][0]
    assert page.is_hidden(".mx-possible-layer")
    assert _marks(page) == _expected_marks(track, "detectives")
    assert f"{belief['measure']['count']} cit" in page.text_content(".beliefs-status")
    page.wait_for_selector(".analysis-graph")
    _at_widths(page, screenshot, "beliefs-misterx-detectives")

    page.uncheck(".beliefs-heat-toggle input")
    assert page.query_selector(".belief-heat") is None
    assert page.is_visible(".mx-possible-layer")


def test_cryptid_each_seat_sees_its_own_belief_of_the_other_hand(
    page, live_server, club, example_log, screenshot
):
    log = example_log("cryptid-escape.json")
    match = _analysed(club, log)
    track = build_beliefs(log, "scientist")
    # the moment of the middle of the game where the cryptid's hand is most uncertain
    plies = len(track["plies"])
    ply = max(
        range(plies // 3, plies), key=lambda p: track["plies"][p]["beliefs"][0]["measure"]["bits"]
    )
    open_replay(page, live_server, match, f"?view=scientist&ply={ply}")
    page.wait_for_selector(".beliefs-hand")
    assert page.query_selector(".beliefs-chooser select") is None  # its own belief only
    rows = page.eval_on_selector_all(".beliefs-hand tbody th", "els => els.map(e => e.textContent)")
    belief = track["plies"][ply]["beliefs"][0]
    assert rows == [c["card"].capitalize() for c in belief["cards"]]
    assert _marks(page) == _expected_marks(track, "scientist")
    page.wait_for_selector(".analysis-graph")
    _at_widths(page, screenshot, "beliefs-cryptid-scientist")

    open_replay(page, live_server, match, "?ply=9")
    page.wait_for_selector(".beliefs-chooser select")
    assert page.eval_on_selector_all(".beliefs-chooser option", "els => els.map(e => e.value)") == [
        "cryptid",
        "scientist",
    ]


def test_cloak_check_sheet_proofs(page, live_server, club, screenshot):
    log = play(
        "cloak-and-dagger", 3, ["greedy"] * 4, options={"double_agents": True, "hazards": True}
    )
    match = _analysed(club, log, analyse=False)
    track = build_beliefs(log, "p2")
    ply = len(track["plies"]) * 2 // 3
    open_replay(page, live_server, match, f"?view=p2&ply={ply}")
    page.wait_for_selector(".beliefs-envelopes")
    belief = track["plies"][ply]["beliefs"][0]
    exact = page.eval_on_selector_all(
        ".beliefs-envelopes li.exact", "els => els.map(e => Number(e.dataset.envelope))"
    )
    assert exact == [n for n, known in enumerate(belief["exact"], 1) if known]
    assert "not probabilities" in page.text_content(".beliefs-body")
    assert _marks(page) == _expected_marks(track, "p2")
    _at_widths(page, screenshot, "beliefs-cloak-p2")

    open_replay(page, live_server, match, f"?view={ALL}&ply={ply}")
    page.wait_for_selector(".beliefs-chooser select")
    assert len(page.query_selector_all(".beliefs-chooser option")) == 4


def test_beliefs_draw_under_the_sites_content_security_policy(csp_page, live_server, club):
    """Bars, heat spots and envelope cells are drawn without a refused inline style."""
    log = play("mister-x", 7, ["greedy", "greedy", "greedy"])
    match = _analysed(club, log, analyse=False)
    open_replay(csp_page, live_server, match, "?view=det1&ply=40")
    csp_page.wait_for_selector(".belief-heat-spot")
    csp_page.wait_for_selector(".beliefs-fill")
    width = csp_page.eval_on_selector(".beliefs-fill", "e => e.style.width")
    assert width.endswith("%") and width != "0%"


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("ja", ("から見た", "の手札", "1枚以上ある確率")),
        ("ru", ("может сказать о руке", "Вероятность хотя бы одной", "В среднем")),
    ],
)
def test_the_beliefs_panel_speaks_the_readers_language(
    page, live_server, club, example_log, screenshot, lang, words
):
    """The panel's words come from the djangojs catalog: a Japanese or Russian reader reads
    the Cryptid hand's belief in their language, with the count's plural form."""
    log = example_log("cryptid-escape.json")
    match = _analysed(club, log, analyse=False)
    track = build_beliefs(log, "scientist")
    plies = len(track["plies"])
    ply = max(
        range(plies // 3, plies), key=lambda p: track["plies"][p]["beliefs"][0]["measure"]["bits"]
    )
    open_replay(page, live_server, match, f"?view=scientist&ply={ply}&lang={lang}")
    page.wait_for_selector(".beliefs-hand")
    panel = page.text_content("#replay-beliefs")
    for word in words:
        assert word in panel
    for english in (
        "can tell of the hand",
        "Chance of at least one",
        "On average",
        "holds",
        "Split",
        "Shuffle",
        "Align",
    ):
        assert english not in panel
    # The cards as the edition in that language names them.
    rows = page.eval_on_selector_all(".beliefs-hand tbody th", "els => els.map(e => e.textContent)")
    assert rows and all(
        row
        in {"ja": ("分散", "撹乱", "整列"), "ru": ("Разделение", "Смещение", "Объединение")}[lang]
        for row in rows
    )
    _at_widths(page, screenshot, f"beliefs-cryptid-scientist-{lang}")


@pytest.mark.parametrize("lang", ["ja", "ru"])
def test_the_cities_believed_are_named_whole_in_japanese_and_russian(
    page, live_server, club, screenshot, lang
):
    """The Mister X panel's cities keep their whole name at 1400 and 390 px (a title's
    tooltip is no help on a phone): none is cut to an ellipsis or runs under its bar."""
    log = play("mister-x", 1, ["greedy"] * 3)  # the europe/1 board: long local names
    match = _analysed(club, log, analyse=False)
    track = build_beliefs(log, "detectives")
    ply = next(
        entry["ply"] for entry in track["plies"] if entry["beliefs"][0]["measure"]["count"] >= 8
    )
    open_replay(page, live_server, match, f"?view=detectives&ply={ply}&lang={lang}")
    page.wait_for_selector(".beliefs-cities li")
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(150)
        rows = page.eval_on_selector_all(
            ".beliefs-cities li",
            """els => els.map(li => {
                const name = li.querySelector('.beliefs-name');
                return [name.textContent, name.scrollWidth - name.clientWidth,
                        name.getBoundingClientRect().right
                          - li.querySelector('.beliefs-bar').getBoundingClientRect().left];
            })""",
        )
        assert len(rows) == 8
        clipped = [name for name, hidden, _ in rows if hidden > 0]
        assert clipped == [], f"{lang} at {width} px cuts {clipped}"
        under = [name for name, _, into_bar in rows if into_bar > 0]
        assert under == [], f"{lang} at {width} px runs {under} under the bar"
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 1, f"{lang} at {width} px is {overflow} px wider than the window"
        path = screenshot(page, f"beliefs-misterx-{lang}-{width}")
        page.locator("#replay-beliefs").screenshot(
            path=str(path.with_name(f"beliefs-misterx-{lang}-{width}-panel.png"))
        )
