"""Accounts: self sign-up, and claiming a player created by an organiser (an invite link to choose a password)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.forms import SetPasswordForm
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.tokens import default_token_generator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode
from django.views.decorators.http import require_http_methods

from matches.services import player_create
from speedsite.errors import ApplicationError
from speedsite.numbers import column_range, whole_number
from web.forms.accounts import SignupForm
from web.selectors.players import user_get

#: The backend a new or claimed account is logged in with (the project uses Django's model backend).
_BACKEND = "django.contrib.auth.backends.ModelBackend"
#: The largest user id an invite link can name (what the id column holds).
USER_ID_MAX = column_range(get_user_model(), "id")[1]


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("web:my_matches")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            player = player_create(handle=data["handle"], display_name=data["display_name"], password=data["password1"])
        except ApplicationError as exc:
            form.add_error("handle" if (exc.extra or {}).get("field") == "handle" else None, exc.message)
        else:
            assert player.user is not None
            login(request, player.user, backend=_BACKEND)
            messages.success(request, f"Welcome, {player.display_name}: you are signed up as {player.handle}.")
            return redirect("web:my_matches")
    return render(request, "registration/signup.html", {"form": form})


def claim_url(user: AbstractBaseUser) -> str:
    """The invite link's path: valid until the account has a password (the token hashes the password)."""
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    return reverse("web:claim", args=[uid, default_token_generator.make_token(user)])


@require_http_methods(["GET", "POST"])
def claim(request: HttpRequest, uidb64: str, token: str) -> HttpResponse:
    """A player an organiser created chooses a password, and can log in from then on."""
    try:
        user = user_get(user_id=whole_number(urlsafe_base64_decode(uidb64).decode(), low=1, high=USER_ID_MAX))
    except (ValueError, UnicodeDecodeError):  # NumberError is a ValueError
        user = None
    if user is None or user.has_usable_password() or not default_token_generator.check_token(user, token):
        raise Http404("This invite link is not valid any more: ask the organiser for a new one, or log in.")
    form = SetPasswordForm(user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        form.save()
        login(request, user, backend=_BACKEND)
        messages.success(request, f"Your account is yours: you log in as {user.get_username()} from now on.")
        return redirect("web:my_matches")
    return render(request, "registration/claim.html", {"form": form, "username": user.get_username()})
