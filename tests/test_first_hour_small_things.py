"""Issue 35 item 8: small things a Japanese or Russian reader trips on."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from clubs import services
from games.services import ingest_log
from tests.games.logs import bot_log

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("language", ["ja", "ru"])
def test_the_api_is_in_the_footer_and_on_the_profile_not_in_the_main_menu(
    client, django_user_model, language
):
    client.force_login(django_user_model.objects.create_user("olga", password="x"))
    page = client.get(reverse("profile"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    menu = page.split('class="site-nav"', 1)[1].split("</nav>", 1)[0]
    footer = page.split('class="site-footer"', 1)[1]
    main = page.split('id="main"', 1)[1].split("</main>", 1)[0]
    assert 'href="/api/"' not in menu
    assert 'href="/api/"' in footer and 'href="/api/docs/"' in main


@pytest.mark.parametrize("language", ["ja", "ru"])
def test_the_logs_fingerprint_is_shown_only_inside_the_details(client, django_user_model, language):
    organiser = django_user_model.objects.create_user("olga", password="x")
    club = services.create_club(organiser, name="Owls", slug="owls", is_public=True)
    match = ingest_log(club, bot_log("cryptid-urban-legends", 1, ["a", "b"]), organiser)
    page = client.get(
        reverse("match-detail", args=[match.pk]), HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    details = re.search(r"<details.*?</details>", page, re.S).group(0)
    assert "sha256" in details and "sha256" not in page.replace(details, "")
    assert {"ja": "<summary>詳細</summary>", "ru": "<summary>Подробности</summary>"}[
        language
    ] in details
