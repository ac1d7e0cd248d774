"""Membership by clicking (issue #20): joining by invitation through sign-up, asking to
join, leaving, linking a handle to an account, void and restore, person pages, and the
confirmation step of every destructive action."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubs import services
from clubs.models import AuditEntry, Club, HandleClaim, Invite, JoinRequest, Membership, Player
from games.models import Match
from games.services import ingest_log
from tests.games.logs import bot_log

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(django_user_model):
    make = django_user_model.objects.create_user
    return {
        "org": make("org", password="x"),
        "member": make("member", password="x"),
        "outsider": make("outsider", password="x"),
    }


@pytest.fixture
def club(people) -> Club:
    club = services.create_club(people["org"], name="Owls", slug="owls", is_public=True)
    Membership.objects.create(user=people["member"], club=club)
    return club


def signup(client, next_url: str, username: str = "newbie"):
    return client.post(
        f"{reverse('signup')}?next={next_url}",
        {
            "username": username,
            "email": f"{username}@example.org",
            "password1": "a-long-enough-passphrase",
            "password2": "a-long-enough-passphrase",
            "next": next_url,
        },
    )


def test_an_invitation_survives_sign_up_and_is_taken_up_once_the_account_exists(
    client, people, club, django_user_model
):
    invite = services.create_invite(people["org"], club, role="organiser")
    link = reverse("invite-accept", args=[invite.token])
    page = client.get(link).content.decode()
    assert "Create an account and join" in page
    assert f'href="{reverse("signup")}?next={link}"' in page
    form = client.get(f"{reverse('signup')}?next={link}").content.decode()
    assert "You are invited to join" in form and "Owls" in form
    response = signup(client, link)
    assert response["Location"] == reverse("club", args=[club.slug])
    newbie = django_user_model.objects.get(username="newbie")
    assert Membership.objects.get(user=newbie, club=club).role == "organiser"
    assert Invite.objects.get(pk=invite.pk).used_by == newbie


def test_the_sign_in_page_names_the_invitation_and_keeps_it_for_sign_up(client, people, club):
    invite = services.create_invite(people["org"], club)
    link = reverse("invite-accept", args=[invite.token])
    page = client.get(f"{reverse('login')}?next={link}").content.decode()
    assert "You are invited to join <strong>Owls</strong>" in page
    assert f'href="{reverse("signup")}?next={link}"' in page


def test_sign_up_ignores_a_next_outside_the_site(client):
    response = signup(client, "https://evil.example/")
    assert response["Location"] == reverse("index")


def test_asking_to_join_from_the_club_page_and_the_organisers_answer(client, people, club):
    client.force_login(people["outsider"])
    page = client.get(reverse("club", args=[club.slug])).content.decode()
    assert "Request to join" in page
    client.post(reverse("club-join", args=[club.slug]), {"message": "I play on Tuesdays"})
    assert (
        "waiting for an organiser" in client.get(reverse("club", args=[club.slug])).content.decode()
    )
    request = JoinRequest.objects.get(user=people["outsider"])
    client.force_login(people["org"])
    decline = client.post(
        reverse("join-decide", args=[club.slug, request.pk]), {"decision": "decline"}
    )
    assert decline.status_code == 200 and "Decline outsider" in decline.content.decode()
    assert JoinRequest.objects.get(pk=request.pk).status == "pending"  # not yet: confirm first
    client.post(reverse("join-decide", args=[club.slug, request.pk]), {"decision": "approve"})
    assert Membership.objects.filter(user=people["outsider"], club=club).exists()


def test_leaving_asks_first_and_the_last_organiser_cannot_leave(client, people, club):
    client.force_login(people["member"])
    asked = client.post(reverse("club-leave", args=[club.slug]))
    assert asked.status_code == 200 and "Leave Owls?" in asked.content.decode()
    assert Membership.objects.filter(user=people["member"], club=club).exists()
    client.post(reverse("club-leave", args=[club.slug]), {"confirmed": "yes"})
    assert not Membership.objects.filter(user=people["member"], club=club).exists()
    client.force_login(people["org"])
    client.post(reverse("club-leave", args=[club.slug]), {"confirmed": "yes"})
    assert Membership.objects.filter(user=people["org"], club=club).exists()
    assert AuditEntry.objects.filter(club=club, action="member.leave").count() == 1


def test_merging_handles_asks_first(client, people, club):
    source = Player.objects.create(club=club, handle="ann-b")
    Player.objects.create(club=club, handle="ann")
    client.force_login(people["org"])
    url = reverse("player-merge", args=[club.slug, source.pk])
    asked = client.post(url, {"into": "ann"})
    assert (
        asked.status_code == 200
        and "Merge &#x27;ann-b&#x27; into &#x27;ann&#x27;?" in asked.content.decode()
    )
    assert Player.objects.filter(pk=source.pk).exists()
    client.post(url, {"into": "ann", "confirmed": "yes"})
    assert not Player.objects.filter(pk=source.pk).exists()


def test_an_organiser_links_a_handle_to_a_member_and_it_shows_on_their_pages(client, people, club):
    match = ingest_log(club, bot_log("cryptid-urban-legends", 1, ["ann", "bob"]), None)
    ann = Player.objects.get(club=club, handle="ann")
    client.force_login(people["org"])
    client.post(
        reverse("player-link", args=[club.slug, ann.pk]), {"user": people["outsider"].pk}
    )  # not a member: refused
    ann.refresh_from_db()
    assert ann.user is None
    client.post(reverse("player-link", args=[club.slug, ann.pk]), {"user": people["member"].pk})
    ann.refresh_from_db()
    assert ann.user == people["member"]
    client.force_login(people["member"])
    home = client.get(reverse("index")).content.decode()
    assert f'href="/matches/{match.pk}/"' in home.split("Your latest games")[1].split("Clubs")[0]
    person = client.get(reverse("person", args=["member"])).content.decode()
    assert "ann" in person and f"/matches/{match.pk}/" in person
    # Unlinking asks first.
    client.force_login(people["org"])
    asked = client.post(reverse("player-link", args=[club.slug, ann.pk]), {"user": ""})
    assert asked.status_code == 200
    ann.refresh_from_db()
    assert ann.user == people["member"]


def test_a_person_page_shows_only_what_the_visitor_may_see(client, people, club):
    secret = services.create_club(people["org"], name="Hush", slug="hush", is_public=False)
    Membership.objects.create(user=people["member"], club=secret)
    Player.objects.create(club=secret, handle="quietmole", user=people["member"])
    assert client.get(reverse("person", args=["member"])).status_code == 404  # nothing public
    client.force_login(people["outsider"])
    assert client.get(reverse("person", args=["member"])).status_code == 404
    client.force_login(people["org"])
    assert "quietmole" in client.get(reverse("person", args=["member"])).content.decode()


def test_void_and_restore_each_need_a_reason(client, people, club):
    match = ingest_log(club, bot_log("cryptid-urban-legends", 2, ["ann", "bob"]), None)
    client.force_login(people["org"])
    form = client.get(reverse("match-void", args=[club.slug, match.pk])).content.decode()
    assert "Why is it void?" in form
    client.post(reverse("match-void", args=[club.slug, match.pk]), {"reason": "wrong deck"})
    client.post(reverse("match-restore", args=[club.slug, match.pk]), {"reason": " "})
    assert Match.objects.get(pk=match.pk).is_void
    client.post(reverse("match-restore", args=[club.slug, match.pk]), {"reason": "right deck"})
    assert not Match.objects.get(pk=match.pk).is_void
    client.force_login(people["member"])
    assert client.get(reverse("match-restore", args=[club.slug, match.pk])).status_code == 403


def test_a_member_claims_a_handle_and_an_organiser_confirms(client, people, club):
    ingest_log(club, bot_log("cryptid-urban-legends", 4, ["ann", "bob"]), None)
    ann = Player.objects.get(club=club, handle="ann")
    client.force_login(people["member"])
    page = client.get(reverse("handle-claim", args=[club.slug])).content.decode()
    assert "ann" in page and "bob" in page
    client.post(reverse("handle-claim", args=[club.slug]), {"player": ann.pk})
    again = client.post(reverse("handle-claim", args=[club.slug]), {"player": ann.pk}, follow=True)
    assert "waiting for an organiser" in again.content.decode()
    claim = HandleClaim.objects.get(player=ann, user=people["member"], status="pending")
    client.force_login(people["outsider"])
    assert (
        client.post(
            reverse("claim-decide", args=[club.slug, claim.pk]), {"decision": "approve"}
        ).status_code
        == 403
    )
    client.force_login(people["org"])
    assert (
        "says <strong>ann</strong> is them"
        in client.get(reverse("club-manage", args=[club.slug])).content.decode()
    )
    client.post(reverse("claim-decide", args=[club.slug, claim.pk]), {"decision": "approve"})
    ann.refresh_from_db()
    assert ann.user == people["member"]
    assert HandleClaim.objects.get(pk=claim.pk).status == "approved"


def test_an_invitation_can_name_the_handle_it_binds(client, people, club, django_user_model):
    ingest_log(club, bot_log("cryptid-urban-legends", 5, ["cleo", "dan"]), None)
    cleo = Player.objects.get(club=club, handle="cleo")
    client.force_login(people["org"])
    client.post(
        reverse("invite-create", args=[club.slug]), {"role": "member", "days": 7, "player": cleo.pk}
    )
    invite = Invite.objects.get(club=club, player=cleo)
    client.logout()
    signup(client, reverse("invite-accept", args=[invite.token]), username="cleo-account")
    cleo.refresh_from_db()
    assert cleo.user == django_user_model.objects.get(username="cleo-account")


def test_renaming_and_merging_handles_keep_the_link_to_the_account(people, club):
    ingest_log(club, bot_log("cryptid-urban-legends", 6, ["ann-b", "bob"]), None)
    ingest_log(club, bot_log("cryptid-urban-legends", 7, ["ann", "bob"]), None)
    source = Player.objects.get(club=club, handle="ann-b")
    services.link_player(people["org"], source, people["member"])
    services.rename_player(people["org"], source, "ann-2")
    source.refresh_from_db()
    assert source.user == people["member"]
    target = Player.objects.get(club=club, handle="ann")
    services.merge_players(people["org"], source, target)
    target.refresh_from_db()
    assert target.user == people["member"] and target.seats.count() == 2
