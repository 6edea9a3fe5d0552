"""Thin API views: validate input, call one service or selector, serialize the output."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response

from core.api_strict import ApiView
from core.errors import Invalid, NotFound
from core.numbers import query_filter_whole
from core.pagination import PAGE_PARAMETERS, Pagination, paginated
from matches import selectors, services
from matches.models import Game, Match

from .permissions import IsOrganiserOrReadOnly
from .serializers import (
    GameDetailOutput,
    GameDisputeInput,
    GameReportInput,
    GameResultInput,
    MatchCreateInput,
    MatchOutput,
    PlayerCreateInput,
    PlayerOutput,
    ResultChangeOutput,
)

#: The largest id a row has (PostgreSQL's integer keys, which Django's AutoField makes).
ID_MAX = 2**31 - 1


def get_game_or_404(game_id: int) -> Game:
    game = selectors.game_get(game_id=game_id)
    if game is None:
        raise NotFound(f"There is no game {game_id}.")
    return game


class PlayerListCreateApi(ApiView):
    permission_classes = [IsOrganiserOrReadOnly]

    @extend_schema(
        operation_id="players_list",
        responses=paginated(PlayerOutput),
        parameters=[OpenApiParameter("search", str, description="Part of a handle or display name"), *PAGE_PARAMETERS],
    )
    def get(self, request: Request) -> Response:
        paginator = Pagination()
        players = selectors.player_list(search=request.query_params.get("search"))
        page = paginator.paginate_queryset(players, request, view=self)
        return paginator.get_paginated_response(PlayerOutput(page, many=True).data)

    @extend_schema(request=PlayerCreateInput, responses={201: PlayerOutput})
    def post(self, request: Request) -> Response:
        data = PlayerCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        player = services.player_create(**data.validated_data)
        return Response(PlayerOutput(player).data, status=status.HTTP_201_CREATED)


class PlayerDetailApi(ApiView):
    @extend_schema(responses=PlayerOutput)
    def get(self, request: Request, handle: str) -> Response:
        player = selectors.player_get(handle=handle)
        if player is None:
            raise NotFound(f"There is no player with handle {handle!r}.")
        return Response(PlayerOutput(player).data)


class MatchListCreateApi(ApiView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        operation_id="matches_list",
        responses=paginated(MatchOutput),
        parameters=[
            # Empty is no filter (as a filter form sends it), so the schema lists it too.
            OpenApiParameter("status", str, enum=[*Match.Status.values, ""], description="Empty: every status."),
            OpenApiParameter("player", str, description="A player's handle"),
            OpenApiParameter(
                "tournament",
                {"type": "integer", "minimum": 1, "maximum": ID_MAX},
                description="A tournament's id: its matches (those of its pairings).",
            ),
            *PAGE_PARAMETERS,
        ],
    )
    def get(self, request: Request) -> Response:
        paginator = Pagination()
        status_filter = request.query_params.get("status")
        if status_filter and status_filter not in Match.Status.values:
            raise Invalid(
                f"status must be one of {', '.join(Match.Status.values)}.",
                extra={"field": "status", "choices": Match.Status.values},
            )
        tournament_id = query_filter_whole(request.query_params, "tournament", low=1, high=ID_MAX)
        matches = selectors.match_list(
            status=status_filter, player=request.query_params.get("player"), tournament_id=tournament_id
        )
        page = paginator.paginate_queryset(matches, request, view=self)
        return paginator.get_paginated_response(MatchOutput(page, many=True).data)

    @extend_schema(
        request=MatchCreateInput,
        responses={
            201: MatchOutput,
            403: OpenApiResponse(
                description="Not an organiser: players challenge each other (`/api/challenges/`) instead."
            ),
        },
    )
    def post(self, request: Request) -> Response:
        data = MatchCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        match = services.match_create(**data.validated_data, created_by=request.user)
        return Response(MatchOutput(selectors.match_get(match_id=match.pk)).data, status=status.HTTP_201_CREATED)


def get_match_or_404(match_id: int) -> Match:
    match = selectors.match_get(match_id=match_id)
    if match is None:
        raise NotFound(f"There is no match {match_id}.")
    return match


class MatchDetailApi(ApiView):
    @extend_schema(responses=MatchOutput)
    def get(self, request: Request, match_id: int) -> Response:
        return Response(MatchOutput(get_match_or_404(match_id)).data)


class MatchHistoryApi(ApiView):
    """Every change of the match's results (submission, confirmation, dispute, settlement, correction,
    annulment), oldest first."""

    @extend_schema(responses=paginated(ResultChangeOutput), parameters=PAGE_PARAMETERS)
    def get(self, request: Request, match_id: int) -> Response:
        paginator = Pagination()
        changes = selectors.match_history(match=get_match_or_404(match_id))
        page = paginator.paginate_queryset(changes, request, view=self)
        return paginator.get_paginated_response(ResultChangeOutput(page, many=True).data)


class GameDetailApi(ApiView):
    @extend_schema(responses=GameDetailOutput)
    def get(self, request: Request, game_id: int) -> Response:
        return Response(GameDetailOutput(get_game_or_404(game_id)).data)


class GameReportApi(ApiView):
    """A player of the match reports the result (the winner; at a table, every place); all players' matching
    reports decide the game."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=GameReportInput, responses=GameDetailOutput)
    def post(self, request: Request, game_id: int) -> Response:
        data = GameReportInput(data=request.data)
        data.is_valid(raise_exception=True)
        game = services.game_report_result(game_id=game_id, user=request.user, **data.validated_data)
        return Response(GameDetailOutput(selectors.game_get(game_id=game.pk)).data)


class GameResultApi(ApiView):
    """An organiser sets or settles (after a dispute) a game's result."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=GameResultInput, responses=GameDetailOutput)
    def post(self, request: Request, game_id: int) -> Response:
        data = GameResultInput(data=request.data)
        data.is_valid(raise_exception=True)
        game = services.game_set_result(game_id=game_id, user=request.user, **data.validated_data)
        return Response(GameDetailOutput(selectors.game_get(game_id=game.pk)).data)


class GameConfirmApi(ApiView):
    """A player other than the one who claimed a result (or an organiser) confirms it; when every other player
    has (or an organiser does), it decides the game."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=GameDetailOutput)
    def post(self, request: Request, game_id: int) -> Response:
        game = services.game_confirm(game_id=game_id, user=request.user)
        return Response(GameDetailOutput(selectors.game_get(game_id=game.pk)).data)


class GameDisputeApi(ApiView):
    """Any player of the match disputes a result awaiting confirmation, with a reason; an organiser settles it."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=GameDisputeInput, responses=GameDetailOutput)
    def post(self, request: Request, game_id: int) -> Response:
        data = GameDisputeInput(data=request.data)
        data.is_valid(raise_exception=True)
        game = services.game_dispute_claim(game_id=game_id, user=request.user, reason=data.validated_data["reason"])
        return Response(GameDetailOutput(selectors.game_get(game_id=game.pk)).data)
