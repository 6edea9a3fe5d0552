"""The challenges' API: a player's challenges, made and received; challenging; and the three answers."""

from __future__ import annotations

from collections.abc import Callable

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from core.api_strict import ApiView
from core.errors import NotAllowed, NotFound
from core.pagination import PAGE_PARAMETERS, Pagination, paginated
from matches import selectors, services
from matches.models import Challenge

from .serializers import ChallengeCreateInput, ChallengeOutput

_NOT_SIGNED_IN = OpenApiResponse(description="Not logged in.")
_NOT_A_PLAYER = OpenApiResponse(description="Not a player (an organiser makes matches with POST /api/matches/).")
_NO_CHALLENGE = OpenApiResponse(description="No such challenge, or not one of yours.")


def _shown(challenge_id: int, request: Request) -> Response:
    challenge = selectors.challenge_get(challenge_id=challenge_id, user=request.user)
    if challenge is None:
        raise NotFound(f"There is no challenge {challenge_id} of yours.")
    return Response(ChallengeOutput(challenge).data)


class ChallengeListCreateApi(ApiView):
    """The signed-in player's challenges, made and received, newest first; or challenge a player."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="challenges_list",
        responses={200: paginated(ChallengeOutput), 401: _NOT_SIGNED_IN, 403: _NOT_A_PLAYER},
        parameters=PAGE_PARAMETERS,
    )
    def get(self, request: Request) -> Response:
        me = selectors.user_player(user=request.user)
        if me is None:
            raise NotAllowed("Only players have challenges; sign in as a player.")
        paginator = Pagination()
        page = paginator.paginate_queryset(selectors.challenges_of(player=me), request, view=self)
        return paginator.get_paginated_response(ChallengeOutput(page, many=True).data)

    @extend_schema(
        request=ChallengeCreateInput,
        responses={
            201: ChallengeOutput,
            400: OpenApiResponse(
                description="Yourself, no player with that handle, a player with no account, or settings a match "
                "refuses (a ruleset that does not seat two, an even best_of, a timed Spit, ...)."
            ),
            401: _NOT_SIGNED_IN,
            403: _NOT_A_PLAYER,
            409: OpenApiResponse(description="An open challenge between the two of you already waits (either way)."),
        },
    )
    def post(self, request: Request) -> Response:
        data = ChallengeCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        challenge = services.challenge_create(user=request.user, **data.validated_data)
        return Response(ChallengeOutput(challenge).data, status=status.HTTP_201_CREATED)


class ChallengeDetailApi(ApiView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: ChallengeOutput, 401: _NOT_SIGNED_IN, 404: _NO_CHALLENGE})
    def get(self, request: Request, challenge_id: int) -> Response:
        return _shown(challenge_id, request)


def _answer_view(answer: Callable[..., Challenge], *, name: str, doc: str, allowed: str, made: str) -> type[ApiView]:
    """An answer's view: POST with no body, the service, then the challenge as it is now."""

    class AnswerApi(ApiView):
        __doc__ = doc
        permission_classes = [IsAuthenticated]

        @extend_schema(
            request=None,
            responses={
                200: OpenApiResponse(ChallengeOutput, description=made),
                401: _NOT_SIGNED_IN,
                403: OpenApiResponse(description=allowed),
                404: OpenApiResponse(description="No such challenge."),
                409: OpenApiResponse(description="Already accepted, declined, withdrawn or expired."),
            },
        )
        def post(self, request: Request, challenge_id: int) -> Response:
            answer(challenge_id=challenge_id, user=request.user)
            return _shown(challenge_id, request)

    AnswerApi.__name__ = AnswerApi.__qualname__ = name
    return AnswerApi


ChallengeAcceptApi = _answer_view(
    services.challenge_accept,
    name="ChallengeAcceptApi",
    doc="The challenged player accepts: the match is made (`match` in the answer) and its first game opens.",
    allowed="Not the challenged player.",
    made="Accepted; `match` is the match it made.",
)
ChallengeDeclineApi = _answer_view(
    services.challenge_decline,
    name="ChallengeDeclineApi",
    doc="The challenged player declines: no match is made.",
    allowed="Not the challenged player.",
    made="Declined.",
)
ChallengeWithdrawApi = _answer_view(
    services.challenge_withdraw,
    name="ChallengeWithdrawApi",
    doc="The challenger withdraws a challenge not yet answered.",
    allowed="Not the challenger.",
    made="Withdrawn.",
)
