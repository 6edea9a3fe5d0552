"""Thin API views for submitting logs and reading verdicts and replays."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpResponse
from django.http.request import RawPostDataException
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import UnsupportedMediaType
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response

from core.api_strict import ApiView
from core.errors import Invalid, NotFound, TooLarge
from core.numbers import NumberError, query_whole, whole_number
from core.pagination import PAGE_PARAMETERS, Pagination, paginated
from matches.api.views import get_game_or_404
from replays import selectors, services
from replays.compact import CompactSteps, chunk, decode
from replays.models import MatchLog
from speedrules import ENGINE_VERSION

from .serializers import CompactStepsOutput, LogOutput, LogSubmissionOutput, StepsOutput


def _get_log_or_404(log_id: int) -> MatchLog:
    log = selectors.log_get(log_id=log_id)
    if log is None:
        raise NotFound(f"There is no log {log_id}.")
    return log


def read_log_body(request: Request) -> bytes:
    """The raw body, refusing one over the size limit before reading it, and one in a media type the API's
    parsers do not read (415, as every other endpoint answers: the body is read raw, but it is JSON)."""
    # As DRF judges `request.data`: a body (an empty one has no media type to refuse) the parsers do not take.
    if request.stream is not None and request.negotiator.select_parser(request, request.parsers) is None:
        raise UnsupportedMediaType(request.content_type)
    limit = settings.SPEED_LOG_MAX_BYTES
    try:
        declared = whole_number(request.META.get("CONTENT_LENGTH") or "0", low=0, high=None)
    except NumberError:  # refused before, by the request guard
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


class GameLogsApi(ApiView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses=paginated(LogOutput), parameters=PAGE_PARAMETERS)
    def get(self, request: Request, game_id: int) -> Response:
        get_game_or_404(game_id)
        paginator = Pagination()
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
            429: OpenApiResponse(description="Over a quota: logs for this game by this submitter, or bytes a day."),
        },
        examples=[OpenApiExample("Accepted", value={"id": 7, "status": "pending", "url": "/api/logs/7/"})],
    )
    def post(self, request: Request, game_id: int) -> Response:
        data = read_log_body(request)
        log, created = services.log_submit(game_id=game_id, data=data, user=request.user)
        return Response(
            LogSubmissionOutput(log, context={"request": request}).data,
            status=status.HTTP_202_ACCEPTED if created else status.HTTP_200_OK,
        )


def log_detail_response(log_id: int) -> Response:
    """A log's verdict and provenance (`LogOutput`): `/api/logs/{id}/`, and a table's log at its own address."""
    return Response(LogOutput(_get_log_or_404(log_id)).data)


class LogDetailApi(ApiView):
    @extend_schema(responses=LogOutput)
    def get(self, request: Request, log_id: int) -> Response:
        return log_detail_response(log_id)


#: Steps per response: a page of `/steps/` or a chunk of `/steps/compact/` unless asked for fewer.
STEPS_PER_PAGE = 500
STEPS_PER_PAGE_MAX = 1000


#: The furthest step an offset may point at: a PostgreSQL integer, far beyond any log's steps.
STEP_OFFSET_MAX = 2**31 - 1


def query_int(request: Request, name: str, default: int, *, low: int, high: int = STEP_OFFSET_MAX) -> int:
    """A whole number from the query (`core.numbers`: ASCII digits, bounded; empty is refused)."""
    try:
        return query_whole(request.query_params, name, default=default, low=low, high=high)
    except NumberError as exc:
        raise Invalid(f"`{name}`: {exc}", extra={"field": name}) from None


def _log_replay(log_id: int) -> tuple[MatchLog, CompactSteps]:
    log = selectors.log_get_with_data(log_id=log_id)
    if log is None:
        raise NotFound(f"There is no log {log_id}.")
    return log, services.replay_compact(services.log_steps_build(log_id=log.pk))


def _verdict_fields(log: MatchLog) -> dict[str, Any]:
    return {
        "log": log.pk,
        "status": log.status,
        "code": log.code or None,
        "event": log.event,
        "engine_version": ENGINE_VERSION,
    }


# The ranges `query_int` enforces below, so the schema documents them.
FROM_ZERO = {"type": "integer", "minimum": 0, "maximum": STEP_OFFSET_MAX}
STEP_COUNT = {"type": "integer", "minimum": 1, "maximum": STEPS_PER_PAGE_MAX}

_PAGE_PARAMETERS = [
    OpenApiParameter("offset", FROM_ZERO, description="The first step to return (default 0)."),
    OpenApiParameter(
        "limit",
        STEP_COUNT,
        description=f"At most this many steps (default {STEPS_PER_PAGE}, at most {STEPS_PER_PAGE_MAX}).",
    ),
]


class LogStepsApi(ApiView):
    @extend_schema(
        parameters=_PAGE_PARAMETERS,
        responses=StepsOutput,
        description=(
            "The table after the deal and after each event that passed, one page of steps at a time "
            f"(`?offset=&limit=`, {STEPS_PER_PAGE} steps by default, {STEPS_PER_PAGE_MAX} at most; follow `next`). "
            "The same steps in the compact form the replay viewer reads (smaller, gzipped or not): "
            "`/api/logs/{id}/steps/compact/`."
        ),
    )
    def get(self, request: Request, log_id: int) -> Response:
        offset = query_int(request, "offset", 0, low=0)
        limit = query_int(request, "limit", STEPS_PER_PAGE, low=1, high=STEPS_PER_PAGE_MAX)
        log, compact = _log_replay(log_id)
        count = len(compact)
        url = request.build_absolute_uri(request.path)
        after = offset + limit
        return Response(
            {
                **_verdict_fields(log),
                "count": count,
                "offset": offset,
                "limit": limit,
                "next": f"{url}?offset={after}&limit={limit}" if after < count else None,
                "previous": f"{url}?offset={max(offset - limit, 0)}&limit={limit}" if offset > 0 else None,
                "steps": decode(compact, offset, after),
            }
        )


#: The query of a chunk of compact steps (a match log's or a solitaire run's).
CHUNK_PARAMETERS = [
    OpenApiParameter("from", FROM_ZERO, description="The first step of the chunk (default 0)."),
    OpenApiParameter(
        "count",
        STEP_COUNT,
        description=f"At most this many steps (default {STEPS_PER_PAGE}, at most {STEPS_PER_PAGE_MAX}).",
    ),
]


def chunk_range(request: Request) -> tuple[int, int]:
    """The chunk's first step and how many steps, from `?from=&count=` (bounded)."""
    return (
        query_int(request, "from", 0, low=0),
        query_int(request, "count", STEPS_PER_PAGE, low=1, high=STEPS_PER_PAGE_MAX),
    )


class LogCompactStepsApi(ApiView):
    @extend_schema(
        parameters=CHUNK_PARAMETERS,
        responses=CompactStepsOutput,
        description=(
            "A chunk of the replay's steps in the compact form `speed-steps/1` (integer rows, cards as ids "
            "into a legend, each row only what changed since the step before): what the replay viewer loads. "
            "Each chunk reads on its own: `base` is the table just before its first step."
        ),
    )
    def get(self, request: Request, log_id: int) -> Response:
        return log_compact_chunk_response(request, log_id)


def log_compact_chunk_response(request: Request, log_id: int) -> Response:
    """A chunk (`?from=&count=`) of a log's kept compact steps, with its verdict."""
    start, count = chunk_range(request)
    log, compact = _log_replay(log_id)
    return Response({**_verdict_fields(log), **chunk(compact, start=start, count=count)})


def log_document_response(log_id: int) -> HttpResponse:
    """A stored log's document, byte for byte."""
    log = selectors.log_get_with_data(log_id=log_id)
    if log is None:
        raise NotFound(f"There is no log {log_id}.")
    return HttpResponse(bytes(log.data), content_type="application/json")


class LogDocumentApi(ApiView):
    @extend_schema(responses={(200, "application/json"): OpenApiTypes.OBJECT})
    def get(self, request: Request, log_id: int) -> HttpResponse:
        """The submitted document, byte for byte."""
        return log_document_response(log_id)
