"""Issue 35 item 1: a club named in Japanese or Russian, address left blank, gets an
address a person can type, made from its name, unique on the site and shown before saving."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubs import addresses, services
from clubs.models import Club

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(django_user_model):
    return django_user_model.objects.create_user("olga", password="x")


@pytest.mark.parametrize(
    ("name", "address"),
    [
        ("東京推理ゲーム会", "tokyo-suiri-game-kai"),
        ("さくらクラブ", "sakura-club"),
        ("Московский клуб дедукции", "moskovsky-klub-deduktsii"),
        ("Щёлковские сыщики", "shchyolkovskiye-syshchiki"),
        ("Café Noir", "cafe-noir"),
    ],
)
def test_a_name_in_japanese_russian_or_latin_reads_as_an_address(name, address):
    assert addresses.address_from_name(name) == address


def test_a_name_with_no_letters_to_type_gets_the_same_short_code_each_time():
    code = addresses.address_from_name("★★★")
    assert code.startswith("club-") and len(code) == len("club-") + 6
    assert addresses.address_from_name("★★★") == code


def test_a_long_name_is_cut_between_words():
    address = addresses.address_from_name("Клуб " * 30)
    assert len(address) <= addresses.ADDRESS_LENGTH and not address.endswith("-")


@pytest.mark.parametrize("language", ["ja", "ru"])
def test_the_form_creates_a_japanese_club_with_its_address_left_blank(client, organiser, language):
    client.force_login(organiser)
    response = client.post(
        reverse("club-new"),
        {"name": "東京推理ゲーム会", "slug": "", "is_public": "on"},
        HTTP_ACCEPT_LANGUAGE=language,
    )
    club = Club.objects.get(name="東京推理ゲーム会")
    assert club.slug == "tokyo-suiri-game-kai"
    assert response.status_code == 302 and response.url == reverse("club-manage", args=[club.slug])
    # the message after creating it, in the reader's language
    page = client.get(response.url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    ready = {"ja": "の準備ができました", "ru": "готов"}[language]
    assert ready in page and "is ready" not in page


def test_a_second_club_of_the_same_name_gets_a_numbered_address(organiser):
    first = services.create_club(organiser, name="Клуб сыщиков", is_public=True)
    second = services.create_club(organiser, name="Клуб сыщиков", is_public=True)
    assert (first.slug, second.slug) == ("klub-syshchikov", "klub-syshchikov-2")


def test_a_club_named_new_does_not_take_the_new_club_page(organiser):
    assert services.create_club(organiser, name="New", is_public=True).slug == "new-2"


def test_the_form_shows_the_address_before_saving(client, organiser):
    client.force_login(organiser)
    services.create_club(organiser, name="東京推理ゲーム会", is_public=True)
    answer = client.get(reverse("club-address"), {"name": "東京推理ゲーム会"}).json()
    assert answer == {"address": "tokyo-suiri-game-kai-2"}
    page = client.get(reverse("club-new"), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "/clubs//" not in page and 'id="address-preview"' in page
    # a page sent back (the name too long, say) shows the address the name reads as
    page = client.post(
        reverse("club-new"), {"name": "Сыщики" + "!" * 200, "slug": ""}
    ).content.decode()
    assert "/clubs/syshchiki/" in page
