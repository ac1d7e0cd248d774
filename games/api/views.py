"""The games API. Views stay thin: policy decides, selectors read, services write."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpResponse, JsonResponse, StreamingHttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
)
from rest_framework import exceptions, status
from rest_framework.parsers import BaseParser
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

import engine
from clubs import policy
from clubs import selectors as club_selectors
from clubs.models import Club
from config.api.errors import ErrorSerializer, LanternAPIView
from config.api.pagination import PAGE_PARAMETERS, LanternCursorPagination, paginated
from config.api.parsers import StrictMultiPartParser
from config.api.requests import validated_query
from config.errors import AppError
from games import bundles, read_cache, selectors, services
from games import policy as match_policy
from games.api.serializers import (
    ImportSerializer,
    LogFileSerializer,
    MatchDetailSerializer,
    MatchFilterSerializer,
    MatchSummarySerializer,
    UploadFilterSerializer,
    UploadSerializer,
)
from games.models import Upload
from games.throttling import UploadThrottle

#: multipart framing around an uploaded file, allowed on top of the file's own limit
_MULTIPART_SLACK = 64 * 1024


class RawJSONParser(BaseParser):
    """Hands the view the request body as bytes: the service parses it, so malformed
    JSON gets the same error (and upload record) whichever way the log arrived."""

    media_type = "application/json"

    def parse(self, stream, media_type=None, parser_context=None) -> bytes:
        if stream is None:
            return b""
        # The view refused over-long bodies from Content-Length; never read past the limit.
        return stream.read(services.max_log_bytes() + 1)


def _club_or_404(request: Request, slug: str) -> Club:
    club = club_selectors.club_for(request.user, slug)
    if club is None:
        raise Http404
    return club


def _require(allowed: bool, request: Request) -> None:
    if not allowed:
        if not request.user.is_authenticated:
            raise exceptions.NotAuthenticated()
        raise exceptions.PermissionDenied()


def _content_length(request: Request) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


_LOG_BODY = {
    "application/json": {"type": "object", "description": "A lantern-log/1 document."},
    "multipart/form-data": LogFileSerializer,
}


_REVERSED_DATES = OpenApiResponse(ErrorSerializer, description="played_from is after played_to.")


class ClubMatchesView(LanternAPIView):
    """A club's matches: list them, or upload one log."""

    permission_classes = [AllowAny]  # clubs.policy decides, so private clubs can answer 404
    parser_classes = [RawJSONParser, StrictMultiPartParser]

    def get_throttles(self):
        return [UploadThrottle()] if self.request.method == "POST" else []

    @extend_schema(
        parameters=[MatchFilterSerializer, *PAGE_PARAMETERS],
        responses={
            200: paginated(MatchSummarySerializer, "MatchPage"),
            400: ErrorSerializer,
            404: ErrorSerializer,
            422: _REVERSED_DATES,
        },
        summary="List a club's matches (filters, cursor pagination)",
    )
    def get(self, request: Request, slug: str) -> Response:
        club = _club_or_404(request, slug)
        filters = validated_query(MatchFilterSerializer, request).filters()

        def page() -> dict:
            paginator = LanternCursorPagination()
            rows = paginator.paginate_queryset(
                selectors.club_match_rows(club, filters), request, view=self
            )
            data = MatchSummarySerializer(
                selectors.with_seat_summaries(rows), many=True, context={"request": request}
            ).data
            return paginator.get_paginated_response(data).data

        return Response(read_cache.cached_answer(club.pk, request, page))

    @extend_schema(
        request=_LOG_BODY,
        parameters=[
            OpenApiParameter(
                "guests",
                str,
                OpenApiParameter.QUERY,
                required=False,
                description="Handles of the log the club does not know, confirmed as guests "
                "(comma-separated): their players are created and the audit trail names who "
                "confirmed them. Organisers may; members where the club allows it. Without it, "
                "a log with unknown handles is refused (422 unknown_players, the handles in "
                "'handles').",
            )
        ],
        responses={
            201: OpenApiResponse(MatchSummarySerializer, description="Stored as a new match."),
            200: OpenApiResponse(
                MatchSummarySerializer, description="Already stored: the existing match."
            ),
            400: OpenApiResponse(
                ErrorSerializer, description="Not JSON, or not a lantern-log/1 envelope."
            ),
            403: OpenApiResponse(ErrorSerializer, description="Not a member of this club."),
            404: OpenApiResponse(ErrorSerializer, description="No such club (or a private one)."),
            413: OpenApiResponse(ErrorSerializer, description="The log is too large."),
            422: OpenApiResponse(
                ErrorSerializer, description="An illegal action, or unknown players."
            ),
            429: OpenApiResponse(ErrorSerializer, description="Too many uploads; retry later."),
        },
        examples=[
            OpenApiExample(
                "Illegal action",
                status_codes=["422"],
                response_only=True,
                value={
                    "error": "illegal",
                    "index": 8,
                    "rule": "CUL-3.7",
                    "rule_url": "https://lantern.example.org/rules/cryptid-urban-legends/#CUL-3.7",
                    "message": "action 8 (cryptid draw): a draw is 2 cards ...",
                    "upload": 12,
                },
            )
        ],
        summary="Upload one log (JSON body, or a multipart 'file')",
    )
    def post(self, request: Request, slug: str) -> Response:
        club = _club_or_404(request, slug)
        _require(policy.can_upload(request.user, club), request)
        length = _content_length(request)
        if request.content_type.startswith("multipart/"):
            services.accept_log_size(club, length, request.user, allowance=_MULTIPART_SLACK)
            upload = request.FILES.get("file")
            if upload is None:
                raise AppError(
                    _("send the log as JSON, or as a multipart field 'file'"), code="malformed"
                )
            body, name = services.read_log_file(club, upload, request.user)
        else:
            services.accept_log_size(club, length, request.user)
            body, name = request.data, ""
        guests = [h for h in request.query_params.get("guests", "").split(",") if h]
        match = services.ingest_log(
            club, body, request.user, source=Upload.Source.API, name=name, guests=guests
        )
        data = MatchSummarySerializer(
            selectors.with_seats(match), context={"request": request}
        ).data
        code = status.HTTP_201_CREATED if match.created else status.HTTP_200_OK
        return Response(data, status=code, headers={"Location": data["url"]})


class MatchDetailView(LanternAPIView):
    permission_classes = [AllowAny]

    @extend_schema(
        responses={200: MatchDetailSerializer, 404: ErrorSerializer},
        summary="A match: summary and its whole log",
    )
    def get(self, request: Request, match_id: int) -> Response:
        match = selectors.match_for(request.user, match_id)
        if match is None:
            raise Http404
        opens = match_policy.opens_to(request.user, match)
        context = {
            "request": request,
            "document": selectors.match_document(match) if opens is None else None,
            "visible_from": opens,
        }
        return Response(MatchDetailSerializer(selectors.with_seats(match), context=context).data)


class MatchLogView(LanternAPIView):
    permission_classes = [AllowAny]

    @extend_schema(
        responses={
            (200, "application/json"): OpenApiTypes.OBJECT,
            403: OpenApiResponse(
                ErrorSerializer,
                description="`hidden`: a game played online, before the club's delay after "
                "its end has passed, asked for by someone who did not play it; "
                "`visible_from` says when it opens.",
            ),
            404: ErrorSerializer,
        },
        summary="The stored log, as canonical JSON (its sha256 is the match's content_hash)",
    )
    def get(self, request: Request, match_id: int) -> HttpResponse:
        match = selectors.match_for(request.user, match_id)
        if match is None:
            raise Http404
        match_policy.require_hidden(request.user, match)
        response = HttpResponse(selectors.stored_log_text(match), content_type="application/json")
        response["ETag"] = f'"{match.content_hash}"'
        return response


class LogSchemaView(LanternAPIView):
    permission_classes = [AllowAny]

    @extend_schema(
        responses={(200, "application/json"): OpenApiTypes.OBJECT},
        summary="The JSON Schema of lantern-log/1, from the engine",
    )
    def get(self, request: Request) -> JsonResponse:
        return JsonResponse(engine.log_schema())


class ClubExportView(LanternAPIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[MatchFilterSerializer],
        responses={
            (200, "application/zip"): OpenApiTypes.BINARY,
            (200, "application/jsonl"): OpenApiTypes.STR,
            400: ErrorSerializer,
            404: ErrorSerializer,
            422: _REVERSED_DATES,
        },
        description="A game played online whose log is still kept from you (the club's delay "
        "after its end, when you did not play it) is left out.",
        summary="Download the logs of a club's matches (with the list's filters) as zip or JSON "
        "lines",
    )
    def get(self, request: Request, slug: str, kind: str) -> HttpResponse:
        club = _club_or_404(request, slug)
        filters = validated_query(MatchFilterSerializer, request).filters()
        # Less the games played online whose logs are still kept from this reader.
        matches = match_policy.without_hidden(
            request.user, club, selectors.club_matches(club, filters)
        )
        texts = selectors.export_texts(matches)
        if kind == "zip":
            response = HttpResponse(bundles.write_zip(texts), content_type="application/zip")
        else:
            response = StreamingHttpResponse(
                (text + "\n" for _name, text in texts), content_type="application/jsonl"
            )
        response["Content-Disposition"] = f'attachment; filename="{club.slug}-logs.{kind}"'
        return response


class ClubImportsView(LanternAPIView):
    """A club's bulk imports: list them, or start one."""

    permission_classes = [AllowAny]
    parser_classes = [StrictMultiPartParser]

    def get_throttles(self):
        return [UploadThrottle()] if self.request.method == "POST" else []

    @extend_schema(
        parameters=PAGE_PARAMETERS,
        responses={
            200: paginated(ImportSerializer, "ImportPage"),
            403: ErrorSerializer,
            404: ErrorSerializer,
        },
        summary="A club's bulk imports (organisers)",
    )
    def get(self, request: Request, slug: str) -> Response:
        club = _club_or_404(request, slug)
        _require(policy.can_import(request.user, club), request)
        paginator = LanternCursorPagination()
        page = paginator.paginate_queryset(selectors.club_imports(club), request, view=self)
        data = ImportSerializer(page, many=True, context={"request": request}).data
        return paginator.get_paginated_response(data)

    @extend_schema(
        request={"multipart/form-data": LogFileSerializer},
        responses={
            202: OpenApiResponse(
                ImportSerializer, description="Queued; follow its url for progress."
            ),
            400: OpenApiResponse(
                ErrorSerializer, description="No file, or a zip that cannot be read."
            ),
            403: ErrorSerializer,
            404: ErrorSerializer,
            413: OpenApiResponse(
                ErrorSerializer,
                description=(
                    "The file, or what its zip directory declares (files, expanded bytes), is over "
                    "the limits; refused before anything is inflated or stored."
                ),
            ),
            429: OpenApiResponse(ErrorSerializer, description="Too many uploads; retry later."),
        },
        summary="Start a bulk import: a JSON-lines or zip file of logs (organisers)",
    )
    def post(self, request: Request, slug: str) -> Response:
        club = _club_or_404(request, slug)
        _require(policy.can_import(request.user, club), request)
        services.accept_import_size(_content_length(request), allowance=_MULTIPART_SLACK)
        upload = request.FILES.get("file")
        # A part named file without a file name is read as the form's text: still the file.
        text = request.data.get("file") if upload is None else None
        if upload is None and not isinstance(text, str):
            raise AppError(_("send the logs as a multipart field 'file'"), code="malformed")
        data = upload.read() if upload is not None else text.encode()
        services.accept_import_size(len(data))
        run = services.create_import(club, data, upload.name if upload else "", request.user)
        run.refresh_from_db()  # without a worker the task already ran, on commit
        body = ImportSerializer(run, context={"request": request}).data
        return Response(body, status=status.HTTP_202_ACCEPTED, headers={"Location": body["url"]})


class ImportDetailView(LanternAPIView):
    permission_classes = [AllowAny]

    @extend_schema(
        responses={200: ImportSerializer, 404: ErrorSerializer},
        summary="A bulk import and its progress",
    )
    def get(self, request: Request, import_id: int) -> Response:
        run = selectors.import_for(request.user, import_id)
        if run is None:
            raise Http404
        return Response(ImportSerializer(run, context={"request": request}).data)


class ClubUploadsView(LanternAPIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[UploadFilterSerializer, *PAGE_PARAMETERS],
        responses={200: paginated(UploadSerializer, "UploadPage"), 404: ErrorSerializer},
        summary="Upload attempts and their rejections (organisers: all; members: their own)",
    )
    def get(self, request: Request, slug: str) -> Response:
        club = _club_or_404(request, slug)
        wanted: dict[str, Any] = validated_query(UploadFilterSerializer, request).validated_data
        uploads = selectors.club_uploads(club, request.user, **wanted)
        paginator = LanternCursorPagination()
        page = paginator.paginate_queryset(uploads, request, view=self)
        data = UploadSerializer(page, many=True, context={"request": request}).data
        return paginator.get_paginated_response(data)


class UploadDetailView(LanternAPIView):
    permission_classes = [AllowAny]

    @extend_schema(
        responses={200: UploadSerializer, 404: ErrorSerializer},
        summary="One upload attempt and, when rejected, why",
    )
    def get(self, request: Request, upload_id: int) -> Response:
        upload = selectors.upload_for(request.user, upload_id)
        if upload is None:
            raise Http404
        services.note_upload_read(request.user, upload)
        return Response(UploadSerializer(upload, context={"request": request}).data)
