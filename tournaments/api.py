"""REST API of events: thin viewsets over tournaments.services and selectors."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
    inline_serializer,
)
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from clubs import policy
from clubs import selectors as clubs_selectors
from config.api.errors import ErrorSerializer, RuleLinks
from config.api.parsers import JSON_OR_MULTIPART
from config.api.requests import validated, validated_query
from config.api.schema import SLUG
from config.converters import id_field
from config.errors import AppError
from games.services import read_log_file
from live.api_serializers import TimeControlSerializer
from live.models import Table
from tournaments import online, selectors, services
from tournaments.explanations import say
from tournaments.models import Entry, Pairing, PairingSeat, Tournament
from tournaments.standings import TIEBREAKS


@extend_schema_field(SLUG)
class VisibleClubField(serializers.SlugRelatedField):
    """A club by slug among those the caller may see: a private club answers exactly as a
    club that does not exist (never "exists, but not yours")."""

    def get_queryset(self):
        request = self.context.get("request")
        user = getattr(request, "user", None)
        return clubs_selectors.visible_clubs(user)

    def to_internal_value(self, data: Any) -> Any:
        # No slug holds a NUL, and PostgreSQL refuses to compare one (a 500): answered as
        # any unknown club. (DRF's CharField refuses NUL itself; a related field does not.)
        # A well-formed address that names no club you can see is a 404, as in a URL.
        if isinstance(data, str) and (
            "\x00" in data or not self.get_queryset().filter(slug=data).exists()
        ):
            raise AppError(
                _("no club you can see has the address %(slug)s")
                % {"slug": repr(data.replace("\x00", "\\x00"))},
                code="not_found",
                details={"field": "club"},
            )
        return super().to_internal_value(data)


@extend_schema_field(TimeControlSerializer)
class RoundClockField(serializers.Field):
    """The time control of the tables the event's rounds are played online at, as the
    tables API takes a table's (``on_time_out`` is always lose at an event's table)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(source="*", required=False, **kwargs)

    def to_representation(self, tournament: Tournament) -> dict[str, Any]:
        return {
            "kind": tournament.clock,
            "minutes": tournament.clock_minutes,
            "increment": tournament.clock_increment,
            "days": tournament.clock_days,
            "on_time_out": Table.OnTimeOut.LOSE,
        }

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        control = TimeControlSerializer(data=data)
        control.is_valid(raise_exception=True)
        return {"clock": dict(control.validated_data)}


class TournamentSerializer(serializers.ModelSerializer):
    club = VisibleClubField(slug_field="slug")
    clock = RoundClockField(
        help_text="The time control of each table its rounds are played online at (default: "
        "none). A player whose time runs out loses."
    )
    rounds = serializers.IntegerField(
        required=False, min_value=1, help_text="Swiss: required. Round-robin: set at start."
    )
    table_size = serializers.IntegerField(required=False, min_value=2, max_value=6)
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(list(TIEBREAKS)), required=False
    )

    class Meta:
        model = Tournament
        fields = [
            "id",
            "club",
            "name",
            "game",
            "format",
            "rounds",
            "current_round",
            "status",
            "table_size",
            "double",
            "bye_points",
            "strict_role_parity",
            "tiebreaks",
            "options",
            "clock",
            "created_at",
        ]
        read_only_fields = ["current_round", "status", "created_at"]


class EntrySerializer(serializers.ModelSerializer):
    player = serializers.CharField(
        source="player.handle", help_text="The player's handle in the club (created if new)."
    )
    seed_rating = serializers.FloatField(
        required=False, help_text="Default: the player's rating on the club's ladder."
    )

    class Meta:
        model = Entry
        fields = ["id", "player", "seed_rating", "withdrawn"]
        read_only_fields = ["withdrawn"]


class PairingSeatSerializer(serializers.ModelSerializer):
    player = serializers.CharField(source="entry.player.handle")

    class Meta:
        model = PairingSeat
        fields = ["seat", "entry", "player", "points"]


class PairingSerializer(serializers.ModelSerializer):
    seats = PairingSeatSerializer(many=True, read_only=True)
    recording = serializers.SerializerMethodField(
        help_text="The draft (/api/drafts/{id}/) its game is being recorded in, or null."
    )
    table = serializers.SerializerMethodField(
        help_text="The live table (/api/tables/{id}/) its game is being played at online, or null."
    )
    explanation = serializers.CharField(
        source="explanation_text",
        read_only=True,
        help_text="Why the pairing program made this pairing, in the reader's language.",
    )

    class Meta:
        model = Pairing
        fields = [
            "id",
            "tournament",
            "round",
            "board",
            "leg",
            "status",
            "seats",
            "match",
            "recording",
            "table",
            "explanation",
            "overridden",
            "override_reason",
            "forfeit_reason",
            "completed_at",
        ]

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_recording(self, pairing: Pairing) -> int | None:
        return pairing.recording.pk if pairing.recording is not None else None

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_table(self, pairing: Pairing) -> int | None:
        table = online.playing_online(pairing)
        return table.pk if table is not None else None


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    shared = serializers.BooleanField()
    entry = serializers.IntegerField(source="entrant.id")
    player = serializers.CharField(source="entrant.name")
    points = serializers.FloatField()
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    byes = serializers.IntegerField()
    tiebreaks = serializers.DictField(child=serializers.FloatField())
    explained = serializers.SerializerMethodField(
        help_text="Each tie-break's arithmetic, its words in the reader's language."
    )

    @extend_schema_field(serializers.DictField(child=serializers.CharField()))
    def get_explained(self, row: Any) -> dict[str, str]:
        game = self.context.get("game", "")
        return {key: say(said, game) for key, said in row.said.items()}


class PairingFilterSerializer(serializers.Serializer):
    """?tournament=ID&round=N, bounded: a number past 64 bits reached the database (a 500)."""

    tournament = id_field(required=False, help_text="Only this tournament's pairings.")
    round = serializers.IntegerField(
        required=False, min_value=0, max_value=32767, help_text="Only this round's pairings."
    )


class ResultSerializer(serializers.Serializer):
    log = serializers.JSONField(required=False, help_text="The lantern-log/1 document of the game.")
    file = serializers.FileField(required=False, help_text="Or the log as a multipart file.")


class RecordSerializer(serializers.Serializer):
    setup = serializers.JSONField(
        required=False,
        help_text="The setup as dealt at the table (the game's setup object); "
        "read only when a new draft is started.",
    )


RecordedSerializer = inline_serializer(
    "PairingRecording",
    {
        "draft": serializers.IntegerField(help_text="The draft (/api/drafts/{id}/) to record in."),
        "created": serializers.BooleanField(
            help_text="False: the draft was being recorded already."
        ),
    },
)


class ForfeitSerializer(serializers.Serializer):
    # At least one: a form body cannot tell an empty list from a missing field.
    absent = serializers.ListField(
        child=id_field(), min_length=1, help_text="Entry ids of the players who did not play."
    )
    reason = serializers.CharField()


class WithdrawSerializer(serializers.Serializer):
    entry = id_field(help_text="Entry id")


class SkippedPairingSerializer(serializers.Serializer):
    pairing = serializers.IntegerField()
    why = serializers.CharField(help_text="Why it is not played online, in the reader's language.")


class PlayOnlineSerializer(serializers.Serializer):
    clock = TimeControlSerializer(
        required=False,
        help_text="The event's clock at its online tables from now on (absent: kept as it is).",
    )


class PlayedOnlineSerializer(serializers.Serializer):
    tables = serializers.ListField(
        child=serializers.IntegerField(), help_text="The live tables opened (/api/tables/{id}/)."
    )
    skipped = SkippedPairingSerializer(many=True)


class TwoEntriesSerializer(serializers.Serializer):
    first = id_field(help_text="Entry id")
    second = id_field(help_text="Entry id")
    reason = serializers.CharField()


@extend_schema_view(
    create=extend_schema(
        responses={
            201: TournamentSerializer,
            404: OpenApiResponse(
                ErrorSerializer, description="No club you can see has this address."
            ),
        }
    )
)
class TournamentViewSet(RuleLinks, mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Events of the clubs you can see. Organisers of the club create and run them."""

    serializer_class = TournamentSerializer
    # An event and its rounds online carry its clock, an object; its bodies are read alike.
    parser_classes = JSON_OR_MULTIPART

    def get_queryset(self) -> QuerySet[Tournament]:
        return selectors.visible_tournaments(self.request.user).order_by("-id")

    def _managed(self) -> Tournament:
        tournament = self.get_object()
        if not policy.can_manage_tournament(self.request.user, tournament.club):
            raise PermissionDenied("only the club's organisers run its events")
        return tournament

    def _two_entries(self, request: Request) -> tuple[Tournament, Entry, Entry, str]:
        """An organiser's request naming two entries and a reason (forbid, swap)."""
        tournament = self._managed()
        data = validated(TwoEntriesSerializer, request)
        first = get_object_or_404(Entry, tournament=tournament, pk=data["first"])
        second = get_object_or_404(Entry, tournament=tournament, pk=data["second"])
        return tournament, first, second, data["reason"]

    def perform_create(self, serializer: TournamentSerializer) -> None:
        data = dict(serializer.validated_data)
        club = data.pop("club")
        if not policy.can_manage_tournament(self.request.user, club):
            raise PermissionDenied("only the club's organisers create its events")
        clock = data.pop("clock", None)
        with transaction.atomic():
            serializer.instance = services.create_tournament(
                club=club, created_by=self.request.user, **data
            )
            online.set_round_clock(serializer.instance, clock)

    @extend_schema(
        request=EntrySerializer, responses={201: EntrySerializer, 200: EntrySerializer(many=True)}
    )
    @action(detail=True, methods=["get", "post"], pagination_class=None)  # the whole list
    def entries(self, request: Request, pk: str | None = None) -> Response:
        """List the entries; an organiser adds one by handle (POST)."""
        if request.method == "GET":
            tournament = self.get_object()
            return Response(
                EntrySerializer(tournament.entries.select_related("player"), many=True).data
            )
        tournament = self._managed()
        serializer = EntrySerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        entry = services.enter_handle(
            tournament,
            serializer.validated_data["player"]["handle"],
            serializer.validated_data.get("seed_rating"),
        )
        return Response(EntrySerializer(entry).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses=TournamentSerializer)
    @action(detail=True, methods=["post"])
    def start(self, request: Request, pk: str | None = None) -> Response:
        """Close entries and pair round 1."""
        tournament = services.start_tournament(self._managed())
        return Response(TournamentSerializer(tournament).data)

    @extend_schema(
        request=None,
        responses=inline_serializer("NextRound", {"round": serializers.IntegerField()}),
    )
    @action(detail=True, methods=["post"], url_path="next-round")
    def next_round(self, request: Request, pk: str | None = None) -> Response:
        """Pair the next round now (it is also paired by itself when the last result
        of the round is in)."""
        round_number = services.request_next_round(self._managed())
        return Response({"round": round_number}, status=status.HTTP_202_ACCEPTED)

    @extend_schema(responses=StandingSerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None)  # every rank at once
    def standings(self, request: Request, pk: str | None = None) -> Response:
        """Live standings with every tie-break value and its arithmetic."""
        tournament = self.get_object()
        return Response(
            StandingSerializer(
                selectors.standings(tournament), many=True, context={"game": tournament.game}
            ).data
        )

    @extend_schema(request=TwoEntriesSerializer, responses={201: None})
    @action(detail=True, methods=["post"])
    def forbid(self, request: Request, pk: str | None = None) -> Response:
        """Keep two entries from ever being paired (family, same team)."""
        tournament, first, second, reason = self._two_entries(request)
        services.forbid_pairing(tournament, first, second, reason)
        return Response(status=status.HTTP_201_CREATED)

    @extend_schema(request=WithdrawSerializer, responses=EntrySerializer)
    @action(detail=True, methods=["post"])
    def withdraw(self, request: Request, pk: str | None = None) -> Response:
        """Leave a player out of every round paired from now on (results stay; in a
        round-robin their remaining games are forfeits)."""
        tournament = self._managed()
        entry_id = validated(WithdrawSerializer, request)["entry"]
        entry = get_object_or_404(Entry, tournament=tournament, pk=entry_id)
        return Response(EntrySerializer(services.withdraw_entry(entry)).data)

    @extend_schema(
        request=PlayOnlineSerializer,
        responses=PlayedOnlineSerializer,
        summary="Play the current round online: a live table for each pending pairing without "
        "one, its players seated, with the event's clock (organisers); a finished table "
        "settles its pairing",
    )
    @action(detail=True, methods=["post"], url_path="play-online")
    def play_online(self, request: Request, pk: str | None = None) -> Response:
        tournament = self._managed()
        data = validated(PlayOnlineSerializer, request)
        if "clock" in data:
            online.set_round_clock(tournament, data["clock"])
        started = online.start_round_online(tournament, request.user)
        return Response(
            PlayedOnlineSerializer(
                {
                    "tables": [table.pk for table in started.tables],
                    "skipped": [{"pairing": p.pk, "why": why} for p, why in started.skipped],
                }
            ).data
        )

    @extend_schema(request=TwoEntriesSerializer, responses=PairingSerializer(many=True))
    @action(detail=True, methods=["post"], pagination_class=None)  # the changed pairings, all
    def swap(self, request: Request, pk: str | None = None) -> Response:
        """Manual override: exchange two players' places in the current round."""
        tournament, first, second, reason = self._two_entries(request)
        changed = services.swap_entries(tournament, first, second, reason)
        return Response(PairingSerializer(changed, many=True).data)


#: What a pairing's result, recording or forfeit answers when the pairing has one already.
_SETTLED = {
    409: OpenApiResponse(
        ErrorSerializer,
        description="settled: the pairing has its result already; duplicate: this game is "
        "stored already.",
    )
}


class PairingViewSet(RuleLinks, viewsets.ReadOnlyModelViewSet):
    """Pairings of the events you can see; filter with ?tournament=ID&round=N."""

    serializer_class = PairingSerializer

    def get_queryset(self) -> QuerySet[Pairing]:
        qs = selectors.visible_pairings(self.request.user)
        return qs.filter(**validated_query(PairingFilterSerializer, self.request).validated_data)

    @extend_schema(parameters=[PairingFilterSerializer])
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().list(request, *args, **kwargs)

    @extend_schema(
        request=ResultSerializer,
        responses={
            201: PairingSerializer,
            400: ErrorSerializer,
            403: ErrorSerializer,
            422: ErrorSerializer,
            **_SETTLED,
        },
    )
    @action(detail=True, methods=["post"])
    def result(self, request: Request, pk: str | None = None) -> Response:
        """Settle the pairing with its game's log: ``{"log": {...}}`` or a multipart
        ``file``. The log must seat the pairing's players in the pairing's seats
        (``seats_mismatch``); an illegal log is refused as any upload is (422)."""
        pairing = self.get_object()
        club = pairing.tournament.club
        users = {s.entry.player.user_id for s in pairing.seats.all() if s.entry.player.user_id}
        if not policy.can_record_pairing_result(request.user, club, users):
            raise PermissionDenied(
                "only an organiser or a player of this pairing may upload its result"
            )
        data = validated(ResultSerializer, request)
        if "file" in data:
            document, _name = read_log_file(club, data["file"], request.user)
        elif "log" in data:
            document = data["log"]
        else:
            raise ValidationError({"log": "send the log as JSON ('log') or a file ('file')"})
        services.record_result(pairing, document, request.user)
        pairing.refresh_from_db()
        return Response(PairingSerializer(pairing).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=RecordSerializer,
        responses={
            201: RecordedSerializer,
            200: RecordedSerializer,
            422: ErrorSerializer,
            **_SETTLED,
        },
    )  # a setup the engine refuses, with its rule
    @action(detail=True, methods=["post"])
    def record(self, request: Request, pk: str | None = None) -> Response:
        """Record the pairing's game at the table: a draft of the event's game with the
        pairing's players in its seats (201), or the one being recorded already (200).
        Its match settles the pairing once stored (POST /api/drafts/{id}/finish/)."""
        pairing = self.get_object()
        club = pairing.tournament.club
        users = {s.entry.player.user_id for s in pairing.seats.all() if s.entry.player.user_id}
        if not policy.can_record_pairing_result(request.user, club, users):
            raise PermissionDenied("only an organiser or a player of this pairing may record it")
        setup = validated(RecordSerializer, request).get("setup")
        if setup is not None and not isinstance(setup, dict):
            raise ValidationError({"setup": "the setup must be an object"})
        draft, created = services.record_at_the_table(pairing, request.user, setup or {})
        return Response(
            {"draft": draft.pk, "created": created},
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )

    @extend_schema(request=ForfeitSerializer, responses={200: PairingSerializer, **_SETTLED})
    @action(detail=True, methods=["post"])
    def forfeit(self, request: Request, pk: str | None = None) -> Response:
        """Record a game not played: the absent players lose, the others win."""
        pairing = self.get_object()
        if not policy.can_manage_tournament(request.user, pairing.tournament.club):
            raise PermissionDenied("only the club's organisers record forfeits")
        data = validated(ForfeitSerializer, request)
        absent = selectors.entries_by_ids(pairing.tournament, data["absent"])
        services.record_forfeit(pairing, absent, data["reason"])
        pairing.refresh_from_db()
        return Response(PairingSerializer(pairing).data)
