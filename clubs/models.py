"""Clubs and the people in them: clubs, players (handles in a club's logs),
memberships, how people come in (invites, join requests) and what organisers changed.

Club, Player and Membership use the tables of the ``games`` label (``games_club``,
``games_player``, ``games_membership``; ``clubs/migrations/0002`` takes them over), so no
row is copied and no foreign key re-pointed.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clubs import bots
from config.sentences import Sentence


class Club(models.Model):
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=64, unique=True)
    is_public = models.BooleanField(
        default=True, help_text="Public clubs are listed and readable by everyone."
    )
    auto_analysis = models.BooleanField(
        default=False,
        help_text="Analyse every finished match stored in the club (analysis.handlers).",
    )
    members_confirm_guests = models.BooleanField(
        default=False,
        help_text="A member uploading a log may confirm the handles the club does not know "
        "as guests (organisers always may).",
    )
    guests_at_tables = models.BooleanField(
        default=False,
        help_text="The opener of a live table (or an organiser) may give a free seat to a guest "
        "by a one-time link.",
    )
    watchers_see_all_after = models.PositiveIntegerField(
        default=0,
        help_text="Minutes after a live game ends before members watching it see everything "
        "(0: as soon as it ends). Its seats see everything at the end.",
    )
    time_zone = models.CharField(
        max_length=64,
        blank=True,
        default="",
        help_text="The IANA zone the club's pages and events show times in (Asia/Tokyo); "
        "blank: each reader's own.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        db_table = "games_club"
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(condition=~Q(slug=""), name="club_slug_not_empty"),
            models.CheckConstraint(condition=~Q(name=""), name="club_name_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    """A handle as it appears in the club's logs, optionally linked to a site account,
    or one of the recorder's bots (``bot-search``, which pages call "strong bot")."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    handle = models.CharField(max_length=64)
    bot = models.CharField(
        max_length=bots.BOT_LENGTH,
        blank=True,
        default="",
        help_text="The engine level of the bot that plays as this handle (search), set when a "
        "bot seat created it; blank for a person.",
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="players",
    )
    guest = models.BooleanField(
        default=False,
        help_text="Confirmed as a guest by whoever uploaded the log that first named it.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        db_table = "games_player"
        ordering = ["club", "handle"]
        constraints = [
            models.UniqueConstraint(fields=["club", "handle"], name="player_handle_unique_in_club"),
            models.CheckConstraint(condition=~Q(handle=""), name="player_handle_not_empty"),
            # A bot is nobody's handle (clubs.services refuses to link one, and says why).
            models.CheckConstraint(
                condition=Q(bot="") | Q(user__isnull=True), name="player_bot_has_no_account"
            ),
        ]

    def __str__(self) -> str:
        return self.handle

    @property
    def name(self) -> str:
        """The player as pages name it: a person by their handle, a bot by its level in
        the reader's language ("strong bot"; the links and the logs keep the handle)."""
        return bots.player_name(self.handle, self.bot)


class Membership(models.Model):
    class Role(models.TextChoices):
        MEMBER = "member", _("Member")
        ORGANISER = "organiser", _("Organiser")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        db_table = "games_membership"
        constraints = [
            models.UniqueConstraint(fields=["user", "club"], name="membership_unique_user_club"),
            models.CheckConstraint(
                condition=Q(role__in=["member", "organiser"]), name="membership_role_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.club} ({self.role})"


def new_invite_token() -> str:
    return secrets.token_urlsafe(24)


class Invite(models.Model):
    """A link that lets one person join a club, once, before it expires."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invites")
    token = models.CharField(max_length=64, unique=True, default=new_invite_token)
    role = models.CharField(
        max_length=16, choices=Membership.Role.choices, default=Membership.Role.MEMBER
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    revoked_at = models.DateTimeField(null=True, blank=True)
    player = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The handle in the club's logs that is the invitee's: linked to their "
        "account when they join.",
    )

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        ordering = ["-created_at"]
        constraints = [
            # used_at and used_by are set together, or not at all.
            models.CheckConstraint(
                condition=Q(used_at__isnull=True) | Q(used_by__isnull=False),
                name="invite_used_by_whom",
            ),
            models.CheckConstraint(
                condition=Q(role__in=["member", "organiser"]), name="invite_role_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"invite to {self.club} ({self.role})"


class Ask(models.Model):
    """Someone asks and an organiser answers, once: a request to join, a handle claim.
    The shared part (abstract: each kind keeps its own table): the answer, when and by
    whom; ``clubs.services.ask`` and ``answer`` write it."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        APPROVED = "approved", _("Approved")
        DECLINED = "declined", _("Declined")

    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        abstract = True
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["pending", "approved", "declined"]),
                name="%(class)s_status_valid",
            ),
        ]


class JoinRequest(Ask):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="join_requests")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="join_requests"
    )
    message = models.CharField(max_length=500, blank=True)

    class Meta(Ask.Meta):
        verbose_name = _("request to join")
        verbose_name_plural = _("requests to join")
        constraints = [
            *Ask.Meta.constraints,
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=Q(status="pending"),
                name="joinrequest_one_pending_per_user",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} asks to join {self.club} ({self.status})"


class HandleClaim(Ask):
    """A member says "this handle of the club's logs is me"; an organiser answers. An
    approved claim links the handle to the member's account (``Player.user``)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="handle_claims")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claims")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="handle_claims"
    )

    class Meta(Ask.Meta):
        verbose_name = _("handle claim")
        verbose_name_plural = _("handle claims")
        constraints = [
            *Ask.Meta.constraints,
            models.UniqueConstraint(
                fields=["player", "user"],
                condition=Q(status="pending"),
                name="handleclaim_one_pending_per_handle_and_user",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} claims {self.player} ({self.status})"


class AuditEntry(models.Model):
    """Who changed what in a club, and when. Written by the services, never edited."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="audit_entries")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    action = models.CharField(max_length=48)
    summary = models.CharField(
        max_length=500, help_text="What changed, in English (for logs and search)."
    )
    # What changed, as what to say (config.sentences.Sentence): shown in each reader's language.
    summary_sentence = models.JSONField(default=dict, blank=True)
    details = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit entries")
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["club", "-created_at"], name="audit_club_time")]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.action}: {self.summary}"

    @property
    def summary_text(self) -> str:
        """What changed, in the active language (the reader's)."""
        return Sentence.from_json(self.summary_sentence, self.summary).text()
