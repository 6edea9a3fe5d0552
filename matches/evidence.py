"""Whose word decides a game, pure: from the evidence so far to the game's state.

A verified log proves a game legal, not that it was played: it is one side's
word, like a report. So one side's evidence only makes a claim the other side
confirms or disputes; both sides' evidence that agrees decides at once;
evidence that disagrees disputes. An organiser who is not a party decides at
once, and a supervised match ("none": an organiser watched the play) lets a
verified log decide at once. Nothing here reads or writes a row: the
services gather the evidence, ask `game_outcome`, and apply the answer.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

#: The side of evidence that no player of the match gave (an organiser's log).
ORGANISER = 0


class Source(StrEnum):
    LOG = "log"
    REPORT = "report"
    # A log the service's own table recorded: it saw every card, so it decides at once.
    TABLE = "table"


@dataclass(frozen=True, slots=True)
class Claim:
    """One piece of evidence: who gave it (a player's id, or ORGANISER), from what, and the result it names.

    `winner` None names a void game (a verified deadlock), unless `places`
    says otherwise (a timed game whose first place is shared). In a match
    whose games end in places (a table, a timed match) the result is the
    winner and the places per seat; `timed` (a verified log's timed scores)
    comes along with a result but is not part of it: a report cannot give it.
    """

    side: int
    source: Source
    winner: int | None
    places: tuple[int, ...] | None = None
    timed: tuple[int, ...] | None = None

    @property
    def result(self) -> tuple[int | None, tuple[int, ...] | None]:
        return (self.winner, self.places)


class OutcomeKind(StrEnum):
    OPEN = "open"  # no evidence yet (or some still pending)
    AWAITING = "awaiting_confirmation"  # one side's claim, waiting for the other side
    DECIDED = "decided"  # decided (the winner None: void)
    DISPUTED = "disputed"  # the evidence disagrees


@dataclass(frozen=True, slots=True)
class Outcome:
    verdict: OutcomeKind
    winner: int | None = None
    # DECIDED: "log" when a verified log is among the evidence, else "players".
    # AWAITING: the claim's source and side (the other side must confirm).
    source: Source | None = None
    claimed_by: int | None = None
    places: tuple[int, ...] | None = None
    timed: tuple[int, ...] | None = None


def game_outcome(
    claims: Iterable[Claim],
    *,
    players: tuple[int, ...],
    confirmation_required: bool,
    pending: bool = False,
    teams: tuple[tuple[int, ...], ...] = (),
) -> Outcome:
    """The game's state from all its evidence (verified logs and reports; `pending`: a log not yet judged).

    A game waits while any log is pending, so every log submitted has its say.
    Every player of the match (two to four) giving the same result decides it;
    until then one side's result waits for the others to confirm it. In Team
    Speed (`teams`: the players' ids per team) a side is a team: one player of
    each team giving the same result decides it.
    """
    if pending:
        return Outcome(OutcomeKind.OPEN)
    claims = list(claims)
    if not claims:
        return Outcome(OutcomeKind.OPEN)
    table = next((claim for claim in claims if claim.source is Source.TABLE), None)
    if table is not None:  # the referee saw every card: its log decides, whatever else is claimed
        return Outcome(OutcomeKind.DECIDED, table.winner, Source.TABLE, places=table.places, timed=table.timed)
    results = {claim.result for claim in claims}
    if len(results) > 1:
        return Outcome(OutcomeKind.DISPUTED)
    ((winner, places),) = results
    source = Source.LOG if any(claim.source is Source.LOG for claim in claims) else Source.REPORT
    timed = next((claim.timed for claim in claims if claim.timed is not None), None)
    sides = {claim.side for claim in claims}
    sides_needed = teams or tuple((player,) for player in players)
    every_player = all(sides & set(team) for team in sides_needed)
    organiser_log = any(claim.side == ORGANISER and claim.source is Source.LOG for claim in claims)
    supervised_log = not confirmation_required and source is Source.LOG
    if every_player or organiser_log or supervised_log:
        return Outcome(OutcomeKind.DECIDED, winner, source, places=places, timed=timed)
    first = next(claim for claim in claims if claim.side in players)
    return Outcome(OutcomeKind.AWAITING, winner, first.source, first.side, places=places, timed=timed)
