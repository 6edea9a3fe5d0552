"""The tables over HTTP (speed-table/1 section 1): thin views over the play services and selectors."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from .. import selectors, services
from .serializers import PracticeInput, TableOutput


class GameTableApi(APIView):
    """Open the table of an open game (a player of its match, or an organiser), or get the one already open."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="game_table_open", request=None, responses={200: TableOutput, 201: TableOutput})
    def post(self, request: Request, game_id: int) -> Response:
        table, created = services.table_open_for_game(game_id=game_id, user=request.user)
        return Response(selectors.table_json(table), status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class PracticeTableApi(APIView):
    """A practice table: you at seat 0, a bot of the given level at each other seat. It counts for nothing."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="practice_table_create", request=PracticeInput, responses={201: TableOutput})
    def post(self, request: Request) -> Response:
        data = PracticeInput(data=request.data)
        data.is_valid(raise_exception=True)
        table = services.table_practice_create(user=request.user, **data.validated_data)
        return Response(selectors.table_json(table), status=status.HTTP_201_CREATED)


class TableDetailApi(APIView):
    """A table (anyone)."""

    permission_classes = [AllowAny]

    @extend_schema(operation_id="table_detail", responses=TableOutput)
    def get(self, request: Request, table_id: int) -> Response:
        return Response(selectors.table_json(selectors.table_get(table_id=table_id)))
