"""The API token page: see whether you have one and until when, make a new one, or end it.

A new key is shown once, in the answer to the request that made it, and never
stored anywhere the browser keeps (no message, no cookie); after that the page
shows only when it expires.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from core.api_tokens import token_expires_at, token_is_valid, token_revoke, token_rotate
from web.selectors.tokens import api_token_of


@login_required
@require_http_methods(["GET", "POST"])
def api_token(request: HttpRequest) -> HttpResponse:
    new_key = None
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "rotate":
            new_key = token_rotate(user_id=request.user.pk).key
        elif action == "revoke":
            if token_revoke(user_id=request.user.pk):
                messages.success(request, "Your API token was ended: nothing can use it any more.")
            return redirect("web:api_token")
    token = api_token_of(user_id=request.user.pk)
    context = {
        "token": token,
        "new_key": new_key,
        "expires": token_expires_at(token) if token else None,
        "valid": token is not None and token_is_valid(token),
        "now": timezone.now(),
    }
    return render(request, "registration/api_token.html", context)
