"""An organiser's club settings: each change is saved and said once in the audit trail
(action ``club.<setting>``, in each organiser's language); setting what is so already
changes nothing and adds no entry."""

from __future__ import annotations

from typing import Any

import pytest

from clubs import services
from clubs.models import AuditEntry, Club

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(django_user_model) -> Any:
    return django_user_model.objects.create_user("org", password="x")


@pytest.fixture
def club(organiser) -> Club:
    return services.create_club(organiser, name="Owls", slug="owls", is_public=True)


def settings_entries(club: Club) -> list[AuditEntry]:
    """The club's audit entries since it was created."""
    return list(club.audit_entries.exclude(action="club.create").order_by("pk"))


@pytest.mark.parametrize(
    ("change", "field", "value", "details"),
    [
        (lambda u, c: services.set_auto_analysis(u, c, True), "auto_analysis", True, {"on": True}),
        (
            lambda u, c: services.set_members_confirm_guests(u, c, True),
            "members_confirm_guests",
            True,
            {"on": True},
        ),
        (
            lambda u, c: services.set_time_zone(u, c, "Asia/Tokyo"),
            "time_zone",
            "Asia/Tokyo",
            {"zone": "Asia/Tokyo"},
        ),
    ],
    ids=["auto_analysis", "members_confirm_guests", "time_zone"],
)
def test_a_setting_changed_is_saved_and_audited_once(
    organiser, club, change, field, value, details
):
    change(organiser, club)
    assert getattr(Club.objects.get(pk=club.pk), field) == value
    (entry,) = settings_entries(club)
    assert entry.action == f"club.{field}" and entry.actor == organiser
    assert entry.details == details
    change(organiser, Club.objects.get(pk=club.pk))  # what is so already
    assert len(settings_entries(club)) == 1


def test_live_tables_audit_only_the_setting_that_changed(organiser, club):
    services.set_live_tables(
        organiser, club, guests_at_tables=True, watchers_see_all_after=club.watchers_see_all_after
    )
    club.refresh_from_db()
    assert club.guests_at_tables is True
    assert [e.action for e in settings_entries(club)] == ["club.guests_at_tables"]
    services.set_live_tables(organiser, club, guests_at_tables=True, watchers_see_all_after=90)
    club.refresh_from_db()
    assert club.watchers_see_all_after == 90
    entries = settings_entries(club)
    assert [e.action for e in entries] == ["club.guests_at_tables", "club.watchers_see_all_after"]
    assert entries[-1].details == {"minutes": 90}
    assert "90 minutes" in entries[-1].summary


def test_live_tables_refuse_a_delay_past_a_week_and_save_nothing(organiser, club):
    with pytest.raises(services.ClubError):
        services.set_live_tables(
            organiser,
            club,
            guests_at_tables=True,
            watchers_see_all_after=services.WATCH_DELAY_LIMIT + 1,
        )
    club.refresh_from_db()
    assert club.guests_at_tables is False
    assert settings_entries(club) == []
