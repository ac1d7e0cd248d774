"""Signing a demo account in, in a browser page (the demo's accounts exist with DEBUG on)."""

from __future__ import annotations

from typing import Any

from pages import demo


def sign_in(page: Any, server: str, language: str, username: str = "organiser") -> None:
    """Open the sign-in page in ``language`` and sign in as the demo's ``username``."""
    page.goto(f"{server}/accounts/login/?lang={language}")
    page.fill("#id_username", username)
    page.fill("#id_password", demo.DEMO_PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_load_state()
