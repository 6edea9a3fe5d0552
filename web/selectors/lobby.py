"""What the lobby (`/play/`) shows: the viewer's own seek, the others' open seeks and the live tables, capped."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User

from matches.models import Player
from matches.selectors import user_player
from play.models import Seek
from play.selectors import LiveTable, live_tables, seek_of_player, seeks_open

#: The most seeks and tables the page lists: the oldest seeks (first come, first served), the newest tables.
SEEKS_SHOWN = 20
TABLES_SHOWN = 12


@dataclass(frozen=True)
class Lobby:
    me: Player | None
    mine: Seek | None
    seeks: list[Seek]
    seeks_total: int
    tables: list[LiveTable]
    tables_total: int

    @property
    def seeks_more(self) -> int:
        """Open seeks beyond those listed."""
        return self.seeks_total - len(self.seeks)

    @property
    def tables_more(self) -> int:
        """Live tables beyond those listed."""
        return self.tables_total - len(self.tables)


def lobby_for(*, user: User | AnonymousUser) -> Lobby:
    """The lobby as this viewer sees it (a fixed number of queries)."""
    me = user_player(user=user)
    live = live_tables(limit=TABLES_SHOWN)
    others = seeks_open() if me is None else seeks_open().exclude(seeker=me)
    return Lobby(
        me=me,
        mine=seek_of_player(player=me) if me is not None else None,
        seeks=list(others[:SEEKS_SHOWN]),
        seeks_total=others.count(),
        tables=live.tables,
        tables_total=live.total,
    )
