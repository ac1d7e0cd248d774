"""Shapes of the games API's bodies. Thin: reads come from games.selectors."""

from __future__ import annotations

import copy
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config.converters import id_field
from config.errors import AppError
from games.bundles import SKIP_REASONS
from games.models import Import, Match, MatchSeat, Upload
from games.selectors import MatchFilters
from reference.links import rule_url


class FieldsOnceMixin:
    """A ModelSerializer works its fields out from the model (labels, validators,
    choices) for every instance it makes, for every request; lists paid more for that
    than for their rows (bench/load/README.md). Work them out once per class and give
    each instance copies, exactly as a plain Serializer copies its declared fields."""

    def get_fields(self):
        cls = type(self)
        fields = cls.__dict__.get("_fields_once")
        if fields is None:
            fields = super().get_fields()
            cls._fields_once = fields
        return copy.deepcopy(fields)


#: stands for the match id in a reversed URL; no other part of these URLs has digits
_PLACEHOLDER_ID = 987654321987

#: DRF's own datetime output (the settings' time zone, ISO 8601, "Z" for UTC), for the
#: serializers that write their fields out
datetime_text = serializers.DateTimeField().to_representation


class MatchSeatSerializer(FieldsOnceMixin, serializers.ModelSerializer):
    player = serializers.CharField(source="player.handle")

    class Meta:
        model = MatchSeat
        fields = ["seat", "player", "outcome"]


class MatchSummarySerializer(FieldsOnceMixin, serializers.ModelSerializer):
    club = serializers.CharField(source="club.slug")
    url = serializers.SerializerMethodField(help_text="This resource.")
    page_url = serializers.SerializerMethodField(help_text="The match's web page.")
    replay_url = serializers.SerializerMethodField(help_text="The replay viewer.")
    log_url = serializers.SerializerMethodField(help_text="The stored log document.")
    seats = MatchSeatSerializer(many=True, read_only=True)
    result = serializers.JSONField(read_only=True)

    class Meta:
        model = Match
        fields = [
            "id",
            "url",
            "page_url",
            "replay_url",
            "log_url",
            "club",
            "game",
            "status",
            "result",
            "winner",
            "played_at",
            "uploaded_at",
            "rules_version",
            "action_count",
            "content_hash",
            "seats",
        ]

    def _url(self, name: str, match: Match) -> str:
        """The absolute URL of ``name`` for this match. Reversed once per list (with a
        placeholder id) rather than four times per match: a page of 50 reversed 200 URLs."""
        templates = self.context.setdefault("_match_url_templates", {})
        template = templates.get(name)
        if template is None:
            path = reverse(name, args=[_PLACEHOLDER_ID])
            request = self.context.get("request")
            template = templates[name] = request.build_absolute_uri(path) if request else path
        return template.replace(str(_PLACEHOLDER_ID), str(match.pk), 1)

    def get_url(self, match: Match) -> str:
        return self._url("api-match", match)

    def get_page_url(self, match: Match) -> str:
        return self._url("match-detail", match)

    def get_replay_url(self, match: Match) -> str:
        return self._url("match-replay", match)

    def get_log_url(self, match: Match) -> str:
        return self._url("api-match-log", match)

    def to_representation(self, match: Match) -> dict[str, Any]:
        """The fields above, written out rather than walked field by field: on a page
        of matches the generic walk cost more than the page's queries. Seats come from
        ``selectors.with_seat_summaries`` (or ``with_seats``).
        tests/games/test_list_cost.py holds this equal to the generic walk."""
        return {
            "id": match.pk,
            "url": self.get_url(match),
            "page_url": self.get_page_url(match),
            "replay_url": self.get_replay_url(match),
            "log_url": self.get_log_url(match),
            "club": match.club.slug,
            "game": match.game,
            "status": match.status,
            "result": match.result,
            "winner": match.winner,
            "played_at": datetime_text(match.played_at),
            "uploaded_at": datetime_text(match.uploaded_at),
            "rules_version": match.rules_version,
            "action_count": match.action_count,
            "content_hash": match.content_hash,
            "seats": match.seat_summaries,
        }


class MatchDetailSerializer(MatchSummarySerializer):
    log = serializers.SerializerMethodField(
        help_text="The whole lantern-log/1 document; null while it is kept from you (a game "
        "played online, before the club's delay after its end: `log_visible_from`)."
    )
    log_visible_from = serializers.SerializerMethodField(
        help_text="When the log opens to you, if it is kept from you now; else null."
    )

    class Meta(MatchSummarySerializer.Meta):
        fields = [*MatchSummarySerializer.Meta.fields, "log", "log_visible_from"]

    @extend_schema_field({"type": "object", "nullable": True})
    def get_log(self, match: Match) -> dict[str, Any] | None:
        return self.context["document"]

    @extend_schema_field({"type": "string", "format": "date-time", "nullable": True})
    def get_log_visible_from(self, match: Match) -> str | None:
        opens = self.context.get("visible_from")
        return None if opens is None else datetime_text(opens)

    def to_representation(self, match: Match) -> dict[str, Any]:
        return {
            **super().to_representation(match),
            "log": self.get_log(match),
            "log_visible_from": self.get_log_visible_from(match),
        }


class MatchFilterSerializer(serializers.Serializer):
    """Query parameters of a match list or export."""

    game = serializers.CharField(required=False, help_text="Engine game id, e.g. mister-x.")
    player = serializers.CharField(required=False, help_text="A player's handle in the club.")
    status = serializers.ChoiceField(choices=["valid", "unfinished"], required=False)
    played_from = serializers.DateField(
        required=False, help_text="Played on or after (YYYY-MM-DD)."
    )
    played_to = serializers.DateField(required=False, help_text="Played on or before (YYYY-MM-DD).")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if (
            attrs.get("played_from")
            and attrs.get("played_to")
            and attrs["played_from"] > attrs["played_to"]
        ):
            # Each date is well formed: the range between them is what is refused (422).
            raise AppError(_("played_from is after played_to"), code="refused")
        return attrs

    def filters(self) -> MatchFilters:
        return MatchFilters(**self.validated_data)


class UploadSerializer(serializers.ModelSerializer):
    uploaded_by = serializers.CharField(
        source="uploaded_by.get_username",
        default=None,
        allow_null=True,
        help_text="Null when the site itself stored it (command line, demo data).",
    )
    index = serializers.IntegerField(source="error_index", allow_null=True)
    rule = serializers.CharField(source="error_rule")
    message = serializers.CharField(
        source="error_text",
        read_only=True,
        help_text="Why it was refused, in the reader's language.",
    )
    details = serializers.JSONField(source="error_details")
    page_url = serializers.SerializerMethodField()
    rule_url = serializers.SerializerMethodField(
        help_text="The rule's text in the rules reference, when a rule is cited; else null."
    )

    class Meta:
        model = Upload
        fields = [
            "id",
            "page_url",
            "created_at",
            "uploaded_by",
            "source",
            "import_run",
            "name",
            "size",
            "game",
            "content_hash",
            "status",
            "match",
            "error",
            "index",
            "rule",
            "rule_url",
            "message",
            "details",
        ]

    def get_page_url(self, upload: Upload) -> str:
        return self._absolute(reverse("upload-detail", args=[upload.pk]))

    @extend_schema_field(serializers.URLField(allow_null=True))
    def get_rule_url(self, upload: Upload) -> str | None:
        path = rule_url(upload.error_rule)
        return None if path is None else self._absolute(path)

    def _absolute(self, path: str) -> str:
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request else path


class SkippedMemberSerializer(serializers.Serializer):
    name = serializers.CharField(help_text="The member's path in the archive.")
    reason = serializers.ChoiceField(
        choices=sorted(SKIP_REASONS), help_text="Why it was not read as a log."
    )
    why = serializers.CharField(help_text="The reason said in the reader's language.")


class ImportSerializer(serializers.ModelSerializer):
    club = serializers.CharField(source="club.slug")
    created_by = serializers.CharField(
        source="created_by.get_username",
        default=None,
        allow_null=True,
        help_text="Null when the site itself started it (manage.py import_logs).",
    )
    progress_percent = serializers.IntegerField(read_only=True)
    url = serializers.SerializerMethodField()
    page_url = serializers.SerializerMethodField()
    rejections_url = serializers.SerializerMethodField(
        help_text="Every rejected log of this import, with index, rule and message."
    )
    error = serializers.CharField(
        source="error_text",
        read_only=True,
        help_text="Why the file as a whole could not be read, in the reader's language; empty when "
        "it could.",
    )

    skipped = SkippedMemberSerializer(
        source="skipped_members",
        many=True,
        read_only=True,
        help_text="Every member of a zip archive not read as a log (folders, __MACOSX/, "
        "names starting with a dot), and why; empty for JSON lines.",
    )

    class Meta:
        model = Import
        fields = [
            "id",
            "url",
            "page_url",
            "club",
            "created_by",
            "filename",
            "size",
            "status",
            "error",
            "total",
            "processed",
            "accepted",
            "duplicates",
            "rejected",
            "skipped",
            "progress_percent",
            "created_at",
            "started_at",
            "finished_at",
            "rejections_url",
        ]

    def _absolute(self, path: str) -> str:
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request else path

    def get_url(self, run: Import) -> str:
        return self._absolute(reverse("api-import", args=[run.pk]))

    def get_page_url(self, run: Import) -> str:
        return self._absolute(reverse("import-detail", args=[run.pk]))

    def get_rejections_url(self, run: Import) -> str:
        path = reverse("api-club-uploads", args=[run.club.slug])
        return self._absolute(f"{path}?import_run={run.pk}&status=rejected")


class UploadFilterSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=Upload.Status.choices, required=False)
    import_run = id_field(required=False, help_text="Only this import's logs.")


class LogFileSerializer(serializers.Serializer):
    """A multipart upload: the log (or bundle) as a file."""

    file = serializers.FileField()
