"""``GET /api/matches/{id}/frames?view=all|<seat>``: a match's replay frames."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    inline_serializer,
)
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.views import APIView

from config.api.errors import ErrorSerializer, RuleLinks
from config.api.requests import WHOLE_NUMBER, whole_number
from replay.frames import ALL, PAGE_SIZE, page_of
from replay.selectors import (
    Frames,
    beliefs_etag,
    frames_etag,
    match_beliefs,
    match_frames,
    match_views,
    require_perspective,
    visible_match,
)

_frame = inline_serializer(
    "ReplayFrame",
    {
        "ply": serializers.IntegerField(help_text="0 = the setup; n = after the n-th action."),
        "round": serializers.IntegerField(
            allow_null=True, help_text="Round the action was played in."
        ),
        "phase": serializers.CharField(
            allow_null=True, help_text="Phase the action was played in."
        ),
        "seat": serializers.CharField(
            allow_null=True, help_text="Seat that acted (null for the setup)."
        ),
        "action": serializers.JSONField(
            allow_null=True, help_text="The action as this viewer saw it."
        ),
        "notation": serializers.CharField(
            allow_null=True, help_text="The action in the engine's compact notation."
        ),
        "sentence": serializers.CharField(
            allow_null=True,
            help_text="The action as a plain sentence in the reader's language, said from "
            "the action as this viewer saw it (engine/README.md: sentences).",
        ),
        "result_sentence": serializers.CharField(
            required=False,
            allow_null=True,
            help_text="Beside a view: who won and how, as one sentence, when the game is over "
            "in that state (null before).",
        ),
        "view": serializers.JSONField(
            required=False,
            help_text="The engine's view of the state for this viewer: in the frames of the "
            "page asked for (`page`) only; any other page's come from /frames/views.",
        ),
    },
)

_payload = inline_serializer(
    "ReplayFrames",
    {
        "version": serializers.IntegerField(),
        "match": serializers.IntegerField(),
        "game": serializers.CharField(),
        "game_name": serializers.CharField(),
        "renderer": serializers.CharField(
            help_text="The board drawing of the game's views: static/js/replay/boards/<renderer>.js"
        ),
        "rules_version": serializers.CharField(),
        "viewer": serializers.CharField(),
        "viewers": serializers.ListField(child=serializers.DictField()),
        "seats": serializers.ListField(child=serializers.DictField()),
        "options": serializers.JSONField(),
        "static": serializers.JSONField(allow_null=True),
        "seat_labels": serializers.DictField(
            child=serializers.CharField(), help_text="Each seat and team, as players call it."
        ),
        "card_words": serializers.DictField(
            child=serializers.CharField(),
            help_text="Each card or ticket a view lists by its log id, as players call it.",
        ),
        "legend": serializers.ListField(
            child=serializers.DictField(),
            help_text="What the board's marks mean: `mark` (a key the page draws) and `text`.",
        ),
        "phases": serializers.DictField(
            child=serializers.CharField(),
            help_text="Each phase id of the frames, as players call it.",
        ),
        "status": serializers.ChoiceField(["finished", "unfinished", "rejected"]),
        "error": serializers.JSONField(allow_null=True),
        "page_size": serializers.IntegerField(help_text="Plies per page of views."),
        "page": serializers.IntegerField(
            allow_null=True,
            help_text="The page whose frames carry their view (plies "
            "page × page_size to page × page_size + page_size − 1).",
        ),
        "frames": serializers.ListField(child=_frame),
    },
)

_views = inline_serializer(
    "ReplayViews",
    {
        "version": serializers.IntegerField(),
        "viewer": serializers.CharField(),
        "page": serializers.IntegerField(),
        "from": serializers.IntegerField(help_text="The ply of the first view."),
        "views": serializers.ListField(
            child=serializers.JSONField(),
            help_text="The views of plies from, from + 1, … (up to page_size, fewer on the last "
            "page).",
        ),
        "result_sentences": serializers.ListField(
            child=serializers.CharField(allow_null=True),
            help_text="Beside each view: the result as one sentence when the game is over there.",
        ),
    },
)

_VIEW = OpenApiParameter(
    "view",
    OpenApiTypes.STR,
    description="`all` (default), `public` (what a spectator saw) or a seat/team id.",
)
_CACHED_RESPONSES = {
    304: OpenApiResponse(description="Not modified (ETag matched)."),
    403: OpenApiResponse(
        ErrorSerializer,
        description="`hidden`: a game played online, before the club's delay after its end "
        "has passed, asked for from any perspective but `public` by someone who did not "
        "play it; `visible_from` says when it opens.",
    ),
    422: OpenApiResponse(
        ErrorSerializer, description="The current engine cannot replay this log's setup."
    ),
    404: OpenApiResponse(ErrorSerializer, description="No such match, or not visible to you."),
}


def _serve(request: Request, etag: str, build: Callable[[], Frames]) -> HttpResponse:
    """A cached payload with its ETag: 304 when the client has it, else the gzipped JSON
    (or plain for a client that does not take gzip)."""
    # Revalidation, the common case of a browser stepping back to a match, needs
    # neither the cache nor the log.
    headers = {
        "ETag": etag,
        "Cache-Control": "private, no-cache",
        "Vary": "Accept-Encoding, Cookie, Authorization",
    }
    if etag in _etags(request.headers.get("If-None-Match", "")):
        return HttpResponse(status=304, headers=headers)
    frames = build()  # ReplayRefused: answered by the API's exception handler
    # Already JSON (gzipped): served as cached, no re-encoding through a renderer.
    if _accepts_gzip(request.headers.get("Accept-Encoding", "")):
        headers["Content-Encoding"] = "gzip"
        return HttpResponse(frames.gzipped, content_type="application/json", headers=headers)
    return HttpResponse(frames.body(), content_type="application/json", headers=headers)


class MatchFramesView(RuleLinks, APIView):
    @extend_schema(
        operation_id="match_frames",
        summary="Replay frames of a match from one perspective",
        description=(
            "The setup frame and one frame per action (its move: seat, action, notation, "
            "sentence, round and phase), for the chosen perspective: `all` (all-seeing) or a "
            "seat or team id. The frames of one page (the one holding `ply`) carry the "
            f"engine's view of the state; any other page's views ({PAGE_SIZE} plies each) come "
            "from /frames/views. A seat's frames hold only what that seat could know at that "
            "moment. Cached; send `If-None-Match` with the ETag to get 304."
        ),
        parameters=[
            _VIEW,
            OpenApiParameter(
                "ply",
                WHOLE_NUMBER,
                description="The frames of the page "
                "holding this ply carry their views (default 0).",
            ),
        ],
        responses={
            200: _payload,
            400: OpenApiResponse(
                ErrorSerializer, description="Unknown perspective, or a ply that is not a number."
            ),
            **_CACHED_RESPONSES,
        },
    )
    def get(self, request: Request, match_id: int) -> HttpResponse:
        match = visible_match(request.user, match_id)
        viewer = request.query_params.get("view") or ALL
        require_perspective(request.user, match, viewer)
        page = page_of(whole_number(request, "ply"))
        return _serve(
            request, frames_etag(match, viewer, page), lambda: match_frames(match, viewer, page)
        )


class MatchViewsView(RuleLinks, APIView):
    @extend_schema(
        operation_id="match_frame_views",
        summary="One page of a match's frame views, from one perspective",
        description=(
            f"The views of plies page × {PAGE_SIZE} on (up to {PAGE_SIZE}), as the frames "
            "payload carries them for its own page: a replay client fetches these as a "
            "person moves through a long game. Cached; ETag and 304 as for the frames."
        ),
        parameters=[_VIEW, OpenApiParameter("page", WHOLE_NUMBER, description="From 0.")],
        responses={
            200: _views,
            400: OpenApiResponse(
                ErrorSerializer, description="Unknown perspective, or a page that is not a number."
            ),
            **_CACHED_RESPONSES,
        },
    )
    def get(self, request: Request, match_id: int) -> HttpResponse:
        match = visible_match(request.user, match_id)
        viewer = request.query_params.get("view") or ALL
        require_perspective(request.user, match, viewer)
        page = whole_number(request, "page")
        return _serve(
            request,
            frames_etag(match, viewer, page, views_only=True),
            lambda: match_views(match, viewer, page),
        )


_belief = inline_serializer(
    "Belief",
    {
        "holder": serializers.CharField(help_text="The seat (or team) holding the belief."),
        "kind": serializers.CharField(
            help_text="`position` (Mister X's city), `hand` (the Cryptid "
            "opponent's hand) or `envelopes` (a Cloak & Dagger check sheet's proofs)."
        ),
        "measure": serializers.JSONField(
            help_text="`count` still possible (of `unit`), `bits`: entropy, if any."
        ),
        "changed": serializers.JSONField(
            allow_null=True,
            help_text="What this ply changed in the measure: "
            "`from`, `to` (and `bits_from`, `bits_to`), or null.",
        ),
    },
)

_beliefs = inline_serializer(
    "ReplayBeliefs",
    {
        "version": serializers.IntegerField(),
        "viewer": serializers.CharField(),
        "game": serializers.CharField(),
        "plies": serializers.ListField(
            child=inline_serializer(
                "BeliefPly",
                {
                    "ply": serializers.IntegerField(),
                    "beliefs": serializers.ListField(child=_belief),
                },
            )
        ),
    },
)


class MatchBeliefsView(RuleLinks, APIView):
    @extend_schema(
        operation_id="match_beliefs",
        summary="What each seat could believe of the hidden facts, after every ply",
        description=(
            "Per ply, the beliefs this perspective may see (engine/ai/beliefs.py): Mister X's "
            "possible cities weighted by the paths consistent with the public record (public, "
            "so every perspective), the cards likely in the Cryptid opponent's hand (a seat: its "
            "own), what a Cloak & Dagger check sheet proves about the envelopes (a seat: its own; "
            "certainties, not probabilities). `all` gets every seat's. Each belief says how the "
            "ply changed it (narrowed or widened). Cached; ETag and 304 as for the frames."
        ),
        parameters=[_VIEW],
        responses={
            200: _beliefs,
            400: OpenApiResponse(ErrorSerializer, description="Unknown perspective."),
            **_CACHED_RESPONSES,
        },
    )
    def get(self, request: Request, match_id: int) -> HttpResponse:
        match = visible_match(request.user, match_id)
        viewer = request.query_params.get("view") or ALL
        require_perspective(request.user, match, viewer)
        return _serve(request, beliefs_etag(match, viewer), lambda: match_beliefs(match, viewer))


def _etags(header: str) -> set[str]:
    """The entity tags of an If-None-Match header, compared weakly (RFC 9110 8.8.3.2)."""
    tags = {tag.strip() for tag in header.split(",") if tag.strip()}
    return {tag if tag.startswith("W/") else f"W/{tag}" for tag in tags}


def _accepts_gzip(header: str) -> bool:
    """Whether an Accept-Encoding header takes gzip (and not with q=0)."""
    for part in header.split(","):
        coding, _, params = part.partition(";")
        if coding.strip().lower() in ("gzip", "*"):
            name, _, value = params.strip().partition("=")
            try:
                return name.strip().lower() != "q" or float(value) > 0
            except ValueError:
                return True
    return False
