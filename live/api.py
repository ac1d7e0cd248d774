"""``/api/tables/…``: live tables for any client with a session or a token (a phone
app, a member's own bot). Thin views: live.policy decides, selectors read, services
write. A client takes a seat, follows the table by polling ``news`` with the last
event number it has (or over the websocket the page uses, which sends the same bytes),
and plays its seat's moves with ``act``."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from clubs import selectors as club_selectors
from config.api.errors import ErrorSerializer, LanternAPIView
from config.api.parsers import JSON_OR_MULTIPART, BoundedJSONParser
from config.api.requests import (
    WHOLE_NUMBER,
    json_param,
    require,
    validated,
    whole_number,
)
from config.api.schema import SLUG
from live import (
    clocks,
    endings,
    guests,
    policy,
    selectors,
    services,
    shared_reads,
    socket_limits,
    takebacks,
)
from live.api_serializers import (
    ActSerializer,
    LiveChoiceSerializer,
    NewsSerializer,
    OpenTableSerializer,
    SeatLinkRequestSerializer,
    SeatLinkSerializer,
    TableSerializer,
    TakebackAnswerSerializer,
    TakebackAskSerializer,
    TakeByLinkSerializer,
    TakeSeatSerializer,
)
from live.models import Table
from recorder.choices import choose
from recorder.selectors import seat_choice

TAGS = ["live"]


class LiveView(LanternAPIView):
    permission_classes = [AllowAny]  # live.policy decides (private clubs answer 404)


def _watched(request: Request, table_id: int) -> Table:
    """The table the person may watch, what fell due settled first (a clock run out)."""
    table = shared_reads.settled_table(table_id)
    if table is None or not selectors.visible(request.user, table):
        raise Http404
    require(policy.can_watch(request.user, table), request)
    return table


def _paced(request: Request) -> None:
    """Count this read or move with the person's socket messages, one budget per person
    (live.socket_limits): a page polling while its socket is down, or a client of the API,
    costs a read of the table each time, as a message does. 429 past it."""
    refusal = socket_limits.person_refusal(request.user)
    if refusal is not None:
        raise refusal


def table_body(table: Table, request: Request) -> dict[str, Any]:
    seat = policy.seat_of(request.user, table)
    return {
        "id": table.pk,
        "url": request.build_absolute_uri(reverse("api-table", args=[table.pk])),
        "page_url": request.build_absolute_uri(
            reverse("live-table", args=[table.club.slug, table.pk])
        ),
        "socket_path": f"/ws/tables/{table.pk}/",
        "club": table.club.slug,
        "game": table.game,
        "status": table.status,
        "options": table.options,
        "seats": selectors.seat_rows(table),
        "your_seat": seat.seat if seat else None,
        "last_event": table.last_event,
        "created_by": table.created_by.get_username(),
        "created_at": table.created_at,
        "match": table.match_id,
        "match_url": (
            request.build_absolute_uri(reverse("match-detail", args=[table.match_id]))
            if table.match_id
            else None
        ),
        "clock": clocks.figures(table, [], clocks.now())["control"],
        "ending": table.ending,
    }


def _table_response(request: Request, table_id: int, code: int = status.HTTP_200_OK) -> Response:
    table = selectors.table_for(request.user, table_id)
    assert table is not None
    return Response(TableSerializer(table_body(table, request)).data, status=code)


_ERRORS = {400: ErrorSerializer, 401: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer}
_PACED = (
    "over_budget: the person's reads of their tables' news and legal actions, moves and "
    "socket messages together (per: person, LANTERN_LIVE_MESSAGES_PER_MINUTE),"
)
#: A read of a table that counts toward the person's messages (``_paced``).
_READ_ERRORS = {
    **_ERRORS,
    429: OpenApiResponse(
        ErrorSerializer, description=f"{_PACED} a Retry-After header says when to try again."
    ),
}
_WRITE_ERRORS = {
    **_ERRORS,
    409: OpenApiResponse(
        ErrorSerializer,
        description="stale (the table moved on: catch up with news, "
        "then choose again) or closed (not waiting for "
        "players / not being played).",
    ),
    422: OpenApiResponse(
        ErrorSerializer, description="The engine refused it: rule id and message."
    ),
    429: OpenApiResponse(
        ErrorSerializer,
        description="over_budget: the person's share of the bots (docs/fair-share.md): too "
        "many games against a bot open, or too many bot moves this minute; a Retry-After "
        "header says when to try again.",
    ),
}


class TableListView(LiveView):
    parser_classes = JSON_OR_MULTIPART  # a table's seats and clock are objects

    @extend_schema(
        tags=TAGS,
        operation_id="tables_list",
        parameters=[OpenApiParameter("club", SLUG, required=True, description="The club's slug.")],
        responses={200: TableSerializer(many=True), **_ERRORS},
        summary="A club's tables waiting for players and being played, newest first",
    )
    def get(self, request: Request) -> Response:
        slug = request.query_params.get("club")
        if not slug:
            raise services.TableInvalid("club (a club's slug) is required", field="club")
        club = club_selectors.club_for(request.user, slug)
        if club is None:
            raise Http404
        require(policy.can_open_table(request.user, club), request)
        return Response(
            [
                TableSerializer(table_body(t, request)).data
                for t in selectors.club_tables(club, request.user)
            ]
        )

    @extend_schema(
        tags=TAGS,
        operation_id="tables_create",
        request=OpenTableSerializer,
        responses={201: TableSerializer, **_WRITE_ERRORS},
        summary="Open a table: the game, its options, and per seat you, a member to come, or a bot",
    )
    def post(self, request: Request) -> Response:
        slug = request.data.get("club") if isinstance(request.data, dict) else None
        club = club_selectors.club_for(request.user, slug) if isinstance(slug, str) else None
        if club is None:
            raise Http404
        require(policy.can_open_table(request.user, club), request)
        body = validated(OpenTableSerializer, request)
        table = services.open_table(
            club,
            request.user,
            game_id=body["game"],
            options=body.get("options"),
            seats=body["seats"],
            clock=body.get("clock"),
        )
        response = _table_response(request, table.pk, status.HTTP_201_CREATED)
        response["Location"] = response.data["url"]
        return response


class TableDetailView(LiveView):
    @extend_schema(
        tags=TAGS,
        operation_id="tables_retrieve",
        responses={200: TableSerializer, **_ERRORS},
        summary="A table: its game, seats, status, your seat, its match once finished",
    )
    def get(self, request: Request, table_id: int) -> Response:
        _watched(request, table_id)
        return _table_response(request, table_id)


class TakeSeatView(LiveView):
    @extend_schema(
        tags=TAGS,
        operation_id="tables_take_seat",
        request=TakeSeatSerializer,
        responses={200: TableSerializer, **_WRITE_ERRORS},
        summary="Take a free seat (the last one taken deals the game)",
    )
    def post(self, request: Request, table_id: int) -> Response:
        table = _watched(request, table_id)
        body = validated(TakeSeatSerializer, request)
        services.take_seat(table.pk, request.user, body.get("seat"))
        return _table_response(request, table.pk)


class AbandonView(LiveView):
    @extend_schema(
        tags=TAGS,
        operation_id="tables_abandon",
        request=None,
        responses={
            200: TableSerializer,
            **_ERRORS,
            409: OpenApiResponse(ErrorSerializer, description="closed: the table is already over."),
        },
        summary="Abandon a table that is not over (its opener, or the club's organisers): "
        "its sockets learn it as an event, and it frees a place among the opener's open "
        "games against a bot",
    )
    def post(self, request: Request, table_id: int) -> Response:
        table = _watched(request, table_id)
        require(policy.can_abandon(request.user, table), request)
        services.abandon_table(table.pk, request.user)
        return _table_response(request, table.pk)


class NewsView(LiveView):
    @extend_schema(
        tags=TAGS,
        operation_id="tables_news",
        parameters=[
            OpenApiParameter(
                "since",
                WHOLE_NUMBER,
                description="The last event number you have (default 0: everything).",
            )
        ],
        responses={200: NewsSerializer, **_READ_ERRORS},
        summary="What happened after event `since`, as your seat may see it, and where the "
        "game stands: the same as the websocket sends",
    )
    def get(self, request: Request, table_id: int) -> Response:
        table = _watched(request, table_id)
        _paced(request)
        endings.seen(table.pk, request.user)
        body = selectors.news(
            table, policy.eyes(request.user, table), whole_number(request, "since")
        )
        return Response(body)


class LegalActionsView(LiveView):
    @extend_schema(
        tags=TAGS,
        operation_id="tables_legal_actions",
        parameters=[
            OpenApiParameter(
                "prefix", str, description="JSON object {path: value}: fields chosen so far."
            )
        ],
        responses={200: LiveChoiceSerializer, **_READ_ERRORS},
        summary="Your seat's legal actions now, chosen field by field (empty when it is not your "
        "turn)",
    )
    def get(self, request: Request, table_id: int) -> Response:
        table = _watched(request, table_id)
        _paced(request)
        seat = policy.seat_of(request.user, table)
        require(seat is not None, request)
        prefix = json_param(request, "prefix")
        if table.status != Table.Status.PLAYING:
            raise services.ClosedTable("this table is not being played")
        position = services.position_of(table)
        if seat.seat in position.to_act:
            choice, listed, fields = seat_choice(
                position,
                services.seat_entries(table),
                seat.seat,
                seat.seat,
                prefix,
                chance_at_table=False,
            )
        else:
            choice, listed, fields = choose([]), [], {}
        return Response(
            LiveChoiceSerializer(
                {
                    "seen": table.last_event,
                    "seat": seat.seat,
                    "total": choice.total,
                    "prefix": choice.prefix,
                    "field": choice.field,
                    "values": choice.values,
                    "actions": listed,
                    "fields": fields,
                }
            ).data
        )


class ActView(LiveView):
    # An action is any JSON value, which a form cannot carry whole (an empty list or a
    # null part is no part at all): a move is JSON.
    parser_classes = [BoundedJSONParser]

    @extend_schema(
        tags=TAGS,
        operation_id="tables_act",
        request=ActSerializer,
        responses={
            200: NewsSerializer,
            **_WRITE_ERRORS,
            429: OpenApiResponse(
                ErrorSerializer,
                description=f"{_PACED} or their share of the bots (docs/fair-share.md); "
                "a Retry-After header says when to try again.",
            ),
        },
        summary="Play your seat's move (then the bots'); answered with the news since `seen`",
    )
    def post(self, request: Request, table_id: int) -> Response:
        _paced(request)
        try:
            body = validated(ActSerializer, request)
            table = endings.play_settled(
                table_id,
                services.Move(
                    user=request.user, seen=body["seen"], action=request.data.get("action")
                ),
            )
        except Exception:
            # Whoever may not see or watch the table learns only that (404, 403), whatever
            # the move's own refusal: the table is read for them now, not before every move.
            _watched(request, table_id)
            raise
        # The table as the move left it (its seats read under its lock, the events it
        # added): nothing read again.
        eyes = policy.eyes(request.user, table)
        drawn = selectors.Drawn.after_write(table)
        return Response(selectors.news(table, eyes, body["seen"], drawn))


class ClaimView(LiveView):
    @extend_schema(
        tags=TAGS,
        operation_id="tables_claim",
        request=None,
        responses={
            200: NewsSerializer,
            **_ERRORS,
            409: OpenApiResponse(
                ErrorSerializer,
                description="too_early (the seat left less than the grace period ago: "
                "wait_s says how long is left), nobody_away, no_claims (a correspondence "
                "table: its clock is the rule), or closed (the table is over: a second "
                "claim).",
            ),
        },
        summary="Claim the game from the seats of the other side gone longer than the grace "
        "period (LIVE-1.2): a win for your side; answered with the news since `seen`",
    )
    def post(self, request: Request, table_id: int) -> Response:
        table = _watched(request, table_id)
        require(policy.seat_of(request.user, table) is not None, request)
        seen = request.data.get("seen") if isinstance(request.data, dict) else None
        endings.claim(table.pk, request.user)
        table = selectors.table_for(request.user, table.pk)
        since = seen if type(seen) is int else 0
        return Response(selectors.news(table, policy.eyes(request.user, table), since))


class TakebackView(LiveView):
    @extend_schema(
        tags=TAGS,
        operation_id="tables_takeback",
        request=TakebackAskSerializer,
        responses={200: NewsSerializer, **_WRITE_ERRORS},
        summary="Ask to take back your seat's last move (a table without bots; not a move in "
        "which chance drew something hidden); the other seats answer",
    )
    def post(self, request: Request, table_id: int) -> Response:
        table = _watched(request, table_id)
        require(policy.can_ask_takeback(request.user, table), request)
        body = validated(TakebackAskSerializer, request)
        takebacks.ask(table.pk, request.user)
        return _news(request, table.pk, body["seen"])


class TakebackAnswerView(LiveView):
    @extend_schema(
        tags=TAGS,
        operation_id="tables_takeback_answer",
        request=TakebackAnswerSerializer,
        responses={200: NewsSerializer, **_WRITE_ERRORS},
        summary="Agree to the take-back asked for (the last seat to agree takes the move back) "
        "or decline it",
    )
    def post(self, request: Request, table_id: int) -> Response:
        table = _watched(request, table_id)
        require(policy.can_ask_takeback(request.user, table), request)
        body = validated(TakebackAnswerSerializer, request)
        takebacks.answer(table.pk, request.user, agree=body["agree"])
        return _news(request, table.pk, body["seen"])


def _news(request: Request, table_id: int, since: int) -> Response:
    table = selectors.table_for(request.user, table_id)
    assert table is not None
    return Response(selectors.news(table, policy.eyes(request.user, table), since))


class SeatLinkView(LiveView):
    @extend_schema(
        tags=TAGS,
        operation_id="tables_seat_link",
        request=SeatLinkRequestSerializer,
        responses={201: SeatLinkSerializer, **_WRITE_ERRORS},
        summary="A one-time link to a free seat, for a guest (the table's opener or an "
        "organiser, where the club allows guests at its tables); a new link for the seat "
        "voids the one before",
    )
    def post(self, request: Request, table_id: int) -> Response:
        table = _watched(request, table_id)
        require(policy.can_link_seat(request.user, table), request)
        body = validated(SeatLinkRequestSerializer, request)
        token = guests.make_link(table.pk, request.user, body["seat"])
        url = request.build_absolute_uri(reverse("live-seat-link", args=[token]))
        return Response(
            SeatLinkSerializer({"seat": body["seat"], "token": token, "url": url}).data,
            status=status.HTTP_201_CREATED,
        )


class TakeByLinkView(LiveView):
    @extend_schema(
        tags=TAGS,
        operation_id="tables_take_by_link",
        request=TakeByLinkSerializer,
        responses={200: TableSerializer, **_WRITE_ERRORS},
        summary="Take the seat a one-time link names (signed in: a member as their handle, "
        "anyone else as a guest); the link is then spent (422 LIVE-LINK for a spent one)",
    )
    def post(self, request: Request) -> Response:
        require(request.user.is_authenticated, request)
        body = validated(TakeByLinkSerializer, request)
        table, _user = guests.take_by_link(body["token"], request.user, body.get("name") or None)
        return _table_response(request, table.pk)
