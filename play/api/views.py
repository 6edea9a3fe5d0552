"""The tables over HTTP (speed-table/1 section 1): thin views over the play services and selectors."""

from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from core.api_strict import ApiView
from core.throttles import PracticeTablesThrottle
from replays.api.serializers import CompactStepsOutput, LogOutput
from replays.api.views import (
    CHUNK_PARAMETERS,
    log_compact_chunk_response,
    log_detail_response,
    log_document_response,
)

from .. import selectors, services
from .serializers import PracticeInput, TableOutput


class GameTableApi(ApiView):
    """Open the table of an open game (a player of its match, or an organiser), or get the one already open."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="game_table_open", request=None, responses={200: TableOutput, 201: TableOutput})
    def post(self, request: Request, game_id: int) -> Response:
        table, created = services.table_open_for_game(game_id=game_id, user=request.user)
        return Response(selectors.table_json(table), status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class PracticeTableApi(ApiView):
    """A practice table: you at seat 0, a bot of the given level at each other seat. It counts for nothing."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [PracticeTablesThrottle]

    @extend_schema(operation_id="practice_table_create", request=PracticeInput, responses={201: TableOutput})
    def post(self, request: Request) -> Response:
        data = PracticeInput(data=request.data)
        data.is_valid(raise_exception=True)
        table = services.table_practice_create(user=request.user, **data.validated_data)
        return Response(selectors.table_json(table), status=status.HTTP_201_CREATED)


class TableDetailApi(ApiView):
    """A table (anyone)."""

    permission_classes = [AllowAny]

    @extend_schema(operation_id="table_detail", responses=TableOutput)
    def get(self, request: Request, table_id: int) -> Response:
        return Response(selectors.table_json(selectors.table_get(table_id=table_id)))


class TableLogApi(ApiView):
    """The log a finished table stored (a practice log too): the same answer as `/api/logs/{id}/`."""

    permission_classes = [AllowAny]

    @extend_schema(operation_id="table_log", responses=LogOutput)
    def get(self, request: Request, table_id: int) -> Response:
        return log_detail_response(selectors.table_log_id(table_id=table_id))


class TableLogDocumentApi(ApiView):
    """The speed-log/1 log a finished table stored, byte for byte (as `/api/logs/{id}/document/`)."""

    permission_classes = [AllowAny]

    @extend_schema(operation_id="table_log_document", responses={(200, "application/json"): OpenApiTypes.OBJECT})
    def get(self, request: Request, table_id: int) -> HttpResponse:
        return log_document_response(selectors.table_log_id(table_id=table_id))


class TableStepsApi(ApiView):
    """A chunk of a finished table's replay, its log's kept steps (as `/api/logs/{id}/steps/compact/`)."""

    permission_classes = [AllowAny]

    @extend_schema(operation_id="table_steps_compact", parameters=CHUNK_PARAMETERS, responses=CompactStepsOutput)
    def get(self, request: Request, table_id: int) -> Response:
        return log_compact_chunk_response(request, selectors.table_log_id(table_id=table_id))
