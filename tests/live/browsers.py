"""Driving a table's page in headless Chromium: a person signed in (their own browser
context), the event number and the moves a page shows."""

from __future__ import annotations

from typing import Any


def signed_in(chromium: Any, server: str, user: Any, errors: list[str]) -> Any:
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    # bypass_csp: wait_for_function evaluates its predicate with eval (tests/conftest.py)
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": server,
            }
        ]
    )
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    return page


def n_of(page: Any) -> int:
    return int(page.get_attribute("#live", "data-n") or 0)


def moves_shown(page: Any) -> int:
    return page.locator("#live-moves li").count()
