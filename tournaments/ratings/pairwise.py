"""A game's places as the two-player results Glicko-2 rates: every two players at the table, once.

Glicko-2 (like Elo) rates two-player results only. The usual way a game of
more than two enters such a system is to read it as a result between every
two players in it: the one placed above beat the one below, equal places
drew (score 0.5). A game of three counts as three such pairings, a game of
four as six; a two-player game is the one pairing it always was, so its
floats do not change.

Weight: each player of a four-player game gets three results from it (one
against each other player), where a two-player game gives one. Winning a
table of four therefore moves a rating exactly as much as beating those
three players once each in one rating period, and coming last as much as
losing to each of them: finishing above three players is more evidence than
finishing above one. The three results come from one deal, so they are not
as independent as Glicko-2 assumes, and the deviation shrinks a little
faster than three separate games would justify; we accept that rather than
invent fractional weights the paper does not define.

All the pairings of all a match's games go into the match's one rating
period (`history.ratings_replay`), as a two-player series' games always
did: everyone is rated against the others' ratings from before the match,
so neither the seat order nor the order of the pairings changes who gains
what, and a series stays one sitting's evidence (rated game by game, a 3-0
would count for much more than one win against the same opponents). The
game count a player is credited with stays the games played (a table game
is one game, however many pairings it makes).

Team Speed (two teams of two) rates each player against each player of the
other team, never against a partner: partners did not play against each
other, and a draw between them would only pull their ratings together. A
team game is four pairings, so each player gets two results from it.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from itertools import combinations
from typing import TypeVar

from .glicko2 import RatedGame

PlayerId = TypeVar("PlayerId", bound=Hashable)

Places = tuple[int, ...]
"""One place per seat, in seat order: 1 is best, equal places are shared (1, 2, 2, 4)."""


def pair_score(place: int, other: int) -> float:
    """The first player's score against the second from their places: 1 above, 0.5 level, 0 below."""
    if place == other:
        return 0.5
    return 1.0 if place < other else 0.0


def pairwise_games(
    players: Sequence[PlayerId], places: Places, teams: Sequence[Sequence[int]] = ()
) -> list[RatedGame[PlayerId]]:
    """The game as its two-player results: every pair of seats in seat order (first seat's score).

    `teams`: in Team Speed, the seats of each team; two seats of one team
    make no pairing. Raises `ValueError` when the places are not one per player.
    """
    if len(places) != len(players):
        raise ValueError(f"{len(players)} players need {len(players)} places, got {len(places)}")
    partners = {(one, two) for team in teams for one, two in combinations(sorted(team), 2)}
    return [
        RatedGame(players[one], players[two], pair_score(places[one], places[two]))
        for one, two in combinations(range(len(players)), 2)
        if (one, two) not in partners
    ]
