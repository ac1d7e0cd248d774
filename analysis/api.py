"""``/api/matches/{id}/analysis?view=all|<seat>``: a match's analysis, its status and
progress (GET), and a request to analyse it (POST, the club's members)."""

from __future__ import annotations

from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from analysis.selectors import analysis_payload
from analysis.services import AnalysisError, request_analysis
from clubs.policy import can_analyse
from config.api.errors import ErrorSerializer
from replay.frames import ALL
from replay.selectors import require_perspective, visible_match

_VIEW = OpenApiParameter(
    "view",
    OpenApiTypes.STR,
    description="`all` (default), `public` (what a spectator saw: no seat's figures) or a "
    "seat/team id.",
)
_HIDDEN = OpenApiResponse(
    ErrorSerializer,
    description="`hidden`: a game played online, before the club's delay after its end has "
    "passed, asked for from any perspective but `public` by someone who did not play it; "
    "`visible_from` says when it opens.",
)


class MatchAnalysisView(APIView):
    def _payload(self, request: Request, match_id: int, status: int = 200) -> Response:
        match = visible_match(request.user, match_id)
        viewer = request.query_params.get("view") or ALL
        require_perspective(request.user, match, viewer)
        payload = analysis_payload(match, viewer, request.user)
        return Response(payload, status=status)

    @extend_schema(
        operation_id="match_analysis",
        summary="A match's analysis from one perspective",
        description=(
            "Status (`none`, `waiting` for the club's next day of automatic analysis, with "
            "`waiting` saying from when; `queued` until a worker has started on it, `running`, "
            "`done`, `failed`), progress in "
            "plies, and "
            "when done the win-chance lines, rated moves (lichess labels: inaccuracy 5, "
            "mistake 10, blunder 15 points of the mover's own win chance), best moves and "
            "accuracy. A seat's perspective gets only figures from that seat's own "
            "information and its own decisions; the all-seeing figures and the 'could not "
            "have known' marks go to `all`. `available` is false (with `reason`) for a game "
            "the engine cannot analyse or a match that is not valid. `result.playouts` says how a "
            "chance was made: the playouts behind a seat's own chance (`own`) and an "
            "all-seeing one (`all_seeing`), and whether they stop short of the end and are "
            "scored there (`own_cut`, `all_seeing_cut`)."
        ),
        parameters=[_VIEW],
        responses={
            200: OpenApiTypes.OBJECT,
            400: OpenApiResponse(ErrorSerializer, description="Unknown perspective."),
            403: _HIDDEN,
            404: OpenApiResponse(
                ErrorSerializer, description="No such match, or not visible to you."
            ),
        },
    )
    def get(self, request: Request, match_id: int) -> Response:
        return self._payload(request, match_id)

    @extend_schema(
        operation_id="match_analysis_request",
        summary="Analyse a match",
        description=(
            "Queues the match's analysis (the `analysis` Celery queue) unless the "
            "current engine's analysis is stored or under way; the club's members only. "
            "One waiting for the club's next day is queued now, within the person's budget. "
            "Answers as GET does."
        ),
        parameters=[_VIEW],
        request=None,
        responses={
            202: OpenApiTypes.OBJECT,
            400: OpenApiResponse(
                ErrorSerializer,
                description=(
                    "The match cannot be analysed (refused; too_long: too long even with the "
                    "fewest "
                    "playouts; retries_spent: it failed as often as it is started)."
                ),
            ),
            403: OpenApiResponse(
                ErrorSerializer,
                description="Not a member of the match's club; or `hidden`, as for GET.",
            ),
            429: OpenApiResponse(
                ErrorSerializer,
                description=(
                    "over_budget: the person has as many analyses queued or running as they may "
                    "(docs/fair-share.md); Retry-After (seconds) says when to try again."
                ),
            ),
            404: OpenApiResponse(
                ErrorSerializer, description="No such match, or not visible to you."
            ),
        },
    )
    def post(self, request: Request, match_id: int) -> Response:
        match = visible_match(request.user, match_id)
        if not request.user.is_authenticated or not can_analyse(request.user, match.club):
            raise AnalysisError(
                gettext("only the club's members may analyse its matches"), code="forbidden"
            )
        require_perspective(request.user, match, request.query_params.get("view") or ALL)
        request_analysis(match, request.user)
        return self._payload(request, match_id, status=202)
