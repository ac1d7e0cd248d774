"""Sign-in attempts are throttled (django-axes), and every page sends a
Content-Security-Policy that the site's own pages pass in a real browser (django-csp)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-enough-password-1"


def sign_in(client: Client, username: str, password: str, address: str):
    return client.post(
        "/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=address
    )


def test_wrong_passwords_lock_that_name_at_that_address_out(django_user_model, settings):
    django_user_model.objects.create_user(username="ada", password=PASSWORD)
    guesser = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert sign_in(guesser, "ada", "guess", "203.0.113.9").status_code == 200  # the form again
    locked = sign_in(guesser, "ada", "guess", "203.0.113.9")
    assert locked.status_code == 429 and "Too many sign-in attempts" in locked.content.decode()
    # Locked out even with the right password now, from that address…
    assert sign_in(Client(), "ada", PASSWORD, "203.0.113.9").status_code == 429
    # …but the member, elsewhere, still signs in.
    assert sign_in(Client(), "ada", PASSWORD, "198.51.100.4").status_code == 302


def test_every_page_sends_the_policy(client):
    response = client.get("/")
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "style-src 'self'" in policy
    assert "unsafe-inline" not in policy and "frame-ancestors 'none'" in policy


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_sites_pages_pass_their_policy_in_chromium(csp_page, live_server, public_club, people):
    """Every kind of page, signed in as an organiser who is also staff: any script or style
    the policy refused would be a console error, which the ``page`` fixture fails on."""
    from tests.recorder.recording import sign_in as browser_sign_in

    page = csp_page
    staff = people["organiser"]
    staff.is_staff = staff.is_superuser = True
    staff.save()
    browser_sign_in(page, live_server, staff)
    violations: list[str] = []
    where = {"path": ""}
    page.on(
        "console",
        lambda msg: (
            violations.append(f"{where['path']}: {msg.text}") if msg.type == "error" else None
        ),
    )
    club = public_club.club
    match = public_club.matches[0]
    draft = club.drafts.first()
    ladder = public_club.ladders[0]
    paths: list[Any] = [
        "/",
        f"/clubs/{club.slug}/",
        f"/clubs/{club.slug}/matches/",
        f"/clubs/{club.slug}/manage/",
        f"/matches/{match.pk}/",
        f"/matches/{match.pk}/replay",
        f"/clubs/{club.slug}/upload/",
        f"/clubs/{club.slug}/uploads/",
        f"/clubs/{club.slug}/imports/",
        f"/uploads/{public_club.uploads[0].pk}/",
        f"/imports/{public_club.imports[0].pk}/",
        f"/clubs/{club.slug}/ladders/",
        f"/clubs/{club.slug}/ladders/{ladder.game}/",
        "/tournaments/",
        f"/tournaments/{public_club.tournaments[0].pk}/",
        f"/clubs/{club.slug}/record/",
        f"/clubs/{club.slug}/record/{draft.pk}/",
        "/dashboard/",
        "/admin/",
        "/admin/games/match/",
        "/api/",
        "/api/docs/",
        "/accounts/profile/",
        "/accounts/password/change/",
        "/clubs/new/",
    ]
    visited = 0
    page.on(
        "response",
        lambda r: (
            violations.append(f"{where['path']}: {r.status} {r.url}")
            if r.status >= 400 and r.url != page.url
            else None
        ),
    )
    for path in paths:
        where["path"] = path
        response = page.goto(f"{live_server.url}{path}")
        assert response is not None and response.status < 400, (path, response and response.status)
        assert "script-src 'self'" in response.headers["content-security-policy"], path
        page.wait_for_load_state("networkidle")
        visited += 1
    assert visited == len(paths)
    assert not violations, "\n".join(violations)
