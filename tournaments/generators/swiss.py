"""Swiss pairing: the next round from the standings so far.

Players are ordered by score, then by the rank order they are given in.
Within each score group the top half meets the bottom half (Dutch style:
1st v (n/2+1)th, ...), trying the next bottom-half player when a pairing
would be a rematch; players left over float down to the next group. When
the count is odd, the lowest-ranked player who has not had a bye gets it
(it counts as a win, which the caller records).

Absolute rule: no rematch while one can be avoided. The Dutch pass is a fast
greedy draft; whatever it leaves unpaired is then paired by augmenting paths
in the "may still meet" graph (Edmonds' blossom algorithm), which finds a
rematch-free pairing whenever one exists and otherwise the fewest rematches.
If the lowest-ranked bye candidate makes a rematch unavoidable, the bye may
go to another candidate who has not had one.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from .entrants import EntrantId, Pairing, require_distinct
from .matching import UNMATCHED, Matching


@dataclass(frozen=True)
class SwissPlayer:
    """A player's record going into a round."""

    entrant: EntrantId
    score: float
    opponents: frozenset[EntrantId] = frozenset()
    byes: int = 0


@dataclass(frozen=True)
class SwissRound:
    """The pairings of one Swiss round, best-placed pairing first."""

    pairings: tuple[Pairing, ...]
    bye: EntrantId | None
    #: Pairings that repeat an earlier game; only ever non-empty when unavoidable.
    rematches: tuple[Pairing, ...] = ()


def swiss_round(players: Sequence[SwissPlayer]) -> SwissRound:
    """Pair the next round for `players`, given best first in rank order.

    Opponents who are not among `players` (withdrawn players) are ignored.
    Raises `ValueError` for fewer than two players or repeated entrants.
    """
    require_distinct([player.entrant for player in players])
    return _SwissPairer(players).pair()


class _SwissPairer:
    def __init__(self, players: Sequence[SwissPlayer]) -> None:
        # Work in positions: 0 is the best-placed player. A stable sort keeps
        # the given rank order within a score.
        self.players = sorted(players, key=lambda player: -player.score)
        self.count = len(self.players)
        position_of = {player.entrant: position for position, player in enumerate(self.players)}
        self.played = [
            {position_of[opponent] for opponent in player.opponents if opponent in position_of}
            for player in self.players
        ]
        fewest_byes = min(player.byes for player in self.players)
        self.bye_eligible = [player.byes == fewest_byes for player in self.players]
        # With an odd count a virtual vertex stands for the bye.
        self.bye_vertex = self.count if self.count % 2 else None
        self.bye_open_to_all_eligible = False
        size = self.count + (self.bye_vertex is not None)
        self.matching = Matching(size, self._may_meet, self._neighbour_order)

    def pair(self) -> SwissRound:
        draft_bye: int | None = None
        if self.bye_vertex is not None:
            draft_bye = max(position for position in range(self.count) if self.bye_eligible[position])
            self.matching.pair(draft_bye, self.bye_vertex)
        self._draft_dutch([position for position in range(self.count) if position != draft_bye])
        self.matching.maximise(self.matching.unmatched())
        if self.bye_vertex is not None and self.matching.unmatched():
            # The draft bye makes a rematch unavoidable: let any eligible player take it.
            self.bye_open_to_all_eligible = True
            self.matching.maximise(self.matching.unmatched())
        return self._round()

    def _may_meet(self, first: int, second: int) -> bool:
        if self.bye_vertex in (first, second):
            player = second if first == self.bye_vertex else first
            if self.bye_open_to_all_eligible:
                return self.bye_eligible[player]
            return self.matching.mate[player] == self.bye_vertex
        return first != second and second not in self.played[first]

    def _neighbour_order(self, vertex: int) -> Iterator[int]:
        # Unpaired vertices first: in a dense graph that finds a short
        # augmenting path at once. Then the nearest players, so repairs stay
        # within or next to the score group.
        mate = self.matching.mate
        yield from (other for other in range(self.matching.size) if mate[other] == UNMATCHED)
        centre = min(vertex, self.count - 1)
        for distance in range(1, self.count):
            if centre - distance >= 0:
                yield centre - distance
            if centre + distance < self.count:
                yield centre + distance
        if self.bye_vertex is not None:
            yield self.bye_vertex

    def _draft_dutch(self, positions: list[int]) -> None:
        """Greedy Dutch pass: top half v bottom half per score group, floaters go down."""
        floaters: list[int] = []
        for group in self._score_groups(positions):
            members = floaters + group
            half = len(members) // 2
            top, bottom = members[:half], members[half:]
            taken = [False] * len(bottom)
            first_free = 0
            floaters = []
            for player in top:
                candidate = first_free
                while candidate < len(bottom) and (taken[candidate] or not self._may_meet(player, bottom[candidate])):
                    candidate += 1
                if candidate == len(bottom):
                    floaters.append(player)
                    continue
                self.matching.pair(player, bottom[candidate])
                taken[candidate] = True
                while first_free < len(bottom) and taken[first_free]:
                    first_free += 1
            floaters += [player for index, player in enumerate(bottom) if not taken[index]]
            floaters.sort()
        # Whoever is still unpaired after the last group is left to the matching.

    def _score_groups(self, positions: list[int]) -> list[list[int]]:
        groups: list[list[int]] = []
        for position in positions:
            if groups and self.players[groups[-1][-1]].score == self.players[position].score:
                groups[-1].append(position)
            else:
                groups.append([position])
        return groups

    def _round(self) -> SwissRound:
        mate = self.matching.mate
        bye: EntrantId | None = None
        leftover: list[int] = []
        pairs: list[tuple[int, int]] = []
        for position in range(self.count):
            partner = mate[position]
            if partner == self.bye_vertex and partner is not None:
                bye = self.players[position].entrant
            elif partner == UNMATCHED:
                leftover.append(position)
            elif position < partner:
                pairs.append((position, partner))
        if self.bye_vertex is not None and bye is None:
            # No rematch-free pairing exists for any bye: still give the bye
            # to the lowest-ranked eligible player left over, if there is one.
            eligible_left = [position for position in leftover if self.bye_eligible[position]]
            if eligible_left:
                leftover.remove(eligible_left[-1])
                bye = self.players[eligible_left[-1]].entrant
            else:
                taker = max(position for position in range(self.count) if self.bye_eligible[position])
                partner = mate[taker]
                pairs.remove((min(taker, partner), max(taker, partner)))
                leftover = sorted([*leftover, partner])
                bye = self.players[taker].entrant
        # The matching is maximum, so these rematches cannot be avoided.
        pairs += [(leftover[index], leftover[index + 1]) for index in range(0, len(leftover), 2)]
        pairs.sort()
        pairings = tuple(Pairing(self.players[first].entrant, self.players[second].entrant) for first, second in pairs)
        rematches = tuple(
            pairing for (first, second), pairing in zip(pairs, pairings, strict=True) if second in self.played[first]
        )
        return SwissRound(pairings=pairings, bye=bye, rematches=rematches)
