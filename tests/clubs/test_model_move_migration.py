"""Club, Player and Membership moved from the games app to clubs (clubs/0002, games/0009 and
the state-only steps in ladder, tournaments and recorder): a database built by the earlier
migrations, with a row in every table that points at them, migrates to the new schema
losing no row, no column value and no foreign key. Runs on SQLite and on PostgreSQL
(.ci/run) alike: only the migration executor and the ORM's historical models are used."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.apps.registry import Apps
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

#: the schema before the move: the last migration of each app the move touches (and of the
#: framework apps the test writes to, so their historical models match their tables)
BEFORE = [
    ("auth", "0012_alter_user_first_name_max_length"),
    ("contenttypes", "0002_remove_content_type_name"),
    ("clubs", "0001_initial"),
    ("games", "0008_import_attempts_heartbeat"),
    ("ladder", "0006_ladder_game_from_engine"),
    ("recorder", "0002_draft_opened"),
    ("tournaments", "0002_strict_role_parity"),
]

#: (app label before, app label after, model) of every model whose rows must survive
MODELS = [
    ("games", "clubs", "club"),
    ("games", "clubs", "player"),
    ("games", "clubs", "membership"),
    ("games", "games", "match"),
    ("games", "games", "matchseat"),
    ("games", "games", "matchlog"),
    ("games", "games", "import"),
    ("games", "games", "upload"),
    ("clubs", "clubs", "invite"),
    ("clubs", "clubs", "joinrequest"),
    ("clubs", "clubs", "auditentry"),
    ("ladder", "ladder", "ladder"),
    ("ladder", "ladder", "rating"),
    ("ladder", "ladder", "ratingchange"),
    ("tournaments", "tournaments", "tournament"),
    ("tournaments", "tournaments", "entry"),
    ("recorder", "recorder", "draft"),
]

WHEN = dt.datetime(2026, 11, 1, 19, 30, tzinfo=dt.UTC)


def _migrate(targets: list[tuple[str, str]]) -> Apps:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def _rows(apps: Apps, label: str, model: str) -> list[dict[str, Any]]:
    """Every row of a model, every concrete column (foreign keys as their ids), by pk."""
    model_class = apps.get_model(label, model)
    columns = [field.attname for field in model_class._meta.concrete_fields]
    return list(model_class.objects.order_by("pk").values(*columns))


def _fill(apps: Apps) -> None:
    """A row in every table that points at a club, player or membership."""
    user_model = apps.get_model("auth", "User")
    ada = user_model.objects.create(username="ada")
    bob = user_model.objects.create(username="bob")
    club = apps.get_model("games", "Club").objects.create(name="Riverside", slug="riverside")
    other = apps.get_model("games", "Club").objects.create(
        name="Hilltop", slug="hilltop", is_public=False
    )
    player_model = apps.get_model("games", "Player")
    alice = player_model.objects.create(club=club, handle="alice", user=ada)
    bert = player_model.objects.create(club=club, handle="bert")
    player_model.objects.create(club=other, handle="carol", user=bob)
    membership = apps.get_model("games", "Membership")
    membership.objects.create(user=ada, club=club, role="organiser")
    membership.objects.create(user=bob, club=other)

    match = apps.get_model("games", "Match").objects.create(
        club=club,
        game="mister-x",
        status="valid",
        winner="mrx",
        played_at=WHEN,
        uploaded_by=ada,
        content_hash="a" * 64,
        action_count=3,
    )
    seat = apps.get_model("games", "MatchSeat")
    seat.objects.create(match=match, seat="mrx", player=alice, outcome="win")
    seat.objects.create(match=match, seat="det1", player=bert, outcome="loss")
    apps.get_model("games", "MatchLog").objects.create(match=match, document={"format": "x"})
    run = apps.get_model("games", "Import").objects.create(
        club=club,
        created_by=ada,
        payload=b"{}",
        total=1,
        processed=1,
        accepted=1,
    )
    apps.get_model("games", "Upload").objects.create(
        club=club,
        uploaded_by=ada,
        source="import",
        import_run=run,
        status="accepted",
        match=match,
        content_hash="a" * 64,
        game="mister-x",
    )

    apps.get_model("clubs", "Invite").objects.create(
        club=club,
        created_by=ada,
        expires_at=WHEN,
        used_at=WHEN,
        used_by=bob,
    )
    apps.get_model("clubs", "JoinRequest").objects.create(club=other, user=ada, message="hi")
    apps.get_model("clubs", "AuditEntry").objects.create(
        club=club, actor=ada, action="invite.created", summary="Invite made"
    )

    ladder = apps.get_model("ladder", "Ladder").objects.create(
        club=club, game="mister-x", last_rated_match=match, last_rated_at=WHEN, rated_matches=1
    )
    apps.get_model("ladder", "Rating").objects.create(
        ladder=ladder, player=alice, rating=1516.0, games=1, wins=1
    )
    apps.get_model("ladder", "RatingChange").objects.create(
        ladder=ladder,
        match=match,
        player=alice,
        sequence=1,
        played_at=WHEN,
        role="mrx",
        before=1500.0,
        after=1516.0,
        expected=0.5,
        score=1.0,
        k=32.0,
        weight=1.0,
        advantage=0.0,
        won=True,
    )

    tournament = apps.get_model("tournaments", "Tournament").objects.create(
        club=club,
        name="Autumn cup",
        game="mister-x",
        format="swiss",
        rounds=3,
        created_by=ada,
    )
    apps.get_model("tournaments", "Entry").objects.create(tournament=tournament, player=alice)
    apps.get_model("tournaments", "Entry").objects.create(tournament=tournament, player=bert)

    apps.get_model("recorder", "Draft").objects.create(
        club=club,
        created_by=ada,
        game="mister-x",
        seats=[{"seat": "mrx", "player": "alice"}],
        played_at=WHEN,
        match=match,
        status="finished",
    )


@pytest.mark.django_db(transaction=True)
def test_moving_clubs_players_and_memberships_keeps_every_row_and_foreign_key() -> None:
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    old = _migrate(BEFORE)
    try:
        _fill(old)
        before = {model: _rows(old, label, model) for label, _, model in MODELS}
        content_types = old.get_model("contenttypes", "ContentType").objects
        old_type_ids = {
            model: content_types.get(app_label="games", model=model).pk
            for model in ("club", "player", "membership")
            if content_types.filter(app_label="games", model=model).exists()
        }
    finally:
        new = _migrate(latest)

    after = {model: _rows(new, label, model) for _, label, model in MODELS}
    for _, _, model in MODELS:
        # Later migrations may add columns (clubs/0003: Invite.player): compare the old ones.
        kept = (
            [{column: row[column] for column in before[model][0]} for row in after[model]]
            if before[model]
            else after[model]
        )
        assert kept == before[model], model
        assert after[model], f"the test put no {model} row in"

    # The relations work through the new app's models: a join across every moved FK.
    club = new.get_model("clubs", "Club").objects.get(slug="riverside")
    assert sorted(club.players.values_list("handle", flat=True)) == ["alice", "bert"]
    assert list(club.memberships.values_list("user__username", "role")) == [("ada", "organiser")]
    assert (
        new.get_model("games", "MatchSeat")
        .objects.filter(match__club=club, player__user__username="ada")
        .count()
        == 1
    )
    assert new.get_model("ladder", "Rating").objects.get(player__handle="alice").rating == 1516.0
    assert new.get_model("tournaments", "Entry").objects.filter(player__club=club).count() == 2
    assert new.get_model("recorder", "Draft").objects.get().club_id == club.pk

    # The database still enforces the foreign keys into the moved tables.
    with pytest.raises(IntegrityError), transaction.atomic():
        new.get_model("games", "MatchSeat").objects.create(
            match_id=new.get_model("games", "Match").objects.get().pk,
            seat="det2",
            player_id=999_999,
        )
        connection.check_constraints()  # SQLite checks deferred foreign keys only here

    # Admin history and permissions follow the models: their content types were relabelled.
    assert set(old_type_ids) == {"club", "player", "membership"}
    content_types = new.get_model("contenttypes", "ContentType").objects
    for model, type_id in old_type_ids.items():
        assert (content_types.get(pk=type_id).app_label, model) == ("clubs", model)
    assert not content_types.filter(
        app_label="games", model__in=["club", "player", "membership"]
    ).exists()
