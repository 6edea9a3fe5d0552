"""Creating players and granting the organiser role."""

from __future__ import annotations

import re

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, Group
from django.db import IntegrityError, transaction

from speedsite.errors import Invalid

from ..models import Player
from ..selectors import ORGANISERS_GROUP, player_get

HANDLE_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")

User = get_user_model()


@transaction.atomic
def player_create(*, handle: str, display_name: str, password: str | None = None) -> Player:
    """A player, with a Django user of the same username to log in as (created or linked)."""
    handle = handle.strip()
    display_name = display_name.strip() or handle
    if not HANDLE_PATTERN.match(handle):
        raise Invalid(
            f"The handle {handle!r} is not allowed: use 1 to 40 letters, digits, '_', '.' or '-', "
            "starting with a letter or digit.",
            extra={"field": "handle"},
        )
    if player_get(handle=handle) is not None:
        raise Invalid(
            f"The handle {handle!r} is taken (handles are unique regardless of case); choose another.",
            extra={"field": "handle"},
        )
    user = User.objects.filter(username__iexact=handle).first()
    if user is None:
        user = User(username=handle)
        if password:
            user.set_password(password)
        else:
            user.set_unusable_password()
        user.save()
    elif Player.objects.filter(user=user).exists():
        raise Invalid(f"The user {user.get_username()!r} already plays as another player.")
    elif password:
        user.set_password(password)
        user.save(update_fields=["password"])
    try:
        with transaction.atomic():
            return Player.objects.create(handle=handle, display_name=display_name, user=user)
    except IntegrityError as exc:  # a concurrent request took the handle first
        raise Invalid(f"The handle {handle!r} is taken; choose another.") from exc


def organiser_grant(*, user: AbstractBaseUser) -> None:
    """Make the user an organiser (a member of the "organisers" group)."""
    group, _ = Group.objects.get_or_create(name=ORGANISERS_GROUP)
    user.groups.add(group)  # type: ignore[attr-defined]
