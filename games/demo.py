"""Demo data for `manage.py seed_demo`: a few clubs with players. Idempotent."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from games.models import Club, Player


@dataclass(frozen=True)
class DemoClub:
    slug: str
    name: str
    is_public: bool
    handles: tuple[str, ...]


DEMO_CLUBS: tuple[DemoClub, ...] = (
    DemoClub(
        "riverside",
        "Riverside Deduction Society",
        True,
        ("alice", "bob", "carol", "dmitri", "emi", "farah"),
    ),
    DemoClub(
        "harbour-lights",
        "Harbour Lights Games Club",
        True,
        ("gus", "hana", "ivan", "jo", "kenji"),
    ),
    DemoClub("night-owls", "Night Owls (private)", False, ("lena", "mo", "nadia")),
)


@transaction.atomic
def seed_demo_clubs() -> list[Club]:
    """Create the demo clubs and their players where missing; change nothing that exists."""
    clubs = []
    for demo in DEMO_CLUBS:
        club, _ = Club.objects.get_or_create(
            slug=demo.slug, defaults={"name": demo.name, "is_public": demo.is_public}
        )
        for handle in demo.handles:
            Player.objects.get_or_create(club=club, handle=handle)
        clubs.append(club)
    return clubs
