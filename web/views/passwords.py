"""Password reset by email, limited per address (Django's views and tokens; the templates are the site's)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import PasswordResetForm
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect

from core.throttles import AddressRateLimit
from matches.services.outbox import password_reset_request
from web.views.rate_limits import too_many


class PasswordReset(auth_views.PasswordResetView):
    """Each request sends an email: SPEED_PASSWORD_RESET_RATE_PER_ADDRESS keeps one address from flooding inboxes.

    The request only writes the address to the outbox; the task finds the
    accounts, makes their links from SPEED_SITE_URL (never this request's
    Host) and sends. So a known and an unknown address get the same answer
    after the same statements, and nothing about the account is read here.
    """

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        limit = AddressRateLimit("password_reset", settings.SPEED_PASSWORD_RESET_RATE_PER_ADDRESS)
        if not limit.allow_request(request, None):
            return too_many(request, limit, "password reset requests")
        return super().post(request, *args, **kwargs)

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        password_reset_request(address=form.cleaned_data["email"])
        return HttpResponseRedirect(self.get_success_url())
