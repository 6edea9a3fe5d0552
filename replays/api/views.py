"""Thin API views for submitting logs and reading verdicts and replays."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpResponse
from django.http.request import RawPostDataException
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from matches.api.views import get_game_or_404
from replays import selectors, services
from replays.models import MatchLog
from speedsite.errors import Invalid, NotFound, TooLarge

from .serializers import LogOutput, LogSubmissionOutput, StepsOutput


def _get_log_or_404(log_id: int) -> MatchLog:
    log = selectors.log_get(log_id=log_id)
    if log is None:
        raise NotFound(f"There is no log {log_id}.")
    return log


def _read_body(request: Request) -> bytes:
    """The raw body, refusing one over the size limit before reading it."""
    limit = settings.SPEED_LOG_MAX_BYTES
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        declared = 0
    if declared > limit:
        raise TooLarge(
            f"The log is {declared} bytes; the limit is {limit} bytes (settings.SPEED_LOG_MAX_BYTES).",
            extra={"limit": limit},
        )
    try:
        return request._request.body
    except RawPostDataException as exc:
        raise Invalid("Send the log as the raw JSON body (Content-Type: application/json), not as a form.") from exc


class GameLogsApi(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses=LogOutput(many=True))
    def get(self, request: Request, game_id: int) -> Response:
        get_game_or_404(game_id)
        paginator = LimitOffsetPagination()
        page = paginator.paginate_queryset(selectors.log_list(game_id=game_id), request, view=self)
        return paginator.get_paginated_response(LogOutput(page, many=True).data)

    @extend_schema(
        request={"application/json": OpenApiTypes.OBJECT},
        description=(
            "Submit the speed-log/1 document of this game as the JSON body. It is stored verbatim and "
            "verified by a worker; poll the returned url. The same document for the same game is the same "
            f"submission (200 with it). Bodies over settings.SPEED_LOG_MAX_BYTES "
            f"({settings.SPEED_LOG_MAX_BYTES} bytes) get 413."
        ),
        responses={
            202: LogSubmissionOutput,
            200: OpenApiResponse(LogSubmissionOutput, description="The same document was submitted before."),
            400: OpenApiResponse(description="Not JSON, not an object, wrong players or ruleset, game decided."),
            401: OpenApiResponse(description="Not logged in."),
            403: OpenApiResponse(description="Not a player of this match nor an organiser."),
            404: OpenApiResponse(description="No such game."),
            413: OpenApiResponse(description="Larger than the size limit."),
        },
        examples=[OpenApiExample("Accepted", value={"id": 7, "status": "pending", "url": "/api/logs/7/"})],
    )
    def post(self, request: Request, game_id: int) -> Response:
        data = _read_body(request)
        log, created = services.log_submit(game_id=game_id, data=data, user=request.user)
        return Response(
            LogSubmissionOutput(log, context={"request": request}).data,
            status=status.HTTP_202_ACCEPTED if created else status.HTTP_200_OK,
        )


class LogDetailApi(APIView):
    @extend_schema(responses=LogOutput)
    def get(self, request: Request, log_id: int) -> Response:
        return Response(LogOutput(_get_log_or_404(log_id)).data)


class LogStepsApi(APIView):
    @extend_schema(responses=StepsOutput)
    def get(self, request: Request, log_id: int) -> Response:
        log = selectors.log_get_with_data(log_id=log_id)
        if log is None:
            raise NotFound(f"There is no log {log_id}.")
        return Response(StepsOutput(services.log_steps_build(log=log)).data)


class LogDocumentApi(APIView):
    @extend_schema(responses={(200, "application/json"): OpenApiTypes.OBJECT})
    def get(self, request: Request, log_id: int) -> HttpResponse:
        """The submitted document, byte for byte."""
        log = selectors.log_get_with_data(log_id=log_id)
        if log is None:
            raise NotFound(f"There is no log {log_id}.")
        return HttpResponse(bytes(log.data), content_type="application/json")
