"""What the person looking at a match may do there: submit, report, confirm, dispute."""

from __future__ import annotations

from dataclasses import dataclass

from matches.models import Game, Match
from matches.selectors import AnyUser, user_is_organiser, user_player


@dataclass(frozen=True, slots=True)
class MatchViewer:
    """The viewer's part in a match: a player of it (their id), an organiser, or neither."""

    player_id: int | None
    organiser: bool
    # The viewer's side: themselves, or their Team Speed team (a partner's claim is their side's word too).
    side: tuple[int, ...] = ()

    @property
    def may_submit(self) -> bool:
        return self.organiser or self.player_id is not None

    def may_report(self, game: Game) -> bool:
        """A player of the match reports an open game's result (their word; the others confirm it)."""
        return self.player_id is not None and game.status == Game.Status.OPEN

    def may_confirm(self, game: Game) -> bool:
        """Any player but the claimant's side who has not confirmed it yet (at a table every other one must), or an
        organiser who does not play in the match (one who plays confirms as a player: never their own claim)."""
        if game.status != Game.Status.AWAITING_CONFIRMATION:
            return False
        if self.organiser and self.player_id is None:
            return True
        return self.player_id is not None and game.claimed_by_id not in self.side and not self.has_confirmed(game)

    def has_confirmed(self, game: Game) -> bool:
        """At a table, a player's confirmation is kept as their report until the last one confirms."""
        return self.player_id is not None and str(self.player_id) in (game.reports or {})

    def may_dispute(self, game: Game) -> bool:
        """A player of the other side: the claimant (or their Team Speed partner) waits, and is not offered it."""
        return (
            game.status == Game.Status.AWAITING_CONFIRMATION
            and self.player_id is not None
            and game.claimed_by_id not in self.side
        )


def match_viewer(*, user: AnyUser, match: Match) -> MatchViewer:
    me = user_player(user=user)
    organiser = user_is_organiser(user=user)
    if me is None or me.pk not in match.player_ids:
        return MatchViewer(player_id=None, organiser=organiser)
    side = match.team_of(me.pk) if match.is_team else (me.pk,)
    return MatchViewer(player_id=me.pk, organiser=organiser, side=side)
