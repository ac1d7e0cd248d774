"""Fixtures for uploads: clubs with an organiser, a member and an outsider; API clients."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from clubs.models import Club, Membership, Player


@pytest.fixture(autouse=True)
def _fresh_throttle_counts():
    # Throttle counters live in the cache; one test's uploads must not throttle the next.
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def people(django_user_model):
    """organiser and member of the club; outsider of none."""
    make = django_user_model.objects.create_user
    return {
        "organiser": make(username="olga"),
        "member": make(username="mia"),
        "outsider": make(username="otto"),
    }


@pytest.fixture(autouse=True)
def club(db, people) -> Club:
    """Riverside (public): olga organises, mia is a member. Every test here has it."""
    club = Club.objects.create(name="Riverside Deduction Society", slug="riverside")
    Membership.objects.create(user=people["organiser"], club=club, role="organiser")
    Membership.objects.create(user=people["member"], club=club, role="member")
    for handle in ("alice", "bob"):  # the players of docs/examples/cryptid-*.json
        Player.objects.create(club=club, handle=handle)
    return club


@pytest.fixture
def private_club(db, people) -> Club:
    club = Club.objects.create(name="Secret Circle", slug="secret", is_public=False)
    Membership.objects.create(user=people["member"], club=club, role="member")
    for handle in ("alice", "bob"):
        Player.objects.create(club=club, handle=handle)
    return club
