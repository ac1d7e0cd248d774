"""A private club does not exist to outsiders, through any URL the site has.

The walk takes every URL pattern from the URLconf (so a URL added tomorrow is walked
tomorrow), fills its parameters with the private club's slug, match, upload, import,
ladder, player, tournament, pairing, invite, request and membership ids and handles,
and asks as an outsider: anonymous, signed in but not a member, and by API token.
Each answer must

- hold none of the club's data (name, slug, handles, event names) in its headers or
  body (zip exports unpacked), and
- be the answer the same URL gets when it names things that do not exist: same status
  (404, not 403, for a private object; the same redirect to sign in), so that an
  outsider cannot even learn that the club exists.

Every public list, filter, export and replay URL is also asked with the private club's
slug, handles and ids as query parameters (``?player=…&club=…&tournament=…``), and
must not answer with its data. POSTs (without CSRF enforcement, as a script would)
must change nothing of the private club.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import NoReverseMatch

from clubs.models import Membership, Player
from config.sentences import Sentence
from games.models import Import, Match, Upload
from ladder.models import Rating
from tests.security.urlwalk import Route, fill, response_text, routes
from tournaments.models import Entry, Pairing, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def outsiders(people, tokens) -> dict[str, Client]:
    anonymous = Client()
    signed_in = Client()
    signed_in.force_login(people["outsider"])
    by_token = Client(HTTP_AUTHORIZATION=f"Token {tokens['outsider']}")
    return {"anonymous": anonymous, "outsider": signed_in, "token": by_token}


def _probe_query(private) -> str:
    """Filter parameters naming the private club's things, for every public URL. Pages
    may echo them (a filter form, a pager); what they must not show is what the filter
    would find: the other players of those matches, the club's name, its events."""
    return (
        f"?player={private.handles[0]}&club={private.club.slug}&slug={private.club.slug}"
        f"&tournament={private.tournaments[0].pk}&match={private.matches[0].pk}"
        f"&ladder={private.ladders[0].pk}&handle={private.handles[1]}&view=all"
    )


def _private_rows(private) -> dict[str, int]:
    club = private.club
    return {
        "matches": Match.objects.filter(club=club).count(),
        "voided": Match.objects.filter(club=club, is_void=True).count(),
        "uploads": Upload.objects.filter(club=club).count(),
        "imports": Import.objects.filter(club=club).count(),
        "players": Player.objects.filter(club=club).count(),
        "handles": hash(
            tuple(
                Player.objects.filter(club=club).values_list("handle", flat=True).order_by("handle")
            )
        ),
        "memberships": hash(
            tuple(
                Membership.objects.filter(club=club)
                .values_list("user_id", "role")
                .order_by("user_id")
            )
        ),
        "tournaments": hash(
            tuple(Tournament.objects.filter(club=club).values_list("status", "current_round"))
        ),
        "entries": Entry.objects.filter(tournament__club=club, withdrawn=False).count(),
        "pairings": hash(
            tuple(
                Pairing.objects.filter(tournament__club=club)
                .values_list("status", "overridden")
                .order_by("id")
            )
        ),
        "ratings": Rating.objects.filter(ladder__club=club).count(),
    }


def _leaks(text: str, markers: list[str]) -> list[str]:
    lowered = text.lower()
    return [marker for marker in markers if marker.lower() in lowered]


def test_every_url_as_an_outsider_hides_the_private_club(
    private_club, public_club, outsiders, settings
):
    settings.LANTERN_UPLOAD_RATE = "100000/min"  # a POST per URL must reach its view
    markers = private_club.markers()
    echoed = {private_club.club.slug, *private_club.handles[:2]}  # in the probe query
    probe_markers = [marker for marker in markers if marker not in echoed]
    rows = _private_rows(private_club)
    problems: list[str] = []
    walked = 0
    for route in routes():
        try:
            private_url = fill(route, private_club)
            missing_url = fill(route, None)
            public_url = fill(route, public_club) + _probe_query(private_club)
        except NoReverseMatch as exc:  # pragma: no cover - a message is the point
            problems.append(f"{route.pattern}: cannot build its URL ({exc})")
            continue
        walked += 1
        for who, client in outsiders.items():
            if who == "token" and not route.is_api:
                continue  # tokens authenticate the API only; pages see an anonymous visitor
            problems += _check(
                route, who, client, private_url, missing_url, public_url, markers, probe_markers
            )
    assert walked == len(routes())
    assert _private_rows(private_club) == rows, "an outsider's request changed the private club"
    assert not problems, "\n".join(problems)


def _check(
    route: Route,
    who: str,
    client: Client,
    private_url: str,
    missing_url: str,
    public_url: str,
    markers: list[str],
    probe_markers: list[str],
) -> list[str]:
    problems = []
    for method in ("get", "post"):
        private = getattr(client, method)(private_url)
        missing = getattr(client, method)(missing_url)
        where = f"{method.upper()} {private_url} ({route.name}) as {who}"
        leaked = _leaks(response_text(private), markers)
        if leaked:
            problems.append(f"{where}: shows {leaked}")
        if private.status_code != missing.status_code:
            problems.append(
                f"{where}: {private.status_code}, but {missing.status_code} for {missing_url}: "
                "a private club must look like no club"
            )
        elif private.status_code == 403 and private_url != missing_url:
            # Even when a missing thing is also 403, a club's object must be 404 to those
            # who may not see it; staff-only URLs with no private object are not this case.
            problems.append(f"{where}: 403 tells that it exists; answer 404")
    probe = client.get(public_url)
    leaked = _leaks(response_text(probe), probe_markers)
    if leaked:
        problems.append(f"GET {public_url} ({route.name}) as {who}: shows {leaked}")
    return problems


def test_the_walk_reaches_real_pages_for_a_member(private_club, people):
    """The fills are right: the same URLs, asked by a member of the private club, find
    its things (else the walk above would pass by asking for nothing)."""
    client = Client()
    client.force_login(people["organiser"])
    found = 0
    not_found = []
    for route in routes():
        if route.is_admin or "format" in route.params:
            continue
        response = client.get(fill(route, private_club))
        if response.status_code == 404:
            not_found.append(f"{route.name}: {fill(route, private_club)}")
        elif response.status_code == 200 and route.params:
            found += 1
            if not _leaks(response_text(response), private_club.markers()):
                # Some pages name nothing of the club (a job list, a schema); that is fine,
                # but most must: counted below.
                found -= 1
    # invite-accept is walked with a token that does not exist (a capability, see urlwalk);
    # api-not-found is the API's answer to a path no route matches (config.errors).
    expected = [
        f"{name}: {fill(next(r for r in routes() if r.name == name), private_club)}"
        for name in ("invite-accept", "api-not-found")
    ]
    assert sorted(not_found) == sorted(expected)
    assert found >= 25, found


def test_creating_an_event_does_not_tell_an_outsider_a_private_club_exists(people, private_club):
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(people["outsider"])
    answers = []
    for slug in (private_club.club.slug, "no-such-club-here"):
        response = client.post(
            "/api/tournaments/",
            {
                "club": slug,
                "name": "Autumn",
                "game": "cloak-and-dagger",
                "format": "swiss",
                "rounds": 3,
            },
            format="json",
        )
        answers.append((response.status_code, response.content.replace(slug.encode(), b"SLUG")))
    # The same "no such club" as for a club that does not exist (404, the field named).
    assert answers[0] == answers[1] and answers[0][0] == 404


def test_an_operator_reading_a_private_clubs_upload_is_written_to_its_audit_trail(
    people, private_club, public_club, django_user_model
):
    from rest_framework.test import APIClient

    from clubs.models import AuditEntry

    operator = django_user_model.objects.create_user(username="opal", is_staff=True)
    upload = private_club.uploads[0]
    before = AuditEntry.objects.filter(club=private_club.club, action="upload.staff_read").count()
    page = Client()
    page.force_login(operator)
    assert page.get(f"/uploads/{upload.pk}/").status_code == 200
    api = APIClient()
    api.force_authenticate(operator)
    assert api.get(f"/api/uploads/{upload.pk}/").status_code == 200
    entries = AuditEntry.objects.filter(club=private_club.club, action="upload.staff_read")
    assert entries.count() == before + 2
    assert entries.first().actor == operator and f"upload {upload.pk}" in entries.first().summary
    # Its upload's status (and "unnamed") are words of the reader's language, not codes.
    from django.utils import translation

    words = {
        "accepted": ("accepted", "受理", "принята"),
        "rejected": ("rejected", "却下", "отклонена"),
        "duplicate": ("already stored", "保存済み", "уже сохранена"),
    }[upload.status]
    for language, word in zip(("en", "ja", "ru"), words, strict=True):
        with translation.override(language):
            assert (
                f", {word})" in entries.first().summary_text
                or f"、{word}）" in entries.first().summary_text
            )
    nameless = Sentence.site("%(name)s", name={"msgid": "unnamed"})
    assert (nameless.text("en"), nameless.text("ja"), nameless.text("ru")) == (
        "unnamed",
        "名前なし",
        "без имени",
    )
    # The club's own organiser reading it, or anyone reading a public club's: no entry.
    own = Client()
    own.force_login(people["organiser"])
    assert own.get(f"/uploads/{upload.pk}/").status_code == 200
    assert page.get(f"/uploads/{public_club.uploads[0].pk}/").status_code == 200
    assert AuditEntry.objects.filter(action="upload.staff_read").count() == before + 2
