"""What the person looking at a match may do there: submit, confirm, dispute."""

from __future__ import annotations

from dataclasses import dataclass

from matches.models import Game, Match
from matches.selectors import AnyUser, user_is_organiser, user_player


@dataclass(frozen=True, slots=True)
class MatchViewer:
    """The viewer's part in a match: a player of it (their id), an organiser, or neither."""

    player_id: int | None
    organiser: bool

    @property
    def may_submit(self) -> bool:
        return self.organiser or self.player_id is not None

    def may_confirm(self, game: Game) -> bool:
        """The other side of the claim, or an organiser."""
        if game.status != Game.Status.AWAITING_CONFIRMATION:
            return False
        return self.organiser or (self.player_id is not None and self.player_id != game.claimed_by_id)

    def may_dispute(self, game: Game) -> bool:
        return game.status == Game.Status.AWAITING_CONFIRMATION and self.player_id is not None


def match_viewer(*, user: AnyUser, match: Match) -> MatchViewer:
    me = user_player(user=user)
    playing = me is not None and me.pk in (match.player_one_id, match.player_two_id)
    return MatchViewer(player_id=me.pk if playing and me is not None else None, organiser=user_is_organiser(user=user))
