"""``/api/drafts/…``: the recorder's API (contract: recorder/API.md). Thin views: policy
decides, selectors read, services write."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from clubs import selectors as club_selectors
from clubs.bots import seat_bot_name
from config.api.errors import ErrorSerializer, LanternAPIView
from config.api.pagination import PAGE_PARAMETERS, LanternCursorPagination, paginated
from config.api.parsers import BoundedJSONParser
from config.api.requests import require, validated
from config.api.schema import SLUG
from config.sentences import say
from engine import get_game, parse_json_value
from recorder import policy, selectors, services
from recorder.models import Draft

TAGS = ["recorder"]


# --- bodies ---------------------------------------------------------------------------------


class SeatEntrySerializer(serializers.Serializer):
    seat = serializers.CharField()
    player = serializers.CharField(
        required=False, allow_null=True, help_text="A handle of the club."
    )
    bot = serializers.ChoiceField(
        ["random", "greedy", "search"],
        required=False,
        allow_null=True,
        help_text="Or a bot plays this seat.",
    )


class CreateDraftSerializer(serializers.Serializer):
    club = serializers.SlugField(help_text="The club's slug.")
    game = serializers.CharField(help_text="Engine game id, e.g. cloak-and-dagger.")
    options = serializers.JSONField(
        required=False, help_text="Game options; absent keys take defaults."
    )
    seats = SeatEntrySerializer(many=True)
    chance = serializers.ChoiceField(
        [c.value for c in Draft.Chance],
        required=False,
        allow_null=True,
        help_text="table: chance outcomes are entered as they came out; server: dealt from a "
        "seed (forced with a bot). Default: table without bots.",
    )
    setup = serializers.JSONField(required=False, help_text="The log's setup (see API.md).")
    played_at = serializers.DateTimeField(required=False)

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        # Seats are checked by the service against the game (one clear error per problem);
        # here only the envelope of the body.
        if not isinstance(data, dict):
            raise serializers.ValidationError({"non_field_errors": ["send a JSON object"]})
        return super().to_internal_value(data)


class VersionSerializer(serializers.Serializer):
    version = serializers.IntegerField(help_text="The draft's version this write is made against.")


@extend_schema_field(
    {
        "type": "object",
        "required": ["seat", "type"],
        "additionalProperties": True,
        "properties": {"seat": {"type": "string"}, "type": {"type": "string"}},
    }
)
class ActionField(serializers.JSONField):
    """An action as the log writes it: an object with a string seat and type (and the
    fields of its type, which the engine checks)."""


#: Fields chosen so far: an object {path: value}, each path a non-empty string without NUL
#: (recorder.choices.check_prefix).
PREFIX_SCHEMA = {
    "type": "object",
    "patternProperties": {"^[^\\u0000]+$": {}},
    "additionalProperties": False,
}


@extend_schema_field(PREFIX_SCHEMA)
class PrefixField(serializers.JSONField):
    """Fields chosen so far: an object {path: value}."""


class ApplySerializer(VersionSerializer):
    action = ActionField(help_text="One action, as legal-actions / chance-options list it.")


class ChanceSerializer(serializers.Serializer):
    action = ActionField(help_text="An action as legal-actions listed it (chance left out).")
    prefix = PrefixField(required=False, help_text="Fields chosen so far: {path: value}.")


class MoveSerializer(serializers.Serializer):
    ply = serializers.IntegerField()
    round = serializers.IntegerField(allow_null=True)
    phase = serializers.CharField(allow_null=True)
    seat = serializers.CharField(allow_null=True)
    action = serializers.JSONField()
    notation = serializers.CharField()
    sentence = serializers.CharField(
        help_text="The engine's plain sentence of the action as "
        "this viewer saw it (as in a replay's move list)."
    )
    bot = serializers.BooleanField(help_text="Played by a bot.")


class FrameSerializer(serializers.Serializer):
    ply = serializers.IntegerField()
    round = serializers.IntegerField(allow_null=True)
    phase = serializers.CharField(allow_null=True)
    seat = serializers.CharField(allow_null=True)
    action = serializers.JSONField(allow_null=True)
    notation = serializers.CharField(allow_null=True)
    sentence = serializers.CharField(allow_null=True)
    view = serializers.JSONField(help_text="game.view(state, viewer), as in a replay frame.")


class DraftSeatSerializer(serializers.Serializer):
    seat = serializers.CharField()
    player = serializers.CharField()
    bot = serializers.CharField(
        allow_null=True,
        help_text="The engine's bot level (random, greedy, search), or null for a person.",
    )
    bot_name = serializers.CharField(
        allow_null=True,
        help_text="The bot as players call it, in the "
        'reader\'s language ("strong bot"; a second '
        'strong bot at the table "strong bot 2").',
    )


class DraftSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.URLField()
    page_url = serializers.CharField(help_text="The recording page of this draft.")
    club = serializers.CharField()
    game = serializers.CharField()
    game_name = serializers.CharField()
    renderer = serializers.CharField(
        help_text="The board drawing of the game's views: static/js/replay/boards/<renderer>.js."
    )
    status = serializers.ChoiceField(Draft.Status.choices)
    version = serializers.IntegerField()
    chance = serializers.ChoiceField(Draft.Chance.choices)
    seats = DraftSeatSerializer(many=True)
    created_by = serializers.CharField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    played_at = serializers.DateTimeField()
    ply = serializers.IntegerField(help_text="Actions so far.")
    match = serializers.IntegerField(allow_null=True)
    match_url = serializers.CharField(allow_null=True)


class DraftSerializer(DraftSummarySerializer):
    options = serializers.JSONField()
    moves = MoveSerializer(many=True)
    to_act = serializers.ListField(child=serializers.CharField())
    seat = serializers.CharField(allow_null=True, help_text="The seat whose person decides now.")
    controller = serializers.CharField(allow_null=True, help_text="Who decides for `seat`.")
    is_over = serializers.BooleanField()
    result = serializers.JSONField(allow_null=True)
    result_sentence = serializers.CharField(
        allow_null=True, help_text="The result as a plain sentence in the reader's language."
    )
    frame = FrameSerializer()
    viewer = serializers.CharField(
        help_text="Whose eyes this answer is seen with, chosen by the "
        "server: all, a seat or team, or public."
    )
    viewers = serializers.ListField(child=serializers.DictField())
    phases = serializers.DictField(
        child=serializers.CharField(),
        help_text="Each phase the moves and the position name, as players call it.",
    )
    seat_labels = serializers.DictField(
        child=serializers.CharField(), help_text="Each seat and team, as players call it."
    )
    card_words = serializers.DictField(
        child=serializers.CharField(),
        help_text="Each card or ticket a view lists by its log id, as "
        "players call it (car/double: car (double move)).",
    )
    static = serializers.JSONField(allow_null=True, help_text="With ?static=1: game.static_view.")
    document = serializers.JSONField(
        allow_null=True, help_text="The lantern-log/1 so far (all-seeing only)."
    )


class ChoiceValueSerializer(serializers.Serializer):
    value = serializers.JSONField(allow_null=True)
    count = serializers.IntegerField()
    label = serializers.CharField(
        help_text="The value in the reader's language, as the engine says it."
    )


class ListedActionSerializer(serializers.Serializer):
    action = serializers.JSONField()
    notation = serializers.CharField()
    sentence = serializers.CharField(help_text="The engine's plain sentence of it.")
    chance = serializers.BooleanField(help_text="Its chance outcome is still to be entered.")
    labels = serializers.DictField(
        child=serializers.CharField(allow_blank=True),
        help_text="Each field (path: nested objects as left/red) of the action, "
        "its value in the reader's language.",
    )


class ChoiceSerializer(serializers.Serializer):
    draft = serializers.IntegerField()
    version = serializers.IntegerField()
    seat = serializers.CharField(allow_null=True)
    total = serializers.IntegerField(help_text="Actions matching the prefix.")
    prefix = serializers.JSONField(
        help_text="The fields fixed: yours and those with one value left."
    )
    field = serializers.CharField(
        allow_null=True, help_text="Next field to choose; null when listed."
    )
    values = ChoiceValueSerializer(many=True)
    actions = ListedActionSerializer(many=True)
    fields = serializers.DictField(
        child=serializers.CharField(),
        help_text="Each field asked or listed (path), named in the reader's language.",
    )


# --- rendering ------------------------------------------------------------------------------


def _absolute(request: Request, path: str) -> str:
    return request.build_absolute_uri(path)


def summary_body(draft: Draft, request: Request) -> dict[str, Any]:
    game = get_game(draft.game)
    return {
        "id": draft.pk,
        "url": _absolute(request, reverse("api-draft", args=[draft.pk])),
        "page_url": _absolute(request, reverse("record-draft", args=[draft.club.slug, draft.pk])),
        "club": draft.club.slug,
        "game": draft.game,
        "game_name": say(game.title()) if game else draft.game,
        "renderer": game.renderer if game else "generic",
        "status": draft.status,
        "version": draft.version,
        "chance": draft.chance,
        "seats": [
            {
                "seat": e["seat"],
                "player": e["player"],
                "bot": e.get("bot"),
                "bot_name": seat_bot_name(e),
            }
            for e in draft.seats
        ],
        "created_by": draft.created_by.get_username(),
        "created_at": draft.created_at,
        "updated_at": draft.updated_at,
        "played_at": draft.played_at,
        "ply": len(draft.actions),
        "match": draft.match_id,
        "match_url": (
            _absolute(request, reverse("match-detail", args=[draft.match_id]))
            if draft.match_id
            else None
        ),
    }


def draft_body(view: selectors.DraftView, request: Request) -> dict[str, Any]:
    position = view.position
    seat = position.human_seat
    return {
        **summary_body(view.draft, request),
        "options": view.draft.options,
        "moves": view.moves,
        "to_act": position.to_act,
        "seat": seat,
        "controller": position.game.controller(seat) if seat else None,
        "is_over": position.is_over,
        "result": position.game.result(position.state) if position.is_over else None,
        "result_sentence": view.result_sentence,
        "frame": view.frame,
        "viewer": view.viewer,
        "viewers": view.viewers,
        "phases": view.phases,
        "seat_labels": view.seat_labels,
        "card_words": view.card_words,
        "static": view.static,
        "document": view.document,
    }


def choice_body(step: selectors.ActionChoice) -> dict[str, Any]:
    choice = step.choice
    return {
        "draft": step.draft.pk,
        "version": step.draft.version,
        "seat": step.seat,
        "total": choice.total,
        "prefix": choice.prefix,
        "field": choice.field,
        "values": choice.values,
        "actions": step.listed,
        "fields": step.fields,
    }


# --- views ----------------------------------------------------------------------------------


class RecorderView(LanternAPIView):
    permission_classes = [AllowAny]  # clubs.policy decides (private clubs answer 404)
    # Actions are JSON objects: a form could not carry one (the recorder's pages send JSON).
    parser_classes = [BoundedJSONParser]


def _readable_draft(request: Request, draft_id: int) -> Draft:
    draft = selectors.draft_for(request.user, draft_id)
    if draft is None:
        raise Http404
    require(policy.can_see_drafts(request.user, draft.club), request)
    return draft


def _writable_draft(request: Request, draft_id: int) -> Draft:
    draft = _readable_draft(request, draft_id)
    require(policy.can_write_draft(request.user, draft), request)
    return draft


def _playable_draft(request: Request, draft_id: int) -> Draft:
    draft = _readable_draft(request, draft_id)
    require(policy.can_play_draft(request.user, draft), request)
    return draft


def _respond(
    request: Request,
    draft: Draft,
    position: services.Position | None = None,
    code: int = status.HTTP_200_OK,
) -> Response:
    """The draft as the server lets this user see it (``clubs.policy.draft_eyes``): the
    ``view`` parameter is honoured only for a finished draft (a match)."""
    view = selectors.draft_view(
        draft,
        request.user,
        request.query_params.get("view"),
        position=position,
        with_static=request.query_params.get("static") == "1",
    )
    return Response(DraftSerializer(draft_body(view, request)).data, status=code)


_ERRORS = {
    400: ErrorSerializer,
    401: ErrorSerializer,
    403: ErrorSerializer,
    404: ErrorSerializer,
}
_WRITE_ERRORS = {
    **_ERRORS,
    409: OpenApiResponse(
        ErrorSerializer,
        description="stale (reload: another write came first) or closed (finished/abandoned).",
    ),
    422: OpenApiResponse(
        ErrorSerializer, description="The engine refused it: rule id and message."
    ),
}
_UNDO_ERRORS = {
    **_WRITE_ERRORS,
    409: OpenApiResponse(
        ErrorSerializer,
        description="stale (reload: another write came first), closed (finished/abandoned) "
        "or nothing_to_undo (no action is left to undo).",
    ),
}
#: past the person's share of the bots (recorder.budgets, docs/fair-share.md)
_BOT_BUDGET = {
    429: OpenApiResponse(
        ErrorSerializer,
        description="over_budget: too many games against a bot open, or "
        "too many bot moves this minute; Retry-After (seconds) says when to try again.",
    ),
}
_VIEW_PARAMETERS = [
    OpenApiParameter(
        "view",
        str,
        description="A finished draft only (a match): `all` (default) "
        "or a seat/team id. A running draft is seen with the eyes the server "
        "gives this user (see `viewer`).",
    ),
    OpenApiParameter("static", str, description="`1`: include the game's static view (board)."),
]


class DraftListView(RecorderView):
    @extend_schema(
        tags=TAGS,
        operation_id="drafts_list",
        parameters=[
            OpenApiParameter("club", SLUG, required=True, description="The club's slug."),
            OpenApiParameter(
                "status",
                str,
                enum=[s.value for s in Draft.Status],
                description="Default: recording (the drafts to resume).",
            ),
            *PAGE_PARAMETERS,
        ],
        responses={200: paginated(DraftSummarySerializer, "DraftPage"), **_ERRORS},
        summary="A club's drafts (default: those still recording), newest first",
    )
    def get(self, request: Request) -> Response:
        slug = request.query_params.get("club")
        if not slug:
            raise services.DraftInvalid(gettext("club (a club's slug) is required"), field="club")
        club = club_selectors.club_for(request.user, slug)
        if club is None:
            raise Http404
        require(policy.can_see_drafts(request.user, club), request)
        wanted = request.query_params.get("status") or Draft.Status.RECORDING
        if wanted not in Draft.Status.values:
            raise services.DraftInvalid(
                gettext("status must be one of %(statuses)s")
                % {"statuses": ", ".join(Draft.Status.values)},
                field="status",
            )
        paginator = LanternCursorPagination()
        page = paginator.paginate_queryset(selectors.club_drafts(club, wanted), request, view=self)
        return paginator.get_paginated_response([summary_body(d, request) for d in page])

    @extend_schema(
        tags=TAGS,
        operation_id="drafts_create",
        request=CreateDraftSerializer,
        parameters=_VIEW_PARAMETERS,
        responses={201: DraftSerializer, **_WRITE_ERRORS, **_BOT_BUDGET},
        summary="Start recording a game (bots that act first move at once)",
    )
    def post(self, request: Request) -> Response:
        slug = request.data.get("club") if isinstance(request.data, dict) else None
        club = club_selectors.club_for(request.user, slug) if isinstance(slug, str) else None
        if club is None:
            raise Http404
        require(policy.can_record(request.user, club), request)
        body = validated(CreateDraftSerializer, request)
        # The raw seats (not the serializer's) go to the service, which checks them
        # against the game.
        draft, position = services.create_draft(
            club,
            request.user,
            game_id=body["game"],
            options=body.get("options"),
            seats=request.data.get("seats"),
            chance=body.get("chance"),
            setup=body.get("setup"),
            played_at=body.get("played_at"),
        )
        response = _respond(request, draft, position, status.HTTP_201_CREATED)
        response["Location"] = response.data["url"]
        return response


class GameCatalogueView(RecorderView):
    @extend_schema(
        tags=TAGS,
        operation_id="drafts_games",
        responses={200: serializers.ListSerializer(child=serializers.DictField())},
        summary="What the setup screen offers: games, seats, bots, options, setup",
    )
    def get(self, request: Request) -> Response:
        return Response(selectors.game_catalogue())


class DraftDetailView(RecorderView):
    @extend_schema(
        tags=TAGS,
        operation_id="drafts_retrieve",
        parameters=_VIEW_PARAMETERS,
        responses={200: DraftSerializer, **_ERRORS},
        summary="A draft: position (replay frame), moves, who is to act, log so far",
    )
    def get(self, request: Request, draft_id: int) -> Response:
        return _respond(request, _readable_draft(request, draft_id))


class LegalActionsView(RecorderView):
    @extend_schema(
        tags=TAGS,
        operation_id="drafts_legal_actions",
        parameters=[
            OpenApiParameter("seat", str, description="One of to_act (default: the human's seat)."),
            OpenApiParameter(
                "prefix",
                str,
                description="JSON object {path: value}: fields chosen so far.",
                extensions={"x-json": PREFIX_SCHEMA},
            ),
        ],
        responses={
            200: ChoiceSerializer,
            **_ERRORS,
            422: OpenApiResponse(
                ErrorSerializer,
                description="The seat is not to act now, or not played from this device.",
            ),
        },
        summary="The legal actions of the seat to act, chosen field by field",
    )
    def get(self, request: Request, draft_id: int) -> Response:
        draft = _playable_draft(request, draft_id)
        prefix = _json_param(request, "prefix")
        step = selectors.legal_choice(
            draft, request.user, request.query_params.get("seat") or None, prefix
        )
        return Response(ChoiceSerializer(choice_body(step)).data)


class ChanceOptionsView(RecorderView):
    @extend_schema(
        tags=TAGS,
        operation_id="drafts_chance_options",
        request=ChanceSerializer,
        responses={200: ChoiceSerializer, **_ERRORS},
        summary="How the chance in an action could come out (cards, blocks, tickets, envelopes)",
    )
    def post(self, request: Request, draft_id: int) -> Response:
        draft = _playable_draft(request, draft_id)
        body = validated(ChanceSerializer, request)
        step = selectors.chance_choice(draft, request.user, body["action"], body.get("prefix"))
        return Response(ChoiceSerializer(choice_body(step)).data)


def _json_param(request: Request, name: str) -> Any:
    raw = request.query_params.get(name)
    if not raw:
        return None
    try:
        return parse_json_value(raw)
    except ValueError as exc:
        raise services.DraftInvalid(
            gettext("%(name)s must be JSON (%(reason)s)") % {"name": name, "reason": exc},
            field=name,
        ) from None


def fingerprint(request: Request) -> str:
    """The request as a sha256: endpoint, body and query. The same request posted twice
    (a double click, a retry after a timeout) has the same fingerprint."""
    data = request.data
    body = {key: data.getlist(key) for key in data} if hasattr(data, "getlist") else data
    text = json.dumps(
        {"path": request.path, "body": body, "query": sorted(request.query_params.lists())},
        sort_keys=True,
        separators=(",", ":"),
        default=str,
    )
    return hashlib.sha256(text.encode()).hexdigest()


def _write(request: Request, serializer_class, draft: Draft) -> services.WriteRequest:
    body = validated(serializer_class, request)
    return services.WriteRequest(
        user=request.user, version=body["version"], fingerprint=fingerprint(request)
    )


def _answer(request: Request) -> services.Answer:
    """The body of a write's answer: the draft as ``_respond`` shows it to this user."""

    def answer(draft: Draft, position: services.Position) -> dict[str, Any]:
        return _respond(request, draft, position).data

    return answer


class ApplyView(RecorderView):
    @extend_schema(
        tags=TAGS,
        operation_id="drafts_apply",
        request=ApplySerializer,
        parameters=_VIEW_PARAMETERS,
        responses={200: DraftSerializer, **_WRITE_ERRORS, **_BOT_BUDGET},
        summary="Apply one action (then the bots' moves); saved at once; a repeat "
        "of the same request is answered the same, not applied twice",
    )
    def post(self, request: Request, draft_id: int) -> Response:
        draft = _playable_draft(request, draft_id)
        write = _write(request, ApplySerializer, draft)
        return Response(
            services.apply_action(draft.pk, write, request.data["action"], answer=_answer(request))
        )


class UndoView(RecorderView):
    @extend_schema(
        tags=TAGS,
        operation_id="drafts_undo",
        request=VersionSerializer,
        parameters=_VIEW_PARAMETERS,
        responses={200: DraftSerializer, **_UNDO_ERRORS},
        summary="Undo the last human action (and the bot moves after it)",
    )
    def post(self, request: Request, draft_id: int) -> Response:
        draft = _playable_draft(request, draft_id)
        write = _write(request, VersionSerializer, draft)
        return Response(services.undo(draft.pk, write, answer=_answer(request)))


class FinishView(RecorderView):
    @extend_schema(
        tags=TAGS,
        operation_id="drafts_finish",
        request=VersionSerializer,
        parameters=_VIEW_PARAMETERS,
        responses={200: DraftSerializer, **_WRITE_ERRORS},
        summary="Store the draft as a match, through the upload path (ingest_log)",
    )
    def post(self, request: Request, draft_id: int) -> Response:
        draft = _writable_draft(request, draft_id)
        write = _write(request, VersionSerializer, draft)
        # A LogRejected from ingest reaches the client through the exception handler.
        return Response(services.finish(draft.pk, write, answer=_answer(request)))


class AbandonView(RecorderView):
    @extend_schema(
        tags=TAGS,
        operation_id="drafts_abandon",
        request=VersionSerializer,
        parameters=_VIEW_PARAMETERS,
        responses={200: DraftSerializer, **_WRITE_ERRORS},
        summary="Drop the draft without a match",
    )
    def post(self, request: Request, draft_id: int) -> Response:
        draft = _writable_draft(request, draft_id)
        write = _write(request, VersionSerializer, draft)
        return Response(services.abandon(draft.pk, write, answer=_answer(request)))
