"""Guests by a one-time seat link (issue #36, item 1): where the club allows guests, the
table's opener (or an organiser) makes a link to a free seat; whoever opens it first,
signed in or not, takes that seat, and the link is spent: stored only as a hash, taken
once even by two clicks at the same moment."""

from __future__ import annotations

import hashlib
import threading

import pytest
from django.db import connection
from django.test import Client

from clubs.models import Membership, Player
from live import guests, policy, services
from live.models import SeatLink, Table
from tests.live.conftest import CRYPTID, MX, seats

pytestmark = [pytest.mark.live]


@pytest.fixture
def guest_club(club):
    club.guests_at_tables = True
    club.save()
    return club


def _open(club, people) -> Table:
    return services.open_table(
        club, people["ann"], game_id=CRYPTID, seats=seats(CRYPTID, "me", "free")
    )


def _free_seat(table: Table) -> str:
    return next(s.seat for s in table.seats.all() if s.is_free)


@pytest.mark.django_db
def test_a_club_without_guests_makes_no_links(club, people):
    table = _open(club, people)
    assert not policy.can_link_seat(people["ann"], table)
    ann = Client()
    ann.force_login(people["ann"])
    answer = ann.post(f"/clubs/{club.slug}/tables/{table.pk}/seat-link", {"seat": "scientist"})
    assert answer.status_code == 403
    api = ann.post(
        f"/api/tables/{table.pk}/seat-links/",
        {"seat": "scientist"},
        content_type="application/json",
    )
    assert api.status_code == 403
    assert not SeatLink.objects.exists()


@pytest.mark.django_db
def test_only_the_opener_or_an_organiser_makes_a_link(guest_club, people):
    table = _open(guest_club, people)
    assert policy.can_link_seat(people["ann"], table)
    assert not policy.can_link_seat(people["ben"], table)
    Membership.objects.filter(user=people["ben"], club=guest_club).update(role="organiser")
    table = Table.objects.get(pk=table.pk)
    assert policy.can_link_seat(people["ben"], table)


@pytest.mark.django_db
def test_a_visitor_not_signed_in_takes_the_seat_as_a_guest_and_the_link_is_spent(
    guest_club, people
):
    table = _open(guest_club, people)
    ann = Client()
    ann.force_login(people["ann"])
    ann.post(f"/clubs/{guest_club.slug}/tables/{table.pk}/seat-link", {"seat": "scientist"})
    page = ann.get(f"/clubs/{guest_club.slug}/tables/{table.pk}/").content.decode()
    assert 'id="live-guest-link"' in page
    url = page.split('id="live-guest-link" value="', 1)[1].split('"', 1)[0]
    token = url.rstrip("/").rsplit("/", 1)[1]
    # Shown once, stored only as its hash.
    assert 'id="live-guest-link"' not in ann.get(f"/clubs/{guest_club.slug}/tables/{table.pk}/")
    link = SeatLink.objects.get()
    assert link.token_hash == hashlib.sha256(token.encode()).hexdigest() and token not in str(
        SeatLink.objects.values().get()
    )

    visitor = Client()
    landing = visitor.get(url)
    assert landing.status_code == 200 and 'name="name"' in landing.content.decode()
    assert visitor.post(url, {"name": " "}).status_code == 422  # a name is needed
    taken = visitor.post(url, {"name": "Kenji"})
    assert taken.status_code == 302 and taken["Location"].endswith(f"/tables/{table.pk}/")
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING  # the last seat taken deals
    seat = table.seats.get(seat="scientist")
    assert seat.player == "Kenji" and seat.user.username == "guest-Kenji"
    assert not seat.user.has_usable_password()
    assert Player.objects.get(club=guest_club, handle="Kenji").guest
    # The guest's session is theirs: they see their seat's eyes, and nothing else of the club.
    assert visitor.get(taken["Location"]).status_code == 200
    news = visitor.get(f"/api/tables/{table.pk}/news/?since=0").json()
    assert news["eyes"] == "scientist"
    assert visitor.get(f"/clubs/{guest_club.slug}/tables/new/").status_code == 403
    other = _open(guest_club, people)
    assert visitor.get(f"/clubs/{guest_club.slug}/tables/{other.pk}/").status_code == 403
    # Spent: the next person to open it is told so, and nothing changes.
    late = Client()
    assert late.get(url).status_code == 410
    assert late.post(url, {"name": "Late"}).status_code == 410
    assert not Player.objects.filter(handle="Late").exists()


@pytest.mark.django_db
def test_a_member_who_opens_a_link_sits_as_their_own_handle(guest_club, people):
    table = _open(guest_club, people)
    token = guests.make_link(table.pk, people["ann"], "scientist")
    table, user = guests.take_by_link(token, people["cat"])
    assert user == people["cat"]
    assert table.seats.get(seat="scientist").player == "cat"
    assert not Player.objects.get(club=guest_club, handle="cat").guest


@pytest.mark.django_db
def test_a_guest_at_a_private_clubs_table_sees_that_table(guest_club, people):
    guest_club.is_public = False
    guest_club.save()
    table = _open(guest_club, people)
    token = guests.make_link(table.pk, people["ann"], "scientist")
    client = Client()
    assert client.post(f"/tables/seat/{token}/", {"name": "Olga"}).status_code == 302
    assert client.get(f"/clubs/{guest_club.slug}/tables/{table.pk}/").status_code == 200
    assert client.get(f"/clubs/{guest_club.slug}/").status_code == 404


@pytest.mark.django_db
def test_a_new_link_voids_the_one_before(guest_club, people):
    table = _open(guest_club, people)
    first = guests.make_link(table.pk, people["ann"], "scientist")
    second = guests.make_link(table.pk, people["ann"], "scientist")
    assert guests.waiting_link(first) is None and guests.waiting_link(second) is not None
    with pytest.raises(services.TableIllegal) as refused:
        guests.take_by_link(first, people["outsider"])
    assert refused.value.rule == guests.LIVE_LINK
    with pytest.raises(services.TableIllegal):
        guests.make_link(table.pk, people["ann"], "cryptid")  # ann's own seat: not free


@pytest.mark.django_db
def test_the_api_makes_and_takes_a_link(guest_club, people):
    table = _open(guest_club, people)
    ann, otto = Client(), Client()
    ann.force_login(people["ann"])
    otto.force_login(people["outsider"])
    made = ann.post(
        f"/api/tables/{table.pk}/seat-links/",
        {"seat": "scientist"},
        content_type="application/json",
    )
    assert made.status_code == 201, made.content
    token = made.json()["token"]
    assert made.json()["url"].endswith(f"/tables/seat/{token}/")
    taken = otto.post(
        "/api/tables/take-by-link/", {"token": token}, content_type="application/json"
    )
    assert taken.status_code == 200, taken.content
    assert taken.json()["your_seat"] == "scientist" and taken.json()["status"] == "playing"
    again = ann.post("/api/tables/take-by-link/", {"token": token}, content_type="application/json")
    assert again.status_code in (409, 422)


@pytest.mark.django_db
def test_a_link_read_by_two_clicks_is_spent_by_the_first_even_without_the_lock(
    guest_club, people, monkeypatch
):
    """Both clicks read the link as waiting before either takes it (as two requests at
    once do): the conditional update spends it once; the second is refused and seats
    no one. This holds where the row lock is a no-op too (SQLite)."""
    table = services.open_table(
        guest_club, people["ann"], game_id=MX, seats=seats(MX, "me", "free", "free", "free")
    )
    seat = _free_seat(table)
    token = guests.make_link(table.pk, people["ann"], seat)
    read_early = guests.waiting_link(token)
    monkeypatch.setattr(guests, "waiting_link", lambda _token: read_early)
    guests.take_by_link(token, people["cat"])
    with pytest.raises(services.TableIllegal) as refused:
        guests.take_by_link(token, people["outsider"])
    assert refused.value.rule == guests.LIVE_LINK
    assert SeatLink.objects.get().used_by == people["cat"]
    assert not Table.objects.get(pk=table.pk).seats.filter(user=people["outsider"]).exists()


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_two_clicks_at_once_take_the_seat_once(require_postgres, guest_club, people):
    table = _open(guest_club, people)
    token = guests.make_link(table.pk, people["ann"], "scientist")
    start = threading.Barrier(2)
    outcomes: list[str] = []

    def click(user) -> None:
        try:
            start.wait()
            guests.take_by_link(token, user)
            outcomes.append("seated")
        except services.TableError as exc:
            outcomes.append(exc.rule or exc.code)
        finally:
            connection.close()

    clickers = [threading.Thread(target=click, args=(people[who],)) for who in ("cat", "outsider")]
    for thread in clickers:
        thread.start()
    for thread in clickers:
        thread.join()
    assert len(outcomes) == 2 and outcomes.count("seated") == 1
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert SeatLink.objects.get().used_by_id in {people["cat"].pk, people["outsider"].pk}
