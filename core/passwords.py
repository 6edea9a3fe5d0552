"""A password change ends every API token the user had.

Django tells each entry of AUTH_PASSWORD_VALIDATORS when a user's password
changed (`password_changed`, called by `AbstractBaseUser.save()` after
`set_password`), wherever it was changed: the admin, `changepassword`, a
service. Sessions already end then (their hash includes the password's); this
does the same for DRF tokens, so a token taken before the change stops working.
"""

from __future__ import annotations

from typing import Any


class RotateApiTokens:
    """Not a rule on the password itself: a hook on its change."""

    def validate(self, password: str, user: Any = None) -> None:
        return None

    def password_changed(self, password: str, user: Any = None) -> None:
        if user is None or user.pk is None:
            return
        # Imported here: validators are loaded while the app registry may still be filling.
        from rest_framework.authtoken.models import Token  # noqa: PLC0415

        Token.objects.filter(user=user).delete()

    def get_help_text(self) -> str:
        return ""
