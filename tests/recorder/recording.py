"""Steps shared by the recorder's browser tests: set a game up through the form and
enter actions by clicking the controls the page offers, as a recorder at the table does.

``record`` is given the action to enter (taken from a bot game the engine played with
a seed, so the game reaches its end) and, at every question the page asks, clicks the
button (or picks the option) whose value that action has. It never calls the API: if
the page does not offer the value, the test fails there.
"""

from __future__ import annotations

import json
from typing import Any

from engine import play

READY = '#recorder[data-ready="true"]:not([aria-busy])'


def sign_in(page: Any, live_server: Any, user: Any) -> None:
    """Sign ``page``'s browser context in as ``user`` (the session cookie a login sets)."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie.value, "url": live_server.url}]
    )


def open_in_language(
    chromium: Any, live_server: Any, user: Any, language: str, width: int
) -> tuple[Any, Any, list[str]]:
    """A browser context of its own at ``width``, signed in as ``user``, every page and API
    answer in ``language`` (the switcher's cookie); its page and the page's script errors."""
    from django.conf import settings

    context = chromium.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    sign_in(page, live_server, user)
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    return context, page, errors


def choose_at_random(page: Any, rng: Any) -> None:
    """Answer the entry's open question by a seeded pick among its buttons or options."""
    question = page.locator("#rec-entry .rec-question").last
    buttons = question.locator("button.rec-choice")
    if buttons.count():
        buttons.nth(rng.randrange(buttons.count())).click()
    else:
        options = question.locator("select option").evaluate_all(
            "els => els.map(e => e.value).filter(Boolean)"
        )
        question.locator("select").select_option(value=rng.choice(options))


def scripted_game(
    game: str, players: int | None, wanted: Any, seeds: range = range(200)
) -> dict[str, Any]:
    """The first greedy-bot game of ``game`` (seeds in order) whose log satisfies ``wanted``:
    chosen by what the test needs to exercise, not pinned to one seed, since bots change."""
    bots = ["greedy"] * (players or 2)
    for seed in seeds:
        log = play(game, seed, bots)
        if log["result"] is not None and wanted(log):
            return log
    raise AssertionError(f"no greedy {game} game in seeds {seeds} has what the test needs")


def value_at(action: dict[str, Any], path: str) -> Any:
    """The value of ``action`` at an API path (``to/0``, ``left/red``); None when absent."""
    value: Any = action
    for key in path.split("/"):
        if isinstance(value, dict):
            value = value.get(key)
        elif isinstance(value, list) and key.isdigit() and int(key) < len(value):
            value = value[int(key)]
        else:
            return None
    return value


def same_value(offered: Any, wanted: Any) -> bool:
    """Equal, with lists of cards compared as the multisets a draw is."""
    if (
        isinstance(offered, list)
        and isinstance(wanted, list)
        and all(isinstance(x, str) for x in offered + wanted)
    ):
        return sorted(offered) == sorted(wanted)
    if offered in ({}, None) and wanted in ({}, None):
        return True  # a split's empty side is written {} in one place and absent in the other
    return offered == wanted


def agrees(clicked: dict[str, Any], target: dict[str, Any]) -> bool:
    """``clicked`` is the action ``target`` names (field by field, draws as multisets)."""
    return all(same_value(clicked.get(key), target.get(key)) for key in {*clicked, *target})


def wait_ready(page: Any) -> None:
    page.wait_for_selector(READY)


def open_draft(page: Any) -> None:
    wait_ready(page)


def ply(page: Any) -> int:
    return int(page.get_attribute("#recorder", "data-ply"))


def moves(page: Any) -> list[str]:
    """The actions listed so far, in notation (each move's sentence shows, its notation
    is kept for hover and the toggle)."""
    return page.eval_on_selector_all(
        "#rec-moves .move[data-ply]", "els => els.map(e => e.dataset.notation)"
    )


def record(page: Any, target: dict[str, Any], double_click: bool = False) -> dict[str, Any]:
    """Enter ``target`` through the controls; returns the action the page recorded (as the
    confirm button named it), after the server saved it. ``double_click``: every button
    is double-clicked, as a hurried recorder does."""
    before = ply(page)
    # Several seats to act (Mister X's detectives): first pick whose action this is.
    seat_button = page.locator(f'#rec-seat-pick button.rec-seat[data-seat="{target["seat"]}"]')
    if seat_button.count() and seat_button.get_attribute("aria-pressed") != "true":
        seat_button.click()
    for _ in range(60):
        wait_ready(page)
        entry = page.locator("#rec-entry")
        confirm = entry.locator(".rec-confirm")
        if confirm.count():
            action = json.loads(confirm.get_attribute("data-action"))
            chance_next = confirm.inner_text().startswith("Next:")
            confirm.dblclick() if double_click else confirm.click()
            if chance_next:
                page.wait_for_selector("#rec-entry .rec-chance")
                continue
            page.wait_for_function(
                f"Number(document.querySelector('#recorder').dataset.ply) > {before}"
            )
            wait_ready(page)
            return action
        question = entry.locator(".rec-question").last
        field = question.get_attribute("data-field")
        wanted = value_at(target, field)
        buttons = question.locator("button.rec-choice")
        if buttons.count():
            values = [
                json.loads(v) for v in buttons.evaluate_all("els => els.map(e => e.dataset.value)")
            ]
            matches = [i for i, v in enumerate(values) if same_value(v, wanted)]
            assert matches, f"{field}: the page offers {values}, not {wanted!r} of {target}"
            button = buttons.nth(matches[0])
            button.dblclick() if double_click else button.click()
        else:
            select = question.locator("select")
            options = select.locator("option").evaluate_all("els => els.map(e => e.value)")
            values = [json.loads(v) if v else "<placeholder>" for v in options]
            matches = [
                options[i]
                for i, v in enumerate(values)
                if v != "<placeholder>" and same_value(v, wanted)
            ]
            assert matches, f"{field}: the page offers {values}, not {wanted!r} of {target}"
            select.select_option(value=matches[0])
    raise AssertionError(f"could not enter {target}")


def choose_game(
    page: Any,
    live_server: Any,
    club: Any,
    game_name: str,
    chance_label: str,
    players: int | None = None,
) -> None:
    page.goto(f"{live_server.url}/clubs/{club.slug}/record/")
    page.get_by_label("Game").select_option(label=game_name)
    if players is not None:
        page.get_by_label("Players").fill(str(players))
    page.get_by_label(chance_label).check()
    # Until the next page's load event its module scripts may not have run (a click
    # before js/once.js would go through twice), so wait for the load, not the form.
    with page.expect_navigation(wait_until="load"):
        page.get_by_role("button", name="Continue").click()
    page.wait_for_selector("#rec-setup")


def start_recording(page: Any) -> None:
    page.get_by_role("button", name="Start recording").click()
    wait_ready(page)


#: the bots as the setup page offers them (clubs/bots.py)
EASY_BOT = "easy bot: plays random legal moves"
MEDIUM_BOT = "medium bot: plays what looks best right now"
STRONG_BOT = "strong bot: plays the game out many times in its head before each move"
BOTS = (EASY_BOT, MEDIUM_BOT, STRONG_BOT)


def choose_seat(page: Any, seat: str, who: str) -> None:
    """Seat ``who`` (a handle, or a bot as offered: ``MEDIUM_BOT``) in ``seat`` by its drop-down."""
    page.locator(f'select[name="seat.{seat}"]').select_option(label=who)


def fill_setup(page: Any, setup: dict[str, Any], prefix: str = "setup.") -> None:
    """Choose ``setup`` in the form's drop-downs, field by field (a list item by item):
    every value must be one the page offers."""
    for key, value in setup.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            fill_setup(page, value, f"{name}.")
        elif isinstance(value, list) and page.locator(f'select[name="{name}.1"]').count():
            for i, item in enumerate(value, start=1):
                page.locator(f'select[name="{name}.{i}"]').select_option(value=json.dumps(item))
        else:
            page.locator(f'select[name="{name}"]').select_option(value=json.dumps(value))


def enter_first_choices(page: Any) -> list[str]:
    """Enter the seat's action as a person would who takes the first choice at each
    question, up to its confirm button (not clicked); the questions' labels, in order."""
    entry = page.locator("#rec-entry")
    labels = []
    for _ in range(10):
        wait_ready(page)
        if entry.locator(".rec-confirm").count():
            return labels
        question = entry.locator(".rec-question").last
        labels.append(question.locator(".rec-question-label").inner_text())
        if question.locator("button.rec-choice").count():
            question.locator("button.rec-choice").first.click()
        else:
            question.locator("select").select_option(index=1)
    raise AssertionError(f"no confirm button after the questions {labels}")


def open_rule_link(page: Any, link: Any) -> Any:
    """Click a refusal's rule link (it opens in a tab of its own, the game staying on
    screen): the rule's page, loaded, showing the rule (``:target``)."""
    with page.context.expect_page() as opened:
        link.click()
    rule_page = opened.value
    rule_page.wait_for_load_state()
    return rule_page
