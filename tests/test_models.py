"""The core models' rules are database constraints: IntegrityError, not form validation."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from clubs.models import Club, Membership, Player
from engine import canonical_json
from games.models import Match, MatchLog, MatchSeat, Upload, log_content_hash

pytestmark = pytest.mark.django_db


def refused(create) -> None:
    """Assert the database refuses the write (inside a savepoint, so the test goes on)."""
    with pytest.raises(IntegrityError), transaction.atomic():
        create()


def make_match(club: Club, content_hash: str = "a" * 64, **fields) -> Match:
    fields.setdefault("game", "mister-x")
    fields.setdefault("status", Match.Status.VALID)
    return Match.objects.create(club=club, content_hash=content_hash, **fields)


def test_duplicate_handle_in_a_club_is_refused(club):
    Player.objects.create(club=club, handle="alice")
    refused(lambda: Player.objects.create(club=club, handle="alice"))
    assert Player.objects.filter(club=club, handle="alice").count() == 1


def test_same_handle_in_two_clubs_is_allowed(club):
    other = Club.objects.create(name="Harbour Games", slug="harbour")
    Player.objects.create(club=club, handle="alice")
    Player.objects.create(club=other, handle="alice")
    assert Player.objects.filter(handle="alice").count() == 2


def test_empty_handle_is_refused(club):
    refused(lambda: Player.objects.create(club=club, handle=""))


def test_duplicate_log_hash_in_a_club_is_refused(club):
    make_match(club, content_hash="f" * 64)
    refused(lambda: make_match(club, content_hash="f" * 64))


def test_same_log_hash_in_two_clubs_is_allowed(club):
    other = Club.objects.create(name="Harbour Games", slug="harbour")
    make_match(club, content_hash="f" * 64)
    make_match(other, content_hash="f" * 64)
    assert Match.objects.filter(content_hash="f" * 64).count() == 2


def test_club_slug_is_unique(club):
    refused(lambda: Club.objects.create(name="Another", slug="riverside"))


def test_unknown_match_status_is_refused(club):
    refused(lambda: make_match(club, status="lost"))


def test_winner_on_a_rejected_match_is_refused(club):
    refused(lambda: make_match(club, status=Match.Status.REJECTED, winner="mrx"))
    make_match(club, status=Match.Status.VALID, winner="mrx")


def test_negative_action_count_is_refused(club):
    refused(lambda: make_match(club, action_count=-1))


def test_membership_is_unique_per_user_and_club(club, user):
    Membership.objects.create(user=user, club=club, role=Membership.Role.ORGANISER)
    refused(lambda: Membership.objects.create(user=user, club=club))


def test_unknown_membership_role_is_refused(club, user):
    refused(lambda: Membership.objects.create(user=user, club=club, role="owner"))


def test_a_seat_is_taken_once_per_match(club):
    match = make_match(club)
    alice = Player.objects.create(club=club, handle="alice")
    bob = Player.objects.create(club=club, handle="bob")
    MatchSeat.objects.create(match=match, seat="mrx", player=alice, outcome="win")
    refused(lambda: MatchSeat.objects.create(match=match, seat="mrx", player=bob))
    MatchSeat.objects.create(match=match, seat="det1", player=bob, outcome="loss")
    assert [s.seat for s in match.seats.all()] == ["mrx", "det1"]


def test_unknown_seat_outcome_is_refused(club):
    match = make_match(club)
    alice = Player.objects.create(club=club, handle="alice")
    refused(lambda: MatchSeat.objects.create(match=match, seat="mrx", player=alice, outcome="draw"))


def test_a_player_with_seats_cannot_be_deleted(club):
    match = make_match(club)
    alice = Player.objects.create(club=club, handle="alice")
    MatchSeat.objects.create(match=match, seat="mrx", player=alice)
    from django.db.models import ProtectedError

    with pytest.raises(ProtectedError):
        alice.delete()


def test_one_log_per_match(club):
    match = make_match(club)
    MatchLog.objects.create(match=match, document={"format": "lantern-log/1"})
    refused(lambda: MatchLog.objects.create(match=match, document={}))


def test_log_hash_is_sha256_of_canonical_json_and_ignores_layout():
    import hashlib

    document = {"format": "lantern-log/1", "seats": [{"seat": "mrx", "player": "Zoë"}]}
    reordered = {"seats": [{"player": "Zoë", "seat": "mrx"}], "format": "lantern-log/1"}
    expected = hashlib.sha256(
        '{"format":"lantern-log/1","seats":[{"player":"Zoë","seat":"mrx"}]}'.encode()
    ).hexdigest()
    assert (
        canonical_json(document)
        == '{"format":"lantern-log/1","seats":[{"player":"Zoë","seat":"mrx"}]}'
    )
    assert log_content_hash(document) == expected
    assert log_content_hash(reordered) == expected
    assert log_content_hash({**document, "seed": 1}) != expected


def test_stored_log_round_trips_an_example(club, example_log):
    document = example_log("cryptid-escape.json")
    match = make_match(club, content_hash=log_content_hash(document), game=document["game"])
    MatchLog.objects.create(match=match, document=document)
    stored = MatchLog.objects.get(match=match)
    assert stored.document == document
    assert stored.content_hash == match.content_hash


@pytest.mark.parametrize(
    ("model", "column"),
    [(Match, "club_id"), (MatchSeat, "match_id"), (Upload, "club_id")],
)
def test_a_foreign_key_led_index_serves_lookups_without_an_index_of_its_own(model, column):
    """Every index is one more write per stored match: these foreign keys have none of
    their own, because a composite index (a unique constraint or a listing index)
    starts with the column and serves every lookup by it."""
    from django.db import connection

    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, model._meta.db_table)
    indexes = [c["columns"] for c in constraints.values() if c["index"] or c["unique"]]
    assert [column] not in indexes
    assert any(len(columns) > 1 and columns[0] == column for columns in indexes), indexes
