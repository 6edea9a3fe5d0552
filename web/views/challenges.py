"""The answers to a challenge on the site: accept (then to the match made), decline, withdraw."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from core.errors import ApplicationError
from matches.models import Challenge
from matches.services import challenge_accept, challenge_decline, challenge_withdraw


def _answer(
    request: HttpRequest, challenge_id: int, service: Callable[..., Challenge], said: Callable[[Challenge], str]
) -> Challenge | None:
    """The service's answer, said in a message; a refusal is said instead (and changed nothing)."""
    try:
        challenge = service(challenge_id=challenge_id, user=request.user)
    except ApplicationError as exc:
        messages.error(request, exc.message)
        return None
    messages.success(request, said(challenge))
    return challenge


@login_required
@require_POST
def challenge_accept_view(request: HttpRequest, challenge_id: int) -> HttpResponse:
    challenge = _answer(
        request,
        challenge_id,
        challenge_accept,
        lambda c: f"You accepted {c.challenger.handle}'s challenge: game 1 is open.",
    )
    if challenge is None or challenge.match_id is None:
        return redirect("web:my_matches")
    return redirect("web:match_detail", match_id=challenge.match_id)


@login_required
@require_POST
def challenge_decline_view(request: HttpRequest, challenge_id: int) -> HttpResponse:
    _answer(request, challenge_id, challenge_decline, lambda c: f"You declined {c.challenger.handle}'s challenge.")
    return redirect("web:my_matches")


@login_required
@require_POST
def challenge_withdraw_view(request: HttpRequest, challenge_id: int) -> HttpResponse:
    _answer(
        request, challenge_id, challenge_withdraw, lambda c: f"Your challenge to {c.challenged.handle} is withdrawn."
    )
    return redirect("web:my_matches")
