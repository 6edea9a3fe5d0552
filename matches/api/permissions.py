"""Who may do what through the API. Finer checks (is this your match?) live in the services."""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request

from matches.selectors import user_is_organiser


class IsOrganiserOrReadOnly(BasePermission):
    """Anyone reads; organisers (superusers and the "organisers" group) write."""

    message = "Only organisers can do this."

    def has_permission(self, request: Request, view: Any) -> bool:
        return request.method in SAFE_METHODS or user_is_organiser(user=request.user)
