"""A small world for the hostile-input tests: a public club whose data the API and pages
may show, and a private club whose data must never reach an outsider.

Both clubs have players, bot-played matches of every game (so ladders exist), a
rejected upload, a bulk import and a running tournament, so that every URL pattern
has a real object to point at.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from rest_framework.authtoken.models import Token

from clubs import services as club_services
from clubs.models import Club, Invite, JoinRequest, Membership, Player
from games import services as game_services
from games.models import Import, Match, Upload
from ladder.models import Ladder
from live import services as live_services
from recorder import services as recorder_services
from tests.games.logs import bot_log, corrupt
from tournaments import services as tournament_services
from tournaments.models import Pairing, Tournament

#: (game, players per match) of the bot-played matches every club gets
GAMES = [("cryptid-urban-legends", 2), ("mister-x", 3), ("cloak-and-dagger", 2)]


@dataclass
class SeededClub:
    club: Club
    handles: list[str]
    matches: list[Match]
    uploads: list[Upload]
    imports: list[Import]
    ladders: list[Ladder]
    tournaments: list[Tournament]
    pairings: list[Pairing]
    players: list[Player] = field(default_factory=list)
    invites: list[Invite] = field(default_factory=list)
    join_requests: list[JoinRequest] = field(default_factory=list)
    memberships: list[Membership] = field(default_factory=list)

    def markers(self) -> list[str]:
        """Text that only this club's data contains: what must never reach an outsider."""
        return [self.club.name, self.club.slug, *self.handles, *(t.name for t in self.tournaments)]


@pytest.fixture
def people(django_user_model) -> dict:
    """organiser and member of both clubs, an outsider of both (no passwords: hashing is slow)."""
    make = django_user_model.objects.create_user
    return {
        "organiser": make(username="olga"),
        "member": make(username="mia"),
        "outsider": make(username="otto"),
        "applicant": make(username="abe"),  # asked to join both clubs, waiting
    }


@pytest.fixture
def tokens(people) -> dict[str, str]:
    return {who: Token.objects.create(user=user).key for who, user in people.items()}


def seed_club(
    name: str, slug: str, handles: list[str], people: dict, *, public: bool, seed: int, on_commit
) -> SeededClub:
    """``on_commit``: django_capture_on_commit_callbacks, so the matches get rated (ladders)."""
    club = Club.objects.create(name=name, slug=slug, is_public=public)
    Membership.objects.create(user=people["organiser"], club=club, role="organiser")
    Membership.objects.create(user=people["member"], club=club, role="member")
    matches = []
    for offset, (game, size) in enumerate(GAMES):
        for round_ in range(2):
            players = [handles[(round_ + i) % len(handles)] for i in range(size)]
            log = bot_log(
                game,
                seed + 10 * offset + round_,
                players,
                played_at=f"2026-0{offset + 1}-1{round_}T19:00:00Z",
            )
            with on_commit(execute=True):
                matches.append(game_services.ingest_log(club, log, None))
    rejected = bot_log("cryptid-urban-legends", seed + 99, handles[:2])
    with pytest.raises(game_services.LogRejected) as refused:
        game_services.ingest_log(club, corrupt(rejected), people["member"])
    uploads = list(Upload.objects.filter(club=club).order_by("id"))
    assert refused.value.upload in uploads
    run = game_services.create_import(
        club,
        (game_services.ingest.engine.canonical_json(rejected) + "\n").encode(),
        "night.jsonl",
        people["organiser"],
        enqueue=False,
    )
    game_services.run_import(run.pk)
    event = tournament_services.create_tournament(
        club=club,
        name=f"{name} Open",
        game="cryptid-urban-legends",
        format="swiss",
        rounds=2,
        created_by=people["organiser"],
    )
    for handle in handles[:4]:
        tournament_services.add_entry(event, Player.objects.get(club=club, handle=handle), 1500)
    tournament_services.start_tournament(event)
    # A game being recorded (recorder/): urlwalk finds drafts by their club, generically.
    setup = bot_log("cloak-and-dagger", seed, handles[:2])["setup"]
    recorder_services.create_draft(
        club,
        people["organiser"],
        game_id="cloak-and-dagger",
        chance="table",
        setup=setup,
        seats=[{"seat": "p1", "player": handles[0]}, {"seat": "p2", "player": handles[1]}],
    )
    # A table played online (live/), waiting for a member: found by its club as well.
    live_services.open_table(
        club,
        people["organiser"],
        game_id="cryptid-urban-legends",
        seats=[{"seat": "cryptid", "take": "free"}, {"seat": "scientist", "take": "free"}],
    )
    invite = club_services.create_invite(people["organiser"], club)
    join_request = club_services.request_to_join(people["applicant"], club, "let me in")
    return SeededClub(
        club=club,
        handles=handles,
        matches=matches,
        uploads=list(Upload.objects.filter(club=club).order_by("id")),
        imports=[run],
        ladders=list(Ladder.objects.filter(club=club).order_by("id")),
        tournaments=[event],
        pairings=list(Pairing.objects.filter(tournament=event).order_by("id")),
        players=list(Player.objects.filter(club=club).order_by("id")),
        invites=[invite],
        join_requests=[join_request],
        memberships=list(Membership.objects.filter(club=club).order_by("id")),
    )


@pytest.fixture
def public_club(db, people, django_capture_on_commit_callbacks) -> SeededClub:
    return seed_club(
        "Riverside Deduction Society",
        "riverside",
        ["alice", "bob", "carol", "dave"],
        people,
        public=True,
        seed=1,
        on_commit=django_capture_on_commit_callbacks,
    )


@pytest.fixture
def private_club(db, people, django_capture_on_commit_callbacks) -> SeededClub:
    """Handles, slug and name chosen to be found in any page that leaks them."""
    return seed_club(
        "Zanzibar Hush Circle",
        "zanzibar-hush",
        ["quokkaspy", "velvetmole", "xylophox", "wraithjay"],
        people,
        public=False,
        seed=5,
        on_commit=django_capture_on_commit_callbacks,
    )
