"""The tables over HTTP (speed-table/1 section 1): thin views over the play services and selectors."""

from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from core.api_strict import ApiView
from core.pagination import PAGE_PARAMETERS, Pagination, paginated
from core.throttles import PracticeTablesThrottle
from replays.api.serializers import CompactStepsOutput, LogOutput
from replays.api.views import (
    CHUNK_PARAMETERS,
    log_compact_chunk_response,
    log_detail_response,
    log_document_response,
)

from .. import selectors, services
from ..acting import tables_nudge_sync
from .serializers import (
    AgainInput,
    AgainOutput,
    OpponentOutput,
    PracticeInput,
    SeekInput,
    SeekOutput,
    TableDetailOutput,
    TableOutput,
)


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
    """A table (anyone), with how many watch it."""

    permission_classes = [AllowAny]

    @extend_schema(operation_id="table_detail", responses=TableDetailOutput)
    def get(self, request: Request, table_id: int) -> Response:
        table = selectors.table_get(table_id=table_id)
        return Response(selectors.table_json(table) | {"watching": selectors.table_watching(table_id=table.pk)})


class TableOpponentsApi(ApiView):
    """The other seats of a table, for one of its players: seated, on the site, told that you wait."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="table_opponents",
        responses={
            200: OpponentOutput(many=True),
            403: OpenApiResponse(description="Not a player of this table."),
        },
    )
    def get(self, request: Request, table_id: int) -> Response:
        opponents = selectors.table_opponents(table_id=table_id, user_id=request.user.pk)
        # The table page polls this while it waits: its player is on the site.
        services.site_seen_touch(user=request.user)
        return Response(OpponentOutput(opponents, many=True).data)


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


class SeekListApi(ApiView):
    """The lobby's open games (anyone), and posting one (a signed-in player)."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="seeks_list",
        responses=paginated(SeekOutput),
        parameters=PAGE_PARAMETERS,
        description="Open games whose players are still there, oldest first. A player's own poll of this list "
        "keeps their open game listed, as their lobby page does.",
    )
    def get(self, request: Request) -> Response:
        services.seek_touch(user=request.user)  # a client's poll is its player's presence, as the page's is
        paginator = Pagination()
        page = paginator.paginate_queryset(selectors.seeks_open(), request, view=self)
        return paginator.get_paginated_response([selectors.seek_json(seek) for seek in page or []])

    @extend_schema(
        operation_id="seek_create",
        request=SeekInput,
        responses={
            201: SeekOutput,
            400: OpenApiResponse(description="Not a preset a table plays with two seats."),
            403: OpenApiResponse(description="Not signed in as a player."),
            409: OpenApiResponse(description="You have a game open in the lobby, or a seat at a live table."),
        },
        description="Post an open game: listed while you poll `GET /api/seeks/` or keep the lobby page (`/play/`) "
        "open, expired once you stop.",
    )
    def post(self, request: Request) -> Response:
        data = SeekInput(data=request.data)
        data.is_valid(raise_exception=True)
        seek = services.seek_create(user=request.user, **data.validated_data)
        return Response(selectors.seek_json(seek), status=status.HTTP_201_CREATED)


class SeekAcceptApi(ApiView):
    """Accept an open game: a one-game match and its table; its `page` is where both players go."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="seek_accept",
        request=None,
        responses={
            200: SeekOutput,
            400: OpenApiResponse(description="Your own game."),
            403: OpenApiResponse(description="Not signed in as a player."),
            409: OpenApiResponse(
                description="The game has been taken (another accepted first) or is gone (its player left), or "
                "either player has a seat at a live table."
            ),
        },
    )
    def post(self, request: Request, seek_id: int) -> Response:
        return Response(selectors.seek_json(services.seek_accept(seek_id=seek_id, user=request.user)))


class SeekCancelApi(ApiView):
    """Withdraw your open game (one cancelled or expired already is answered as it is)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="seek_cancel",
        request=None,
        responses={
            200: SeekOutput,
            403: OpenApiResponse(description="Not your game."),
            409: OpenApiResponse(description="It has been taken: go to its table."),
        },
    )
    def post(self, request: Request, seek_id: int) -> Response:
        return Response(selectors.seek_json(services.seek_cancel(seek_id=seek_id, user=request.user)))


class TableAgainApi(ApiView):
    """Answer a match table's offer to play again, once its game is over: the last player to accept opens the
    next game's table (a casual rematch when the match is over), `page`, where every player's page goes."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="table_again",
        request=AgainInput,
        responses={
            200: AgainOutput,
            400: OpenApiResponse(description='The body is not exactly {"answer": "accept" | "decline"}.'),
            403: OpenApiResponse(description="Not one of the table's players."),
            409: OpenApiResponse(
                description="No offer (a practice table, or a game not over), or it is gone: declined, expired, "
                "or (declining) started already; or a player has a seat at another live table."
            ),
        },
    )
    def post(self, request: Request, table_id: int) -> Response:
        data = AgainInput(data=request.data)
        data.is_valid(raise_exception=True)
        answer = services.again_accept if data.validated_data["answer"] == "accept" else services.again_decline
        answered = answer(table_id=table_id, user=request.user)
        if answered.v is not None:
            tables_nudge_sync([(table_id, answered.v)])
        shown = dict(answered.table.again or {})
        table = shown.get("table")
        return Response({**shown, "page": None if table is None else f"/tables/{table}/"})
