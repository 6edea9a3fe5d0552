"""Speed Solitaire runs through the API: submit one, list verified runs, the leaderboard (thin views)."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse

from core.api_strict import ApiView
from core.errors import NotFound
from core.pagination import PAGE_PARAMETERS, Pagination, paginated
from matches.selectors import player_get
from replays import selectors, services
from replays.compact import chunk
from replays.models import SolitaireRun

from .serializers import CompactStepsOutput
from .views import CHUNK_PARAMETERS, chunk_range, read_log_body


class SolitaireSubmissionOutput(serializers.ModelSerializer):
    url = serializers.SerializerMethodField()

    class Meta:
        model = SolitaireRun
        fields = ["id", "status", "url"]

    @extend_schema_field(OpenApiTypes.URI)
    def get_url(self, run: SolitaireRun) -> str:
        return reverse("api:solitaire-detail", kwargs={"run_id": run.pk}, request=self.context.get("request"))


class SolitaireRunOutput(serializers.ModelSerializer):
    player = serializers.SlugRelatedField(slug_field="handle", read_only=True)
    code = serializers.CharField(allow_null=True, read_only=True, source="code_or_none")
    cleared = serializers.BooleanField(allow_null=True, read_only=True, help_text="Cleared the deck (called Speed).")
    finished_ms = serializers.IntegerField(
        allow_null=True, read_only=True, help_text="A cleared run: the time of the Speed call, in ms."
    )
    cards_left = serializers.IntegerField(allow_null=True, read_only=True, help_text="A stuck run: cards still held.")

    class Meta:
        model = SolitaireRun
        fields = [
            "id",
            "player",
            "status",
            "code",
            "event",
            "message",
            "cleared",
            "finished_ms",
            "cards_left",
            "size",
            "sha256",
            "submitted_at",
            "verified_at",
        ]


class SolitaireListSubmitApi(ApiView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        operation_id="solitaire_list",
        responses={
            200: paginated(SolitaireRunOutput),
            404: OpenApiResponse(description="No player has the handle given in `player`."),
        },
        parameters=[*PAGE_PARAMETERS, OpenApiParameter("player", str, description="A player's handle")],
    )
    def get(self, request: Request) -> Response:
        handle = request.query_params.get("player")
        player = None
        if handle:
            player = player_get(handle=handle)
            if player is None:
                raise NotFound(f"There is no player with handle {handle!r}.")
        paginator = Pagination()
        page = paginator.paginate_queryset(selectors.solitaire_runs(player=player), request, view=self)
        return paginator.get_paginated_response(SolitaireRunOutput(page, many=True).data)

    @extend_schema(
        request={"application/json": OpenApiTypes.OBJECT},
        description="Submit your own Speed Solitaire log (the `solitaire` preset) as the JSON body; a worker "
        "verifies it. The same document again is the same submission (200).",
        responses={
            202: SolitaireSubmissionOutput,
            200: OpenApiResponse(SolitaireSubmissionOutput, description="The same document was submitted before."),
            400: OpenApiResponse(description="Not JSON, not an object, not your one-player log."),
            401: OpenApiResponse(description="Not logged in."),
            403: OpenApiResponse(description="Not a player."),
            413: OpenApiResponse(description="Larger than the size or event limit."),
            429: OpenApiResponse(description="Over the daily byte quota."),
        },
    )
    def post(self, request: Request) -> Response:
        run, created = services.solitaire_submit(data=read_log_body(request), user=request.user)
        return Response(
            SolitaireSubmissionOutput(run, context={"request": request}).data,
            status=status.HTTP_202_ACCEPTED if created else status.HTTP_200_OK,
        )


class SolitaireDetailApi(ApiView):
    @extend_schema(responses=SolitaireRunOutput)
    def get(self, request: Request, run_id: int) -> Response:
        run = selectors.solitaire_run_get(run_id=run_id)
        if run is None:
            raise NotFound(f"There is no solitaire run {run_id}.")
        return Response(SolitaireRunOutput(run).data)


class SolitaireLeaderboardApi(ApiView):
    """Each player's best verified run: cleared runs by the time of the Speed call, then stuck runs by cards left."""

    @extend_schema(
        operation_id="solitaire_leaderboard",
        responses=paginated(SolitaireRunOutput, name="PaginatedSolitaireLeaderboard"),
        parameters=PAGE_PARAMETERS,
    )
    def get(self, request: Request) -> Response:
        paginator = Pagination()
        page = paginator.paginate_queryset(selectors.solitaire_leaderboard(), request, view=self)
        return paginator.get_paginated_response(SolitaireRunOutput(page, many=True).data)


class SolitaireCompactStepsApi(ApiView):
    @extend_schema(
        parameters=CHUNK_PARAMETERS,
        responses=CompactStepsOutput,
        description="A chunk of the run's replay steps in the compact form `speed-steps/1` (as for a match log).",
    )
    def get(self, request: Request, run_id: int) -> Response:
        run = selectors.solitaire_run_get(run_id=run_id)
        if run is None:
            raise NotFound(f"There is no solitaire run {run_id}.")
        start, count = chunk_range(request)
        compact = services.document_compact_steps(bytes(run.data), name=f"solitaire run {run.pk}")
        verdict = {"log": run.pk, "status": run.status, "code": run.code or None, "event": run.event}
        return Response(
            {**verdict, "engine_version": run.engine_version or None, **chunk(compact, start=start, count=count)}
        )
