"""Accounts: self sign-up, one's settings (emails, time zone), and claiming a player created by an organiser (an
invite link to choose a password)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import SetPasswordForm
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.tokens import default_token_generator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode
from django.views.decorators.http import require_http_methods

from core.errors import ApplicationError
from core.numbers import column_range, whole_number
from core.throttles import AddressRateLimit
from matches.selectors import user_time_zone_name
from matches.services import player_create, user_email_set, user_time_zone_set
from matches.services.notifications import notification_preferences_get, notification_preferences_set
from web.forms.accounts import NOTIFICATION_CHOICES, NotificationsForm, SignupForm
from web.selectors.players import user_get
from web.views.rate_limits import too_many

#: The backend a new or claimed account is logged in with (the project uses Django's model backend).
_BACKEND = "django.contrib.auth.backends.ModelBackend"
#: The largest user id an invite link can name (what the id column holds).
USER_ID_MAX = column_range(get_user_model(), "id")[1]


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("web:my_matches")
    if request.method == "POST":
        # Counted before the form is read: a script making accounts, or trying handles, is slowed alike.
        limit = AddressRateLimit("signup", settings.SPEED_SIGNUP_RATE_PER_ADDRESS)
        if not limit.allow_request(request, None):
            return too_many(request, limit, "sign-ups")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            player = player_create(
                handle=data["handle"],
                display_name=data["display_name"],
                password=data["password1"],
                email=data["email"],
                self_signup=True,
            )
        except ApplicationError as exc:
            field = (exc.extra or {}).get("field")
            form.add_error(field if field in {"handle", "display_name", "email"} else None, exc.message)
        else:
            assert player.user is not None
            if data["time_zone"]:  # the browser's, when it said one
                user_time_zone_set(user=player.user, name=data["time_zone"])
            login(request, player.user, backend=_BACKEND)
            messages.success(request, f"Welcome, {player.display_name}: you are signed up as {player.handle}.")
            return redirect("web:my_matches")
    return render(request, "registration/signup.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def notifications(request: HttpRequest) -> HttpResponse:
    """The signed-in person's settings: the address emails go to, each kind on or off, and their time zone."""
    user = request.user
    preference = notification_preferences_get(user_id=user.pk)
    on = [kind for kind, _label in NOTIFICATION_CHOICES if getattr(preference, kind)]
    # Never chosen: the zone the page is shown in now (the browser's, else UTC), saved as the choice with the form.
    zone = user_time_zone_name(user=user) or timezone.get_current_timezone_name()
    form = NotificationsForm(
        request.POST or None, initial={"email": getattr(user, "email", ""), "kinds": on}, time_zone=zone
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            user_email_set(user=user, email=data["email"])
            notification_preferences_set(user=user, kinds=data["kinds"])
            if data["time_zone"]:
                user_time_zone_set(user=user, name=data["time_zone"])
        except ApplicationError as exc:
            field = (exc.extra or {}).get("field")
            form.add_error(field if field in {"email", "time_zone"} else None, exc.message)
        else:
            messages.success(request, "Your settings are saved.")
            return redirect("web:notifications")
    return render(request, "registration/notifications.html", {"form": form, "time_zone": zone})


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
