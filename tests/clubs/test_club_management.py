"""Club management: every permission boundary, invites, roles, merges, voiding."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from clubs import services
from clubs.models import AuditEntry, Club, Invite, JoinRequest, Membership, Player
from config.errors import http_status
from games import services as match_services
from games.models import Match
from games.services import ingest_log
from ladder.models import Rating, RecomputeJob
from tests.games.logs import bot_log

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(django_user_model):
    make = django_user_model.objects.create_user
    return {
        "org": make("org", password="x"),
        "member": make("member", password="x"),
        "outsider": make("outsider", password="x"),
        "staff": make("staff", password="x", is_staff=True),
    }


@pytest.fixture
def club(people) -> Club:
    club = services.create_club(people["org"], name="Owls", slug="owls", is_public=False)
    Membership.objects.create(user=people["member"], club=club)
    return club


@pytest.mark.parametrize(
    ("who", "status"),
    [(None, 302), ("outsider", 404), ("member", 403), ("staff", 404), ("org", 200)],
)
def test_manage_page_boundary_per_role(client, people, club, who, status):
    # A private club does not exist to outsiders (404, staff included: staff operate
    # the site, they are not members); members see it but do not manage it (403).
    if who:
        client.force_login(people[who])
    assert client.get(reverse("club-manage", args=[club.slug])).status_code == status


def test_every_management_post_refuses_a_member(client, people, club):
    client.force_login(people["member"])
    membership = Membership.objects.get(user=people["member"])
    player = Player.objects.create(club=club, handle="zed")
    for url in [
        reverse("invite-create", args=[club.slug]),
        reverse("member-role", args=[club.slug, membership.pk]),
        reverse("player-rename", args=[club.slug, player.pk]),
        reverse("player-merge", args=[club.slug, player.pk]),
    ]:
        assert (
            client.post(
                url, {"role": "organiser", "days": 7, "handle": "x", "into": "y"}
            ).status_code
            == 403
        ), url
    membership.refresh_from_db()
    assert membership.role == "member"
    assert not Invite.objects.exists()


def test_invite_is_single_use(client, people, club, django_user_model):
    invite = services.create_invite(people["org"], club)
    client.force_login(people["outsider"])
    client.post(reverse("invite-accept", args=[invite.token]))
    assert Membership.objects.filter(user=people["outsider"], club=club).exists()
    latecomer = django_user_model.objects.create_user("late", password="x")
    with pytest.raises(services.ClubError) as exc:
        services.accept_invite(latecomer, invite.token)
    assert exc.value.code == "used"
    assert not Membership.objects.filter(user=latecomer).exists()


def test_invite_expires(people, club):
    invite = services.create_invite(people["org"], club, days=1)
    Invite.objects.filter(pk=invite.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    with pytest.raises(services.ClubError) as exc:
        services.accept_invite(people["outsider"], invite.token)
    assert exc.value.code == "expired"


def test_a_refused_change_keeps_its_code_sentence_and_status(people, club):
    """A ClubError (a ``config.errors.Refusal``) answers with its own code, the sentence and
    400; one raised without a code is ``invalid``."""
    invite = services.create_invite(people["org"], club)
    services.revoke_invite(people["org"], invite)
    with pytest.raises(services.ClubError) as exc:
        services.accept_invite(people["outsider"], invite.token)
    assert exc.value.as_dict() == {
        "error": "revoked",
        "index": None,
        "rule": None,
        "message": "This invitation was withdrawn by the club.",
    }
    assert http_status(exc.value) == 400
    assert (services.ClubError("no").code, http_status(services.ClubError("no"))) == (
        "invalid",
        400,
    )


def test_revoked_invite_and_organiser_invite(people, club):
    invite = services.create_invite(people["org"], club)
    services.revoke_invite(people["org"], invite)
    with pytest.raises(services.ClubError):
        services.accept_invite(people["outsider"], invite.token)
    organiser_invite = services.create_invite(people["org"], club, role="organiser")
    membership = services.accept_invite(people["outsider"], organiser_invite.token)
    assert membership.role == "organiser"


def test_join_request_approved_once(people, django_user_model):
    public = services.create_club(people["org"], name="Open", slug="open", is_public=True)
    request = services.request_to_join(people["outsider"], public, "hi")
    with pytest.raises(services.ClubError):
        services.request_to_join(people["outsider"], public)  # one pending at a time
    services.decide_join_request(people["org"], request, approve=True)
    assert Membership.objects.filter(user=people["outsider"], club=public).exists()
    with pytest.raises(services.ClubError):
        services.decide_join_request(people["org"], request, approve=False)
    assert JoinRequest.objects.get(pk=request.pk).status == "approved"


def test_the_last_organiser_cannot_be_demoted(people, club):
    own = Membership.objects.get(user=people["org"], club=club)
    with pytest.raises(services.ClubError) as exc:
        services.set_role(people["org"], own, "member")
    assert exc.value.code == "last_organiser"
    other = Membership.objects.get(user=people["member"], club=club)
    services.set_role(people["org"], other, "organiser")
    services.set_role(people["org"], own, "member")
    own.refresh_from_db()
    assert own.role == "member"
    assert AuditEntry.objects.filter(club=club, action="member.promoted").count() == 1
    assert AuditEntry.objects.filter(club=club, action="member.demoted").count() == 1


def _ratings(club: Club) -> dict[str, tuple[float, int]]:
    return {
        r.player.handle: (r.rating, r.games)
        for r in Rating.objects.filter(ladder__club=club).select_related("player")
    }


def test_merging_two_handles_moves_matches_and_recomputes(
    people, club, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        for seed, pair in enumerate([["ann", "bob"], ["ann-b", "bob"], ["bob", "ann"]]):
            ingest_log(club, bot_log("cryptid-urban-legends", seed, pair, bot="greedy"), None)
    before = _ratings(club)
    assert before["ann"][1] == 2 and before["ann-b"][1] == 1
    source = Player.objects.get(club=club, handle="ann-b")
    target = Player.objects.get(club=club, handle="ann")
    with django_capture_on_commit_callbacks(execute=True):
        services.merge_players(people["org"], source, target)
    after = _ratings(club)
    assert "ann-b" not in after
    assert after["ann"][1] == 3 and after["bob"][1] == 3
    assert target.seats.count() == 3
    entry = AuditEntry.objects.get(club=club, action="player.merge")
    assert "'ann-b' into 'ann'" in entry.summary and entry.actor == people["org"]
    # One job per ladder, created before its task ran and finished by it.
    assert list(RecomputeJob.objects.filter(reason="changed").values_list("status", flat=True)) == [
        "done"
    ]


def test_handles_that_played_each_other_are_not_merged(people, club):
    ingest_log(club, bot_log("cryptid-urban-legends", 1, ["ann", "bob"]), None)
    ann, bob = (Player.objects.get(club=club, handle=h) for h in ("ann", "bob"))
    with pytest.raises(services.ClubError) as exc:
        services.merge_players(people["org"], ann, bob)
    assert exc.value.code == "played_together"
    assert ann.seats.count() == 1


def test_voiding_keeps_the_match_and_unrates_it(
    client, people, club, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        first = ingest_log(
            club, bot_log("cryptid-urban-legends", 3, ["ann", "bob"], bot="greedy"), None
        )
        ingest_log(club, bot_log("cryptid-urban-legends", 4, ["ann", "bob"], bot="greedy"), None)
    assert _ratings(club)["ann"][1] == 2
    client.force_login(people["org"])
    refused = client.post(reverse("match-void", args=[club.slug, first.pk]), {"reason": ""})
    assert refused.status_code == 200 and "This field is required" in refused.content.decode()
    first.refresh_from_db()
    assert not first.is_void  # no reason, no void
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("match-void", args=[club.slug, first.pk]), {"reason": "wrong deck"})
    first.refresh_from_db()
    assert first.is_void and first.void_reason == "wrong deck"
    assert Match.objects.filter(pk=first.pk).exists()
    assert _ratings(club)["ann"][1] == 1
    page = client.get(reverse("club-manage", args=[club.slug])).content.decode()
    assert "wrong deck" in page


def test_handles_render_escaped(client, people, club):
    Player.objects.create(club=club, handle="<script>alert(1)</script>")
    client.force_login(people["org"])
    page = client.get(reverse("club-manage", args=[club.slug])).content.decode()
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_creating_a_club_makes_its_creator_organiser(client, people):
    client.force_login(people["outsider"])
    response = client.post(reverse("club-new"), {"name": "Night Owls", "is_public": "on"})
    assert response.status_code == 302
    club = Club.objects.get(slug="night-owls")
    assert Membership.objects.get(club=club, user=people["outsider"]).role == "organiser"


def test_void_reason_is_shown_on_the_match_page(client, people, club):
    match = ingest_log(club, bot_log("cryptid-urban-legends", 5, ["ann", "bob"]), None)
    match_services.void_match(people["org"], match, "played with <b>wrong</b> deck")
    client.force_login(people["member"])
    page = client.get(reverse("match-detail", args=[match.pk])).content.decode()
    assert "played with &lt;b&gt;wrong&lt;/b&gt; deck" in page
