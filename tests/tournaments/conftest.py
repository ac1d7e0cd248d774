from __future__ import annotations

import pytest

from clubs.models import Membership, Player
from tournaments import services


@pytest.fixture
def organiser(club, django_user_model):
    user = django_user_model.objects.create_user(username="olga", password="pw-for-tests-only")
    Membership.objects.create(user=user, club=club, role=Membership.Role.ORGANISER)
    return user


@pytest.fixture
def make_event(club, organiser):
    """An event of ``count`` players p01.. rated 2000, 1990, …"""

    def make(count: int, **options):
        options.setdefault("game", "cryptid-urban-legends")
        options.setdefault("format", "swiss")
        if options["format"] == "swiss":
            options.setdefault("rounds", 3)
        tournament = services.create_tournament(
            club=club, name="Winter Open", created_by=organiser, **options
        )
        for i in range(count):
            player, _ = Player.objects.get_or_create(club=club, handle=f"p{i + 1:02d}")
            services.add_entry(tournament, player, 2000 - 10 * i)
        return tournament

    return make
