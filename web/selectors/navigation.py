"""What every page's navigation shows the signed-in user: the links they may follow, the counts waiting on them.

The site's context processor (`web.context_processors.navigation`) hands each page a
`Navigation`; nothing is read until the page's navigation asks, and each at most once.
"""

from __future__ import annotations

from functools import cached_property

from matches.selectors import AnyUser, user_is_organiser, user_player
from play.selectors import WaitingTable, tables_waiting_for
from web.selectors.desk import desk_count
from web.selectors.mine import waiting_count


class Navigation:
    def __init__(self, user: AnyUser) -> None:
        self.user = user

    @cached_property
    def organiser(self) -> bool:
        return user_is_organiser(user=self.user)

    @cached_property
    def may_submit(self) -> bool:
        """Organisers, and players (only the players of a match submit its logs; the page lists theirs)."""
        return self.organiser or user_player(user=self.user) is not None

    @cached_property
    def waiting(self) -> int:
        """What waits on the signed-in player (games to log, results to confirm)."""
        return waiting_count(user=self.user)

    @cached_property
    def desk(self) -> int:
        """What waits on an organiser (disputes, registrations to decide); 0 for others."""
        return desk_count(user=self.user)

    @cached_property
    def tables_waiting(self) -> list[WaitingTable]:
        """Match tables where another player sits waiting for the signed-in user (one query; none for others)."""
        if self.user is None or not self.user.is_authenticated:
            return []
        return tables_waiting_for(user_id=self.user.pk)
