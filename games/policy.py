"""Who may see a club's upload attempts and imports (the rejections): its organisers, and
each uploader their own. Operators see every upload (the dashboard links its rejections
and slowest validations to them, in any club); an operator reading a private club's
upload is written to that club's audit trail. The roles come from ``clubs.policy``."""

from __future__ import annotations

from clubs.policy import AnyUser, can_import, can_operate, can_view_club, role_in
from games.models import Import, Upload


def can_see_upload(user: AnyUser, upload: Upload) -> bool:
    if can_operate(user):
        return True
    if not can_view_club(user, upload.club):
        return False
    return can_import(user, upload.club) or (
        user.is_authenticated and upload.uploaded_by_id == user.pk
    )


def is_staff_reading_private_upload(user: AnyUser, upload: Upload) -> bool:
    """An operator reading an upload of a private club they could not otherwise see (not
    its member, not its uploader): allowed — the dashboard links rejections in any club —
    and written to that club's audit trail, which its organisers read."""
    if not can_operate(user) or upload.club.is_public:
        return False
    if role_in(user, upload.club) is not None and not user.is_superuser:
        return False
    return upload.uploaded_by_id != user.pk


def can_see_import(user: AnyUser, run: Import) -> bool:
    return can_view_club(user, run.club) and can_import(user, run.club)
