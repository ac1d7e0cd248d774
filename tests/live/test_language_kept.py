"""A club member reading the live pages in Japanese or Russian by a ``?lang=`` link stays in
that language past the tables' forms (opening a table, taking a seat, abandoning), and the
live refusals count in each language's plural forms (docs/live.md)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from live import endings, services
from live.models import Table
from tests.live.conftest import CRYPTID, seats
from tests.live.test_clocks import FixedClock, two_people

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()  # no cookie, no Accept-Language: English unless the URL says otherwise
    client.force_login(user)
    return client


@pytest.mark.parametrize("lang", ["ja", "ru"])
def test_opening_a_table_keeps_the_language_of_the_form(club, people, lang):
    ann = signed_in(people["ann"])
    url = f"/clubs/riverside/tables/new/?game={CRYPTID}&lang={lang}"
    form = ann.get(url)
    assert form["Content-Language"] == lang
    defaults = {
        name: field.initial
        for name, field in form.context["form"].fields.items()
        if name.startswith("option.")
    }
    opened = ann.post(url, {**defaults, "seat.cryptid": "me", "seat.scientist": "free:scientist"})
    table = Table.objects.get()
    assert opened["Location"] == f"/clubs/riverside/tables/{table.pk}/?lang={lang}"
    assert ann.get(opened["Location"])["Content-Language"] == lang


@pytest.mark.parametrize("lang", ["ja", "ru"])
def test_taking_a_seat_and_abandoning_keep_the_language(club, people, lang):
    table = services.open_table(
        club, people["ann"], game_id=CRYPTID, seats=seats(CRYPTID, "me", "free")
    )
    page = f"/clubs/riverside/tables/{table.pk}/"
    joined = signed_in(people["ben"]).post(f"{page}take-seat?lang={lang}")
    assert joined["Location"] == f"{page}?lang={lang}"
    assert signed_in(people["ben"]).get(joined["Location"])["Content-Language"] == lang
    gone = signed_in(people["ann"]).post(f"{page}abandon?lang={lang}")
    assert gone["Location"] == f"/clubs/riverside/?lang={lang}"


def test_a_form_without_a_language_in_its_address_redirects_plainly(club, people):
    table = services.open_table(
        club, people["ann"], game_id=CRYPTID, seats=seats(CRYPTID, "me", "free")
    )
    joined = signed_in(people["ben"]).post(f"/clubs/riverside/tables/{table.pk}/take-seat?lang=xx")
    assert joined["Location"] == f"/clubs/riverside/tables/{table.pk}/"


@pytest.mark.parametrize(
    ("grace", "ru", "en"),
    [
        (121, "121 секунду", "121 seconds"),
        (122, "122 секунды", "122 seconds"),
        (125, "125 секунд", "125 seconds"),
        (111, "111 секунд", "111 seconds"),
    ],
)
def test_a_claim_too_early_counts_the_grace_in_each_languages_plural(
    club, people, monkeypatch, settings, grace, ru, en
):
    settings.LIVE_ABSENCE_GRACE = grace
    clock = FixedClock()
    monkeypatch.setattr("live.clocks.now", clock)
    table = two_people(club, people, CRYPTID, {"kind": "realtime", "minutes": 30})
    endings.arrive(table.pk, people["ben"])
    endings.leave(table.pk, people["ben"])
    clock.tick(seconds=30)
    said = {}
    for lang in ("en", "ru", "ja"):
        with translation.override(lang), pytest.raises(endings.NoClaim) as caught:
            endings.claim(table.pk, people["ann"])
        assert caught.value.code == "too_early"
        said[lang] = caught.value.message
    assert said["en"].endswith(f"away {en}") and said["ru"].endswith(ru)
    assert f"{grace} 秒" in said["ja"]
