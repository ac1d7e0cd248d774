"""Issue 35, item 7, on a phone: Mister X's player chips (Mister X and four detective
players, one of them moving two pawns) on the replay and on the recorder, in Japanese and
Russian at 390 px. Each chip names its seat briefly (the detectives by their pawns'
colours), the chips wrap in at most two rows, and none is wider than the screen."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from engine import play
from tests.recorder.recording import open_in_language, wait_ready

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ("alice", "dmitri", "farah", "carol", "bob")
#: the two-pawn detective's chip as a phone shows it, the whole label on hover
SHORT = {
    "ja": ("赤と青", "探偵（赤と青）"),
    "ru": ("красный и синий", "Детективы: красный и синий"),
}


def five_player_game(user: Any) -> tuple[int, int]:
    """A stored five-player match and a draft of the same game six actions in."""
    from games.services import ingest_log

    log = play("mister-x", 3, ["greedy"] * 5, players=list(PLAYERS))
    match = ingest_log(user.memberships.get().club, log, user)
    client = APIClient()
    client.force_authenticate(user)
    draft = client.post(
        "/api/drafts/",
        {
            "club": "riverside",
            "game": "mister-x",
            "chance": "table",
            "setup": log["setup"],
            "seats": [{"seat": e["seat"], "player": e["player"]} for e in log["seats"]],
        },
        format="json",
    ).json()
    for action in log["actions"][:6]:
        draft = client.post(
            f"/api/drafts/{draft['id']}/apply/",
            {"version": draft["version"], "action": action},
            format="json",
        ).json()
    return match.pk, draft["id"]


def chips(page: Any) -> dict[str, Any]:
    return page.evaluate(
        """() => {
          const list = document.querySelector('main ul.replay-players');
          const items = [...list.querySelectorAll(':scope > li')];
          const tops = new Set(items.map((li) => Math.round(li.getBoundingClientRect().top)));
          return {
            rows: tops.size,
            height: list.getBoundingClientRect().height,
            chip: items[0].getBoundingClientRect().height,
            right: Math.max(...items.map((li) => li.getBoundingClientRect().right)),
            text: list.innerText,
            titles: [...list.querySelectorAll('[title]')].map((e) => e.title),
            page: document.documentElement.scrollWidth,
          };
        }"""
    )


@pytest.mark.parametrize("language", ["ja", "ru"])
def test_misterx_chips_fit_two_rows_on_a_phone(
    chromium, live_server, club, people, screenshot, language
):
    organiser = people["organiser"]
    match_id, draft_id = five_player_game(organiser)
    short, whole = SHORT[language]
    context, page, errors = open_in_language(chromium, live_server, organiser, language, 390)
    try:
        for name, path in (
            ("replay", f"/matches/{match_id}/replay"),
            ("recorder", f"/clubs/riverside/record/{draft_id}/"),
        ):
            page.goto(f"{live_server.url}{path}")
            if name == "recorder":
                wait_ready(page)
            found = chips(page)
            assert found["page"] <= 390 and found["right"] <= 390, found
            assert found["rows"] <= 2 and found["height"] <= 2.5 * found["chip"], found
            assert short in found["text"] and whole not in found["text"], found
            assert whole in found["titles"], found
            assert all(player in found["text"] for player in PLAYERS), found
            screenshot(page, f"misterx-chips-{name}-{language}-390")
    finally:
        context.close()
    assert not errors
