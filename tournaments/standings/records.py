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
    #: Cards each player played within the time limits of a timed match's counted games.
    timed: tuple[int, int] = (0, 0)

    def __post_init__(self) -> None:
        if self.bye != (self.players[1] is None):
            raise ValueError("a bye has no second player, and only a bye has none")
        if self.players[0] == self.players[1]:
            raise ValueError(f"{self.players[0]!r} cannot play themselves")
        if self.winner not in self.players:
            raise ValueError(f"winner {self.winner!r} did not play in {self.players!r}")
        if min(*self.games_won, *self.cards_left, *self.timed) < 0:
            raise ValueError("game and card counts cannot be negative")

    @classmethod
    def for_bye(cls, player: EntrantId, *, games_won: int = 0) -> MatchRecord:
        """A bye for `player`: a win with no opponent."""
        return cls(players=(player, None), winner=player, games_won=(games_won, 0), bye=True)


@dataclass(frozen=True)
class TableRecord:
    """A decided table of two to four players (a "tables" event): each seat's place, points and timed cards.

    `places` are the match's standings (1 is best, shared places share the
    number), `points` each seat's series points (points per place over its
    games), `timed` each seat's cards played within the limits (zeros when
    untimed). `winner` is the match's winner, alone in first place.
    """

    players: tuple[EntrantId, ...]
    places: tuple[int, ...]
    points: tuple[int, ...]
    winner: EntrantId
    timed: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        seats = len(self.players)
        if not 2 <= seats <= 4 or len(set(self.players)) != seats:
            raise ValueError(f"a table seats two to four different players, not {self.players!r}")
        if len(self.places) != seats or len(self.points) != seats or len(self.timed) not in (0, seats):
            raise ValueError("places, points and timed cards are one per seat")
        if self.winner not in self.players:
            raise ValueError(f"winner {self.winner!r} did not play in {self.players!r}")
        if min(*self.places) < 1 or min(*self.points, *self.timed) < 0:
            raise ValueError("places start at 1; points and cards cannot be negative")
