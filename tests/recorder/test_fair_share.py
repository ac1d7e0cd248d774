"""A person's share of the bots (recorder.budgets, docs/fair-share.md): games against a
bot open at once, and moves the bots make for them a minute; a 429 past either, from
the API and from the setup page, in the reader's language."""

from __future__ import annotations

import pytest
from django.utils import timezone

from recorder.models import Draft, DraftWrite

pytestmark = pytest.mark.django_db

AGAINST_A_BOT = [{"seat": "p1", "player": "alice"}, {"seat": "p2", "bot": "random"}]


def open_game(client, language: str = "en"):
    return client.post(
        "/api/drafts/",
        {"club": "riverside", "game": "cloak-and-dagger", "seats": AGAINST_A_BOT},
        format="json",
        HTTP_ACCEPT_LANGUAGE=language,
    )


@pytest.mark.parametrize(
    ("language", "words"), [("en", "limit is 2 per person"), ("ja", "2"), ("ru", "2")]
)
def test_a_person_may_have_so_many_games_against_a_bot_open(api, club, settings, language, words):
    settings.LANTERN_BOT_DRAFTS_OPEN = 2
    client = api("member")
    assert [open_game(client).status_code for _ in range(2)] == [201, 201]
    refused = open_game(client, language)
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    body = refused.json()
    assert body["error"] == "over_budget" and body["limit"] == 2 and words in body["message"]
    if language != "en":
        assert "limit" not in body["message"]
    assert Draft.objects.count() == 2
    # Another person is not held back; a table game (no bot) is not counted.
    assert open_game(api("other")).status_code == 201
    table = client.post(
        "/api/drafts/",
        {
            "club": "riverside",
            "game": "cloak-and-dagger",
            "seats": [{"seat": "p1", "player": "alice"}, {"seat": "p2", "player": "bob"}],
        },
        format="json",
    )
    assert table.status_code == 201
    # Abandoning one frees a place.
    draft = next(d for d in Draft.objects.filter(created_by__username="mia") if d.bot_seats)
    abandoned = client.post(
        f"/api/drafts/{draft.pk}/abandon/", {"version": draft.version}, format="json"
    )
    assert abandoned.status_code == 200
    assert open_game(client).status_code == 201


def test_the_bots_make_so_many_moves_a_minute_for_one_person(api, club, settings):
    settings.LANTERN_BOT_MOVES_PER_MINUTE = 3
    client = api("member")
    draft = open_game(client).json()
    made = 0
    for _ in range(10):
        choice = client.get(f"/api/drafts/{draft['id']}/legal-actions/").json()
        answer = client.post(
            f"/api/drafts/{draft['id']}/apply/",
            {"version": draft["version"], "action": choice["actions"][0]["action"]},
            format="json",
        )
        if answer.status_code == 429:
            break
        assert answer.status_code == 200, answer.json()
        draft = answer.json()
        made = sum(DraftWrite.objects.values_list("bot_moves", flat=True))
    assert answer.status_code == 429, "the bots never stopped"
    assert made >= 3
    body = answer.json()
    assert body["error"] == "over_budget" and "3 moves a minute" in body["message"]
    assert (
        0 < int(answer["Retry-After"]) <= 60 and f"{body['retry_after']} second" in body["message"]
    )
    # A minute later the bots play again.
    DraftWrite.objects.update(created_at=timezone.now() - timezone.timedelta(seconds=61))
    choice = client.get(f"/api/drafts/{draft['id']}/legal-actions/").json()
    again = client.post(
        f"/api/drafts/{draft['id']}/apply/",
        {"version": draft["version"], "action": choice["actions"][0]["action"]},
        format="json",
    )
    assert again.status_code == 200


def test_the_setup_page_says_the_limit_with_a_429_not_a_crash(client, club, people, settings):
    settings.LANTERN_BOT_DRAFTS_OPEN = 0
    client.force_login(people["member"])
    page = client.get("/clubs/riverside/record/?game=cloak-and-dagger&players=2&chance=server")
    assert page.status_code == 200
    form = page.context["form"]
    data = {
        name: (field.initial if field.initial is not None else "")
        for name, field in form.fields.items()
    }
    data.update({k: v for k, v in form.initial.items()})
    answer = client.post(
        "/clubs/riverside/record/?game=cloak-and-dagger&players=2&chance=server",
        data,
        HTTP_ACCEPT_LANGUAGE="ru",
    )
    assert answer.status_code == 429 and int(answer["Retry-After"]) > 0
    assert "на человека можно не больше 0" in answer.content.decode() and Draft.objects.count() == 0
