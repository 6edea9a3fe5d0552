"""Creating players and granting the organiser role."""

from __future__ import annotations

import re

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, Group
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction

from core.errors import Invalid, NotAllowed
from core.site_cache import site_lists_changed

from ..models import Player, TimeZonePreference
from ..names import claimed_role, name_skeleton
from ..selectors import ORGANISERS_GROUP, AnyUser, player_get, player_reading_as
from ..time_zones import zone_get

HANDLE_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")

User = get_user_model()


def display_name_check(*, display_name: str) -> None:
    """Refuse a display name that claims a role, or reads as another player's name or handle.

    Names are compared by their skeleton (`matches.names`, stored on each player): case,
    spacing, punctuation, accents and look-alike letters do not make a name another.
    """
    role = claimed_role(display_name)
    if role is not None:
        raise Invalid(
            f"A display name may not claim a role on the site ({role!r}): organisers and staff are "
            "shown as such by the site itself. Choose your own name.",
            extra={"field": "display_name"},
        )
    twin = player_reading_as(skeleton=name_skeleton(display_name))
    if twin is not None:
        raise Invalid(
            f"The display name {display_name!r} reads like the player {twin.handle!r}'s name: choose one "
            "that others can tell apart (add an initial or a surname).",
            extra={"field": "display_name"},
        )


def handle_check(*, handle: str) -> None:
    """Refuse a handle that claims a role or reads as another player's handle or name ("aIice", "a1ice",
    "alice_" beside "alice"): handles are what a table and a bracket show."""
    role = claimed_role(handle)
    if role is not None:
        raise Invalid(
            f"A handle may not claim a role on the site ({role!r}); choose another.", extra={"field": "handle"}
        )
    twin = player_reading_as(skeleton=name_skeleton(handle))
    if twin is not None:
        raise Invalid(
            f"The handle {handle!r} reads like the player {twin.handle!r}'s: choose one that others can tell apart.",
            extra={"field": "handle"},
        )


@transaction.atomic
def player_create(
    *, handle: str, display_name: str, password: str | None = None, email: str = "", self_signup: bool = False
) -> Player:
    """A player, with a new Django user of the same username to log in as.

    The user is always new: an existing account (an organiser's, the superuser's, a
    plain user's) is never attached to a player, nor its password set here, so
    creating a player can never take over an account. A password must pass
    Django's validators (AUTH_PASSWORD_VALIDATORS); without one the player cannot
    log in until an organiser sets one. Someone signing themselves up
    (`self_signup`) may not take a name that passes for another player's or
    claims a role (`display_name_check`); an organiser entering players may
    (two entrants can share a name).
    `email` (optional) is where notifications go.
    """
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
    if User.objects.filter(username__iexact=handle).exists():
        raise Invalid(
            f"The handle {handle!r} is the username of an existing account (regardless of case); choose another.",
            extra={"field": "handle"},
        )
    if self_signup:
        handle_check(handle=handle)
        display_name_check(display_name=display_name)
    user = User(username=handle, email=_email_checked(email))
    if password:
        try:
            validate_password(password, user=user)
        except ValidationError as exc:
            raise Invalid(" ".join(exc.messages), extra={"field": "password", "problems": exc.messages}) from None
        user.set_password(password)
    else:
        user.set_unusable_password()
    try:
        with transaction.atomic():
            user.save()
            site_lists_changed()  # /players/ lists every player from the site lists' cache
            return Player.objects.create(
                handle=handle,
                display_name=display_name,
                handle_key=name_skeleton(handle),
                name_key=name_skeleton(display_name),
                user=user,
            )
    except IntegrityError as exc:  # a concurrent request took the handle or the username first
        raise Invalid(f"The handle {handle!r} is taken; choose another.", extra={"field": "handle"}) from exc


def _email_checked(email: str) -> str:
    email = email.strip()
    if email:
        try:
            validate_email(email)
        except ValidationError:
            raise Invalid(f"{email!r} is not an email address.", extra={"field": "email"}) from None
    return email


@transaction.atomic
def user_email_set(*, user: AnyUser, email: str) -> str:
    """The signed-in user's email address (where notifications go), or none (""); returns it as stored."""
    if user is None or not user.is_authenticated:
        raise NotAllowed("Sign in to change your email address.")
    email = _email_checked(email)
    User.objects.filter(pk=user.pk).update(email=email)
    return email


def user_time_zone_set(*, user: AnyUser, name: str) -> str:
    """The time zone the signed-in user reads and enters times in (an IANA name); returns it as stored."""
    if user is None or not user.is_authenticated:
        raise NotAllowed("Sign in to choose your time zone.")
    name = name.strip()
    if zone_get(name) is None:
        raise Invalid(
            f"{name!r} is not a time zone: choose one from the list, such as Europe/Berlin or America/New_York.",
            extra={"field": "time_zone"},
        )
    TimeZonePreference.objects.update_or_create(user_id=user.pk, defaults={"name": name})
    return name


def organiser_grant(*, user: AbstractBaseUser) -> None:
    """Make the user an organiser (a member of the "organisers" group)."""
    group, _ = Group.objects.get_or_create(name=ORGANISERS_GROUP)
    user.groups.add(group)  # type: ignore[attr-defined]
