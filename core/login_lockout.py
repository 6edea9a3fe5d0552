"""django-axes' handler with a reset on success that clears the account's count, not the address's.

Axes counts failures per account and per address (AXES_LOCKOUT_PARAMETERS), but
its own reset on success (AXES_RESET_ON_SUCCESS) deletes every failure that
matches the address *or* the username. An attacker who guessed nine times at
someone else's account could then log into an account of their own from the
same address and start the victim's count again. Here a successful login deletes
only the failures recorded against the account that logged in: the address's
failures against other accounts still count, and so do the victim's.
"""

from __future__ import annotations

from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.utils import reset


class AccountResetHandler(AxesDatabaseHandler):
    """The database handler (shared by every worker), with `AXES_RESET_ON_SUCCESS` off and this reset instead."""

    def user_logged_in(self, sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
        super().user_logged_in(sender, request, user, **kwargs)
        account_failures_reset(username=user.get_username())


def account_failures_reset(*, username: str) -> int:
    """Forget the failed logins made against this account (after it proved its password)."""
    return reset(username=username)
