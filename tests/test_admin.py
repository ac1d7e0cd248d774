"""The Django admin: every model of the project is registered, every changelist and
change page renders with data present, changelists do not query per row, and stored
records (logs, uploads, the audit trail, rating history) cannot be added or changed."""

from __future__ import annotations

import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib import admin
from django.contrib.admin.utils import quote
from django.contrib.auth.models import Group
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from rest_framework.authtoken.models import Token

from accounts.models import AccountSettings
from analysis.models import AnalysisChunk, ClubAnalysisDay, MatchAnalysis
from clubs.models import AuditEntry, Club, HandleClaim, Invite, JoinRequest, Membership
from config.admin_base import RecordAdmin
from dashboard.models import DroppedTask
from games.models import Import, MatchLog, Upload
from ladder.models import Ladder, Rating, RatingChange, RecomputeJob
from ladder.services import recompute_ladder
from live.models import SeatLink, Table, TableEvent, TableSeat
from recorder.models import Draft, DraftWrite
from tests.ladder.factories import BASE, make_match, player
from tournaments.models import Entry, ForbiddenPairing, Pairing, PairingSeat, Tournament

pytestmark = pytest.mark.django_db

CRYPTID = "cryptid-urban-legends"


def project_models() -> list[type]:
    """The models of Lantern's own apps (not Django's or a library's)."""
    base = Path(settings.BASE_DIR).resolve()
    # The virtualenv may live inside the project (`make install` creates .venv there):
    # what is installed in it is a library's, not ours.
    installed = Path(sys.prefix).resolve()
    return [
        model
        for config in apps.get_app_configs()
        if (path := Path(config.path).resolve()).is_relative_to(base)
        and not path.is_relative_to(installed)
        for model in config.get_models()
    ]


def populate(tag: str, django_user_model) -> None:
    """One club's worth of every project model, each row linked as the site links them."""
    organiser = django_user_model.objects.create_user(f"org-{tag}", password="x")
    joiner = django_user_model.objects.create_user(f"joiner-{tag}")
    Token.objects.create(user=organiser)
    AccountSettings.objects.create(user=organiser, language="ja", time_zone="Asia/Tokyo")
    club = Club.objects.create(name=f"Club {tag}", slug=f"club-{tag}")
    Membership.objects.create(user=organiser, club=club, role="organiser")
    matches = [
        make_match(
            club,
            CRYPTID,
            [("cryptid", f"ann-{tag}"), ("scientist", f"ben-{tag}")],
            "cryptid" if n % 2 else "scientist",
            played_at=BASE + timedelta(days=n),
        )
        for n in range(3)
    ]
    ladder = Ladder.objects.create(club=club, game=CRYPTID)
    recompute_ladder(ladder.pk)  # ratings, their history and a finished job
    RecomputeJob.objects.create(ladder=ladder, reason="manual", status="failed", error="boom")
    DroppedTask.objects.create(
        name="ladder.rate_match",
        task_id=f"task-{tag}",
        deliveries=3,
        arguments=f"(({matches[0].pk},), {{}})",
    )
    Upload.objects.create(
        club=club,
        uploaded_by=organiser,
        source="api",
        game=CRYPTID,
        status="accepted",
        match=matches[0],
        validation_ms=12.5,
    )
    Upload.objects.create(
        club=club,
        uploaded_by=organiser,
        source="form",
        game=CRYPTID,
        status="rejected",
        error="illegal",
        error_rule="CUL-3.1",
        error_index=4,
        error_message="no",
        document_text="{}",
    )
    run = Import.objects.create(
        club=club,
        created_by=organiser,
        filename="logs.jsonl",
        payload=b"{}\n",
        total=1,
        processed=1,
        rejected=1,
    )
    Upload.objects.create(
        club=club,
        source="import",
        import_run=run,
        status="rejected",
        error="malformed",
        error_message="not an object",
    )
    tournament = Tournament.objects.create(
        club=club, name=f"Open {tag}", game=CRYPTID, format="swiss", rounds=3, created_by=organiser
    )
    entries = [
        Entry.objects.create(tournament=tournament, player=player(club, handle))
        for handle in (f"ann-{tag}", f"ben-{tag}", f"cat-{tag}")
    ]
    ForbiddenPairing.objects.create(
        tournament=tournament, first=entries[0], second=entries[1], reason="siblings"
    )
    pairing = Pairing.objects.create(
        tournament=tournament,
        round=1,
        board=1,
        status="played",
        match=matches[2],
        explanation="top v bottom",
    )
    for order, (seat, entry) in enumerate([("cryptid", entries[0]), ("scientist", entries[2])]):
        PairingSeat.objects.create(pairing=pairing, seat=seat, entry=entry, order=order, points=0)
    Invite.objects.create(
        club=club, created_by=organiser, expires_at=timezone.now() + timedelta(days=7)
    )
    JoinRequest.objects.create(club=club, user=joiner, message="hello")
    HandleClaim.objects.create(club=club, user=joiner, player=player(club, f"cat-{tag}"))
    AuditEntry.objects.create(
        club=club, actor=organiser, action="invite.create", summary="invited someone"
    )
    draft = Draft.objects.create(
        club=club,
        created_by=organiser,
        game=CRYPTID,
        seats=[{"seat": "cryptid", "player": f"ann-{tag}"}],
        played_at=timezone.now(),
    )
    DraftWrite.objects.create(
        draft=draft, version=1, user=organiser, kind="apply", fingerprint="0" * 64
    )
    analysis = MatchAnalysis.objects.create(
        match=matches[1],
        engine_version="cul-test/analysis-1",
        budget=2,
        status="running",
        plies_done=3,
        plies_total=9,
    )
    AnalysisChunk.objects.create(analysis=analysis, index=0, first=0, stop=3, result={"plies": []})
    ClubAnalysisDay.objects.create(
        club=club, day=timezone.now().date(), reserved_seconds=12.5, skipped=1
    )
    table = Table.objects.create(club=club, created_by=organiser, game=CRYPTID)
    TableSeat.objects.create(
        table=table, seat="cryptid", order=0, user=organiser, player=f"ann-{tag}"
    )
    TableSeat.objects.create(table=table, seat="scientist", order=1)
    TableEvent.objects.create(table=table, number=1, kind="seated", seat="cryptid")
    SeatLink.objects.create(
        table=table, seat="scientist", token_hash=f"{tag:0>64}"[-64:], created_by=organiser
    )
    Group.objects.get_or_create(name="operators")


@pytest.fixture
def superuser(django_user_model):
    return django_user_model.objects.create_superuser("root", "root@example.org", "x")


@pytest.fixture
def admin_client(client, superuser):
    client.force_login(superuser)
    return client


def url(model: type, view: str, *args) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}", args=args)


def test_every_project_model_has_an_admin():
    models = project_models()
    assert {m.__name__ for m in models} >= {"Match", "Upload", "RecomputeJob", "AuditEntry"}
    missing = [m._meta.label for m in models if not admin.site.is_registered(m)]
    assert missing == [], f"register these in their app's admin.py: {missing}"


def test_every_changelist_and_change_page_renders(admin_client, django_user_model):
    populate("a", django_user_model)
    for model, model_admin in admin.site._registry.items():
        label = model._meta.label
        changelist = admin_client.get(url(model, "changelist"))
        assert changelist.status_code == 200, label
        obj = model._default_manager.first()
        if model in project_models():
            assert obj is not None, f"populate() makes no {label}: add one"
            assert changelist.context["cl"].result_count >= 1, label
        if obj is not None:
            change = admin_client.get(url(model, "change", quote(obj.pk)))
            assert change.status_code == 200, label
        if model_admin.search_fields:
            assert admin_client.get(url(model, "changelist"), {"q": "a"}).status_code == 200, label
        if model_admin.date_hierarchy:
            year = admin_client.get(
                url(model, "changelist"),
                {f"{model_admin.date_hierarchy}__year": timezone.now().year},
            )
            assert year.status_code == 200, label


def test_changelists_do_not_query_per_row(admin_client, django_user_model):
    """Three times the rows, the same number of queries (list_select_related works)."""

    def queries_per_changelist() -> dict[str, int]:
        counts = {}
        for model in project_models():
            with CaptureQueriesContext(connection) as queries:
                assert admin_client.get(url(model, "changelist")).status_code == 200
            counts[model._meta.label] = len(queries)
        return counts

    populate("a", django_user_model)
    one = queries_per_changelist()
    populate("b", django_user_model)
    populate("c", django_user_model)
    three = queries_per_changelist()
    grew = {label: (one[label], three[label]) for label in one if three[label] != one[label]}
    assert grew == {}, f"changelists whose queries grow with their rows: {grew}"


@pytest.mark.parametrize(
    "model",
    [
        MatchLog,
        Upload,
        Import,
        AuditEntry,
        RatingChange,
        Rating,
        RecomputeJob,
        Invite,
        JoinRequest,
        DraftWrite,
        MatchAnalysis,
    ],
)
def test_stored_records_are_read_only(admin_client, django_user_model, model):
    populate("a", django_user_model)
    assert isinstance(admin.site._registry[model], RecordAdmin)
    obj = model._default_manager.first()
    change_url = url(model, "change", quote(obj.pk))
    page = admin_client.get(change_url)
    assert page.status_code == 200
    assert 'name="_save"' not in page.content.decode()  # a view, not a form
    assert admin_client.post(change_url, {}).status_code == 403
    assert admin_client.get(url(model, "add")).status_code == 403
    before = {f.name: getattr(obj, f.attname) for f in model._meta.concrete_fields}
    obj.refresh_from_db()
    assert {f.name: getattr(obj, f.attname) for f in model._meta.concrete_fields} == before


def test_a_match_log_is_viewed_never_edited(admin_client, django_user_model):
    populate("a", django_user_model)
    log = MatchLog.objects.first()
    page = admin_client.get(url(MatchLog, "change", log.pk)).content.decode()
    assert "lantern-log/1" in page  # the document is shown
    assert "<textarea" not in page


def test_staff_without_permissions_see_no_admin_models(client, django_user_model):
    staff = django_user_model.objects.create_user("op", password="x", is_staff=True)
    client.force_login(staff)
    assert client.get(url(Upload, "changelist")).status_code == 403
