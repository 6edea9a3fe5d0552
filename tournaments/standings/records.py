"""What standings are computed from: one plain record per decided match."""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.generators.entrants import EntrantId


@dataclass(frozen=True)
class MatchRecord:
    """A decided match, or a bye.

    `games_won` counts each player's games. `cards_left` is, for each player,
    the cards they still held when the games they lost ended (from verified
    logs), summed over the match: the card margin is built from it. For a bye
    the second player is None, and the counts are whatever the event awards
    for a bye (usually zeros).
    """

    players: tuple[EntrantId, EntrantId | None]
    winner: EntrantId
    games_won: tuple[int, int] = (0, 0)
    cards_left: tuple[int, int] = (0, 0)
    bye: bool = False

    def __post_init__(self) -> None:
        if self.bye != (self.players[1] is None):
            raise ValueError("a bye has no second player, and only a bye has none")
        if self.players[0] == self.players[1]:
            raise ValueError(f"{self.players[0]!r} cannot play themselves")
        if self.winner not in self.players:
            raise ValueError(f"winner {self.winner!r} did not play in {self.players!r}")
        if min(*self.games_won, *self.cards_left) < 0:
            raise ValueError("game and card counts cannot be negative")

    @classmethod
    def for_bye(cls, player: EntrantId, *, games_won: int = 0) -> MatchRecord:
        """A bye for `player`: a win with no opponent."""
        return cls(players=(player, None), winner=player, games_won=(games_won, 0), bye=True)
