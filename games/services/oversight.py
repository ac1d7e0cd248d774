"""What organisers and operators do to what is stored: void and restore a match, read an
upload."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from clubs.services import ClubError, audit
from config.events import publish
from config.sentences import Sentence
from engine import Message, get_game
from games import events, policy
from games.models import Match, Upload

# An upload's status as the audit trail says it (kept as the word's msgid, said when read).
UPLOAD_STATUS_WORDS = {
    "accepted": gettext_noop("accepted"),
    "duplicate": gettext_noop("already stored"),
    "rejected": gettext_noop("rejected"),
}


def note_upload_read(user: Any, upload: Upload) -> None:
    """Write an operator's reading of a private club's upload to the club's audit trail
    (``games.policy.is_staff_reading_private_upload``); nothing for anyone else."""
    from clubs.services import audit

    if policy.is_staff_reading_private_upload(user, upload):
        name = upload.name or {"msgid": gettext_noop("unnamed")}
        audit(
            upload.club,
            user,
            "upload.staff_read",
            Sentence.site(
                gettext_noop(
                    "%(user)s (site operator) read upload %(upload)s (%(name)s, %(status)s)"
                ),
                user=user.get_username(),
                upload=upload.pk,
                name=name,
                status={"msgid": UPLOAD_STATUS_WORDS.get(upload.status, upload.status)},
            ),
            upload=upload.pk,
        )


def _title(game_id: str) -> Message | str:
    """The game's title as the engine's message, so the audit trail names it in each
    reader's language; a game the engine no longer has by its id."""
    game = get_game(game_id)
    return game.title() if game is not None else game_id


@transaction.atomic
def void_match(actor: AbstractBaseUser, match: Match, reason: str) -> Match:
    """Keep the match, show it with ``reason``, leave it out of the ladder (EL-1.2).
    Rating it again makes its ladder recompute without it (ladder.handlers)."""
    reason = reason.strip()
    if not reason:
        raise ClubError(_("Say why the match is void: the reason is shown with it."), "no_reason")
    if match.is_void:
        raise ClubError(_("This match is void already."), "already_void")
    match.is_void, match.void_reason, match.voided_at = True, reason[:500], timezone.now()
    match.save(update_fields=["is_void", "void_reason", "voided_at"])
    audit(
        match.club,
        actor,
        "match.void",
        Sentence.site(
            gettext_noop("voided %(game)s match #%(match)s: %(reason)s"),
            game=_title(match.game),
            match=match.pk,
            reason=reason,
        ),
        match=match.pk,
    )
    publish(events.match_voided, club_id=match.club_id, match_id=match.pk)
    return match


@transaction.atomic
def restore_match(actor: AbstractBaseUser, match: Match, reason: str) -> Match:
    """Undo a void: the match counts again and its ladder recomputes with it
    (ladder.handlers). The reason goes to the audit trail, with the void's."""
    reason = reason.strip()
    if not reason:
        raise ClubError(
            _("Say why the match counts again: the reason goes to the audit trail."), "no_reason"
        )
    match = Match.objects.select_for_update().select_related("club").get(pk=match.pk)
    if not match.is_void:
        raise ClubError(_("This match is not void."), "not_void")
    was = match.void_reason
    match.is_void, match.void_reason, match.voided_at = False, "", None
    match.save(update_fields=["is_void", "void_reason", "voided_at"])
    audit(
        match.club,
        actor,
        "match.restore",
        Sentence.site(
            gettext_noop("restored %(game)s match #%(match)s: %(reason)s"),
            game=_title(match.game),
            match=match.pk,
            reason=reason[:300],
        ),
        match=match.pk,
        void_reason=was,
    )
    publish(events.match_restored, club_id=match.club_id, match_id=match.pk)
    return match
