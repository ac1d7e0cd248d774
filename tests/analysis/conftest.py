"""Fixtures of the analysis tests: a club's people, and the analyses sent to the workers."""

from __future__ import annotations

import pytest

from analysis import services
from analysis.models import MatchAnalysis
from clubs.models import Membership


@pytest.fixture
def people(django_user_model, club):
    member = django_user_model.objects.create_user(username="mia", password="pw-for-tests-only")
    organiser = django_user_model.objects.create_user(username="olga", password="pw-for-tests-only")
    Membership.objects.create(user=member, club=club, role=Membership.Role.MEMBER)
    Membership.objects.create(user=organiser, club=club, role=Membership.Role.ORGANISER)
    return {"member": member, "organiser": organiser}


@pytest.fixture
def queued(monkeypatch) -> list[int]:
    """The analyses sent to the workers in the order sent
    (none runs: they stay queued, as behind a busy worker)."""
    sent: list[int] = []
    monkeypatch.setattr(services, "_queue", lambda analysis: sent.append(analysis.pk))
    return sent


@pytest.fixture
def long_match(club):
    """A greedy Cryptid game long enough for several chunks of analysis."""
    from engine import play
    from games.services import ingest_log

    log = next(
        log
        for seed in range(40)
        if len((log := play("cryptid-urban-legends", seed, ["greedy", "greedy"]))["actions"]) > 70
    )
    return ingest_log(club, log, None)


def running(match) -> MatchAnalysis:
    """An analysis of ``match`` marked running, as if started (its chunks not sent)."""
    return MatchAnalysis.objects.create(
        match=match,
        engine_version=services.current_version(match),
        budget=2,
        status="running",
        plies_total=len(match.log.document["actions"]) + 1,
    )
