"""What a corrected result changes further down a bracket.

Because `advance` recomputes everything from the results, a correction is a
new set of results. The work is in saying which later matches it touches:
a later match whose entrants change keeps no result (it was played by the
wrong people), which can in turn change matches after it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .advance import BracketState, MatchStatus, MatchView, advance
from .bracket import Bracket
from .entrants import EntrantId, InvalidResultError


@dataclass(frozen=True)
class MatchChange:
    """A later match touched by a correction, before and after."""

    match_id: str
    before: MatchView
    after: MatchView

    @property
    def result_dropped(self) -> bool:
        """The match had a result that no longer stands and must be played again."""
        return self.before.status is MatchStatus.DECIDED and self.after.status is not MatchStatus.DECIDED


@dataclass(frozen=True)
class CorrectionPlan:
    """Everything a correction would do, computed without doing it (a dry run)."""

    match_id: str
    old_winner: EntrantId | None
    new_winner: EntrantId | None
    changes: tuple[MatchChange, ...]
    results_after: Mapping[str, EntrantId]
    state_after: BracketState

    @property
    def affected_match_ids(self) -> tuple[str, ...]:
        """The later matches the correction touches, in bracket order."""
        return tuple(change.match_id for change in self.changes)

    @property
    def dropped_results(self) -> tuple[str, ...]:
        """Later matches whose result is thrown away by the correction."""
        return tuple(change.match_id for change in self.changes if change.result_dropped)


def plan_correction(
    bracket: Bracket, results: Mapping[str, EntrantId], match_id: str, new_winner: EntrantId | None
) -> CorrectionPlan:
    """Plan changing the result of `match_id` to `new_winner` (`None` clears it).

    Raises `InvalidResultError` if the match cannot take that result: it is not
    decided or ready, or `new_winner` is not one of its entrants.
    """
    before = advance(bracket, results)
    if match_id not in before.matches:
        raise InvalidResultError(f"no such match in this bracket: {match_id}")
    target = before.matches[match_id]
    if target.status not in (MatchStatus.DECIDED, MatchStatus.READY):
        raise InvalidResultError(f"{match_id} cannot have a result: it is {target.status.value}")
    if new_winner is not None and new_winner not in target.entrants:
        raise InvalidResultError(f"{match_id}: {new_winner!r} is not playing in it (entrants {target.entrants!r})")

    corrected = dict(results)
    if new_winner is None:
        corrected.pop(match_id, None)
    else:
        corrected[match_id] = new_winner
    after, corrected = _settle(bracket, before, corrected, keep=match_id)
    changes = tuple(
        MatchChange(other, before.matches[other], view)
        for other, view in after.matches.items()
        if other != match_id and view != before.matches[other]
    )
    return CorrectionPlan(
        match_id=match_id,
        old_winner=results.get(match_id),
        new_winner=new_winner,
        changes=changes,
        results_after=corrected,
        state_after=after,
    )


def plan_reseed(before: Bracket, after: Bracket, results: Mapping[str, EntrantId]) -> tuple[MatchChange, ...]:
    """What changes when a bracket is drawn again with other entrants in its lines (the same shape).

    Groups then playoffs: a corrected group result can change who reaches the
    playoff, or where. Results whose match keeps its entrants stand; the others
    are dropped, as in `plan_correction`.
    """
    if [match.match_id for match in before.matches] != [match.match_id for match in after.matches]:
        raise ValueError("a bracket can only be re-seeded into one of the same shape")
    state_before = advance(before, results)
    state_after, _ = _settle(after, state_before, dict(results), keep=None)
    return tuple(
        MatchChange(match_id, state_before.matches[match_id], view)
        for match_id, view in state_after.matches.items()
        if view != state_before.matches[match_id]
    )


def _settle(
    bracket: Bracket, before: BracketState, corrected: dict[str, EntrantId], *, keep: str | None
) -> tuple[BracketState, dict[str, EntrantId]]:
    """Drop later results whose match now has different entrants, until nothing more changes.

    Each pass can only remove results, so this ends. `keep` is the corrected
    match itself, whose new result stands.
    """
    while True:
        after = advance(bracket, corrected, strict=False)
        stale = [
            other
            for other in corrected
            if other != keep
            and (after.matches[other].entrants != before.matches[other].entrants or other in after.ignored_results)
        ]
        if not stale:
            return after, corrected
        for other in stale:
            del corrected[other]
