"""Thin API views: validate input, call one service or selector, serialize the output.

Everyone reads; organisers write (the services check again).
"""

from __future__ import annotations

from types import SimpleNamespace

from django.db.models import Count
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.request import Request
from rest_framework.response import Response

from core.api_strict import ApiView
from core.errors import Invalid, NotFound
from core.numbers import query_filter_whole
from core.pagination import PAGE_PARAMETERS, Pagination, paginated
from matches.api.permissions import IsOrganiserOrReadOnly
from matches.selectors import player_get
from tournaments import selectors, services
from tournaments.formats import FORMATS
from tournaments.models import Tournament, TournamentMatch
from tournaments.services.entry import entry_rules_set

from .serializers import (
    CorrectionInput,
    CorrectionRecordOutput,
    EntrantAddInput,
    EntrantOutput,
    EntryRulesInput,
    PairingOutput,
    RatingChangeOutput,
    RatingOutput,
    StandingsOutput,
    TournamentCreateInput,
    TournamentDetailOutput,
    TournamentOutput,
    TournamentSettingsInput,
    correction_preview_schema,
)

#: The largest round number stored (a PositiveIntegerField column).
ROUND_MAX = 2**31 - 1


def _tournament_or_404(tournament_id: int) -> Tournament:
    tournament = selectors.tournament_get(tournament_id=tournament_id)
    if tournament is None:
        raise NotFound(f"There is no tournament {tournament_id}.")
    return tournament


def _detail(tournament_id: int) -> dict[str, object]:
    tournament = _tournament_or_404(tournament_id)
    tournament.entrant_rows = selectors.entrant_list(tournament=tournament)  # type: ignore[attr-defined]
    tournament.entrant_total = len(tournament.entrant_rows)  # type: ignore[attr-defined]
    return TournamentDetailOutput(tournament).data  # type: ignore[no-any-return]


class FormatIsAFilter(DefaultContentNegotiation):
    """`?format=` (the old name of `?tournament_format=`) still filters tournaments by their format here;
    DRF would take it as the renderer's name (a 404)."""

    settings = SimpleNamespace(URL_FORMAT_OVERRIDE=None)


def _choice(request: Request, name: str, choices: list[str]) -> str | None:
    """A query parameter that must be one of `choices` (absent or empty: no filter)."""
    value = request.query_params.get(name)
    if value and value not in choices:
        raise Invalid(f"{name} must be one of {', '.join(choices)}.", extra={"field": name, "choices": choices})
    return value or None


class TournamentListCreateApi(ApiView):
    permission_classes = [IsOrganiserOrReadOnly]
    content_negotiation_class = FormatIsAFilter

    @extend_schema(
        operation_id="tournaments_list",
        responses=paginated(TournamentOutput),
        parameters=[
            # Empty is no filter (`_choice`), so the schema lists it too.
            OpenApiParameter("status", str, enum=[*Tournament.Status.values, ""], description="Empty: every status."),
            # Not `format`: DRF and OpenAPI tools read that name as the response's format.
            OpenApiParameter("tournament_format", str, enum=[*FORMATS, ""], description="Empty: every format."),
            *PAGE_PARAMETERS,
        ],
    )
    def get(self, request: Request) -> Response:
        paginator = Pagination()
        status_filter = _choice(request, "status", Tournament.Status.values)
        format_filter = _choice(request, "tournament_format", list(FORMATS)) or _choice(
            request, "format", list(FORMATS)
        )
        tournaments = selectors.tournament_list(status=status_filter, format=format_filter).annotate(
            entrant_total=Count("entrants")
        )
        page = paginator.paginate_queryset(tournaments, request, view=self)
        return paginator.get_paginated_response(TournamentOutput(page, many=True).data)

    @extend_schema(request=TournamentCreateInput, responses={201: TournamentDetailOutput})
    def post(self, request: Request) -> Response:
        data = TournamentCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = services.tournament_create(**data.validated_data, user=request.user)
        return Response(_detail(tournament.pk), status=status.HTTP_201_CREATED)


class TournamentDetailApi(ApiView):
    """A tournament; before its start an organiser replaces its settings (PUT), and one without results is deleted."""

    permission_classes = [IsOrganiserOrReadOnly]

    @extend_schema(responses=TournamentDetailOutput)
    def get(self, request: Request, tournament_id: int) -> Response:
        return Response(_detail(tournament_id))

    @extend_schema(request=TournamentSettingsInput, responses={200: TournamentDetailOutput})
    def put(self, request: Request, tournament_id: int) -> Response:
        data = TournamentSettingsInput(data=request.data)
        data.is_valid(raise_exception=True)
        services.tournament_update(
            tournament_id=tournament_id, user=request.user, settings=services.TournamentSettings(**data.validated_data)
        )
        return Response(_detail(tournament_id))

    @extend_schema(responses={204: None})
    def delete(self, request: Request, tournament_id: int) -> Response:
        services.tournament_delete(tournament_id=tournament_id, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class EntrantListAddApi(ApiView):
    permission_classes = [IsOrganiserOrReadOnly]

    @extend_schema(responses=EntrantOutput(many=True))
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = _tournament_or_404(tournament_id)
        return Response(EntrantOutput(selectors.entrant_list(tournament=tournament), many=True).data)

    @extend_schema(request=EntrantAddInput, responses={201: EntrantOutput})
    def post(self, request: Request, tournament_id: int) -> Response:
        data = EntrantAddInput(data=request.data)
        data.is_valid(raise_exception=True)
        entrant = services.entrant_add(
            tournament_id=tournament_id,
            handle=data.validated_data["player"],
            seed=data.validated_data["seed"],
            user=request.user,
        )
        return Response(EntrantOutput(entrant).data, status=status.HTTP_201_CREATED)


class EntrantRemoveApi(ApiView):
    permission_classes = [IsOrganiserOrReadOnly]

    @extend_schema(responses={204: None})
    def delete(self, request: Request, tournament_id: int, handle: str) -> Response:
        services.entrant_remove(tournament_id=tournament_id, handle=handle, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class EntryRulesApi(ApiView):
    """The cap on entrants and the registration deadline, before the start; a higher cap moves the waiting up."""

    permission_classes = [IsOrganiserOrReadOnly]

    @extend_schema(request=EntryRulesInput, responses=TournamentDetailOutput)
    def put(self, request: Request, tournament_id: int) -> Response:
        data = EntryRulesInput(data=request.data)
        data.is_valid(raise_exception=True)
        entry_rules_set(tournament_id=tournament_id, user=request.user, **data.validated_data)
        return Response(_detail(tournament_id))


class TournamentStartApi(ApiView):
    permission_classes = [IsOrganiserOrReadOnly]

    @extend_schema(request=None, responses=TournamentDetailOutput)
    def post(self, request: Request, tournament_id: int) -> Response:
        services.tournament_start(tournament_id=tournament_id, user=request.user)
        return Response(_detail(tournament_id))


class TournamentStartUndoApi(ApiView):
    """Undo the start while nothing is played: the pairings and their matches go, the tournament is not started."""

    permission_classes = [IsOrganiserOrReadOnly]

    @extend_schema(request=None, responses=TournamentDetailOutput)
    def post(self, request: Request, tournament_id: int) -> Response:
        services.tournament_start_undo(tournament_id=tournament_id, user=request.user)
        return Response(_detail(tournament_id))


class PairingListApi(ApiView):
    @extend_schema(
        operation_id="tournaments_matches_list",
        responses=paginated(PairingOutput),
        parameters=[
            OpenApiParameter("round", {"type": "integer", "minimum": 0, "maximum": ROUND_MAX}),
            OpenApiParameter(
                "bracket", str, enum=[*TournamentMatch.Bracket.values, ""], description="Empty: every bracket."
            ),
            *PAGE_PARAMETERS,
        ],
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = _tournament_or_404(tournament_id)
        round_number = query_filter_whole(request.query_params, "round", low=0, high=ROUND_MAX)
        pairings = selectors.pairing_list(
            tournament=tournament,
            round_number=round_number,
            bracket=_choice(request, "bracket", TournamentMatch.Bracket.values),
        )
        paginator = Pagination()
        page = paginator.paginate_queryset(pairings, request, view=self)
        return paginator.get_paginated_response(PairingOutput(page, many=True).data)


class PairingDetailApi(ApiView):
    @extend_schema(responses=PairingOutput)
    def get(self, request: Request, tournament_id: int, key: str) -> Response:
        pairing = selectors.pairing_get(tournament=_tournament_or_404(tournament_id), key=key)
        if pairing is None:
            raise NotFound(f"Tournament {tournament_id} has no match {key!r}.")
        return Response(PairingOutput(pairing).data)


class PairingCorrectApi(ApiView):
    """Correct a decided result; `dry_run` returns what would change without saving."""

    permission_classes = [IsOrganiserOrReadOnly]

    @extend_schema(request=CorrectionInput, responses={200: correction_preview_schema()})
    def post(self, request: Request, tournament_id: int, key: str) -> Response:
        data = CorrectionInput(data=request.data)
        data.is_valid(raise_exception=True)
        preview = services.pairing_correct(
            tournament_id=tournament_id, key=key, user=request.user, **data.validated_data
        )
        return Response(preview.to_dict())


class StandingsApi(ApiView):
    """The standings a page of rows at a time (`?limit=` 50 by default, 500 at most; `?offset=`), sorted by `?sort=`."""

    @extend_schema(
        responses=StandingsOutput,
        parameters=[
            *PAGE_PARAMETERS,
            OpenApiParameter(
                "sort",
                str,
                enum=list(selectors.STANDINGS_SORTS),
                description="rank (the default: score, then tie-breaks), name, rating or seed.",
            ),
        ],
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = _tournament_or_404(tournament_id)
        paginator = Pagination()
        limit = paginator.get_limit(request) or Pagination.default_limit
        offset = paginator.get_offset(request)
        sort = request.query_params.get("sort", "rank")
        if sort not in selectors.STANDINGS_SORTS:
            raise Invalid(f"sort must be one of {', '.join(selectors.STANDINGS_SORTS)}.", extra={"field": "sort"})
        part = selectors.tournament_standings_slice(tournament=tournament, offset=offset, limit=limit, sort=sort)
        # The paginator's links, from the whole table's count.
        paginator.limit, paginator.offset, paginator.count, paginator.request = limit, offset, part.total, request
        data = dict(
            StandingsOutput(
                SimpleNamespace(
                    kind=part.standings.kind,
                    tie_breaks=part.standings.tie_breaks,
                    finished=part.standings.finished,
                    count=part.total,
                    next=paginator.get_next_link(),
                    previous=paginator.get_previous_link(),
                    rows=part.standings.rows,
                )
            ).data
        )
        return Response(data)


class CorrectionHistoryApi(ApiView):
    @extend_schema(responses=paginated(CorrectionRecordOutput), parameters=PAGE_PARAMETERS)
    def get(self, request: Request, tournament_id: int) -> Response:
        corrections = selectors.correction_list(tournament=_tournament_or_404(tournament_id))
        paginator = Pagination()
        page = paginator.paginate_queryset(corrections, request, view=self)
        return paginator.get_paginated_response(CorrectionRecordOutput(page, many=True).data)


class RatingListApi(ApiView):
    @extend_schema(
        operation_id="tournaments_ratings_list", responses=paginated(RatingOutput), parameters=PAGE_PARAMETERS
    )
    def get(self, request: Request) -> Response:
        paginator = Pagination()
        page = paginator.paginate_queryset(selectors.rating_list(), request, view=self)
        return paginator.get_paginated_response(RatingOutput(page, many=True).data)


class RatingDetailApi(ApiView):
    @extend_schema(responses={200: {"type": "object"}})
    def get(self, request: Request, handle: str) -> Response:
        player = player_get(handle=handle)
        if player is None:
            raise NotFound(f"There is no player with handle {handle!r}.")
        history = selectors.rating_history(player=player)[:100]
        return Response(
            {
                "player": player.handle,
                **selectors.rating_summary(selectors.rating_get(player=player)),
                "history": RatingChangeOutput(history, many=True).data,
            }
        )
