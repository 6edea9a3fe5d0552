"""Who stands where in a bracket, computed from its shape and a set of results.

`advance` never mutates anything: the same bracket and results always give
the same state. Byes advance by themselves; a grand-final reset that is not
needed is void; when every match is settled the bracket is finished and the
placings follow from how far each entrant got.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from .bracket import Bracket, BracketMatch, Empty, Seeded, SlotSource, WinnerOf
from .entrants import EntrantId, InvalidResultError


class MatchStatus(StrEnum):
    """Where a bracket match stands."""

    WAITING = "waiting"  # at least one slot is still to be decided by an earlier match
    READY = "ready"  # both entrants known, no result yet
    DECIDED = "decided"  # has a result
    BYE = "bye"  # one entrant and an empty slot: the entrant goes through without playing
    VOID = "void"  # nobody to play, or a grand-final reset that is not needed


#: Statuses after which a match's winner and loser are known for good.
SETTLED = frozenset({MatchStatus.DECIDED, MatchStatus.BYE, MatchStatus.VOID})


@dataclass(frozen=True, slots=True)
class MatchView:
    """One match as it stands: who is in it, and who won and lost if it is settled."""

    match_id: str
    status: MatchStatus
    entrants: tuple[EntrantId | None, EntrantId | None]
    winner: EntrantId | None = None
    loser: EntrantId | None = None


@dataclass(frozen=True)
class Placing:
    """A final place; entrants eliminated at the same stage share it (`place`..`shared_to`)."""

    entrant: EntrantId
    place: int
    shared_to: int

    @property
    def label(self) -> str:
        """ "3" for a place of one's own, "5-6" for a shared one."""
        return str(self.place) if self.place == self.shared_to else f"{self.place}-{self.shared_to}"


@dataclass(frozen=True)
class BracketState:
    """The bracket as it stands after a set of results."""

    matches: Mapping[str, MatchView]
    finished: bool
    placings: tuple[Placing, ...]
    #: Results that did not fit (lenient mode only): the match was not ready, or
    #: the winner is not in it. A correction drops these.
    ignored_results: tuple[str, ...] = ()

    @property
    def ready(self) -> tuple[str, ...]:
        """Ids of the matches that can be played now, in bracket order."""
        return tuple(view.match_id for view in self.matches.values() if view.status is MatchStatus.READY)

    @property
    def champion(self) -> EntrantId | None:
        """The winner of the whole bracket once it is finished."""
        return self.placings[0].entrant if self.placings else None


def advance(bracket: Bracket, results: Mapping[str, EntrantId], *, strict: bool = True) -> BracketState:
    """Compute the state of `bracket` given `results` (match id -> winner).

    Strict mode raises `InvalidResultError` for a result on a match that is not
    ready to be played or whose winner is not one of its two entrants (and for
    an unknown match id). Lenient mode ignores such results and lists them in
    `ignored_results`, which is what a correction needs after an earlier
    result changed under them.
    """
    unknown = [match_id for match_id in results if match_id not in bracket.by_id]
    if unknown:
        raise InvalidResultError(f"no such match in this bracket: {', '.join(sorted(unknown))}")
    views: dict[str, MatchView] = {}
    ignored: list[str] = []
    for match in bracket.matches:
        view = _view(match, views, results.get(match.match_id))
        if match.match_id in results and view.status is not MatchStatus.DECIDED:
            if strict:
                raise InvalidResultError(_why_not(match, view, results[match.match_id]))
            ignored.append(match.match_id)
        views[match.match_id] = view
    finished = all(view.status in SETTLED for view in views.values())
    placings = _placings(bracket, views) if finished else ()
    return BracketState(matches=views, finished=finished, placings=placings, ignored_results=tuple(ignored))


def _view(match: BracketMatch, views: Mapping[str, MatchView], result: EntrantId | None) -> MatchView:
    slots = [_resolve(source, views) for source in match.sources]
    if match.played_if is not None:
        condition = views[match.played_if.match_id]
        if condition.status not in SETTLED:
            return MatchView(match.match_id, MatchStatus.WAITING, (None, None))
        needed = (
            condition.status is MatchStatus.DECIDED
            and condition.winner == condition.entrants[match.played_if.won_by_slot]
        )
        if not needed:
            return MatchView(match.match_id, MatchStatus.VOID, (None, None))
    first, second = slots
    if isinstance(first, _Unresolved) or isinstance(second, _Unresolved):
        return MatchView(match.match_id, MatchStatus.WAITING, (_known(first), _known(second)))
    if first is None and second is None:
        return MatchView(match.match_id, MatchStatus.VOID, (None, None))
    if first is None or second is None:
        return MatchView(match.match_id, MatchStatus.BYE, (first, second), winner=first if second is None else second)
    if result is None or result not in (first, second):
        return MatchView(match.match_id, MatchStatus.READY, (first, second))
    loser = second if result == first else first
    return MatchView(match.match_id, MatchStatus.DECIDED, (first, second), winner=result, loser=loser)


class _Unresolved:
    """Marks a slot whose feeding match is not settled yet (distinct from an empty slot)."""


_UNRESOLVED = _Unresolved()


def _resolve(source: SlotSource, views: Mapping[str, MatchView]) -> EntrantId | _Unresolved | None:
    if isinstance(source, Seeded):
        return source.entrant
    if isinstance(source, Empty):
        return None
    feeder = views[source.match_id]
    if feeder.status not in SETTLED:
        return _UNRESOLVED
    return feeder.winner if isinstance(source, WinnerOf) else feeder.loser


def _known(slot: EntrantId | _Unresolved | None) -> EntrantId | None:
    return None if isinstance(slot, _Unresolved) else slot


def _why_not(match: BracketMatch, view: MatchView, winner: EntrantId) -> str:
    if view.status is MatchStatus.READY:
        return f"{match.match_id}: {winner!r} is not playing in it (entrants {view.entrants!r})"
    return f"{match.match_id} cannot have a result: it is {view.status.value}"


def _placings(bracket: Bracket, views: Mapping[str, MatchView]) -> tuple[Placing, ...]:
    """Final places from the stage at which each entrant's run ended."""
    stage: dict[EntrantId, int] = {}
    for match in bracket.matches:
        view = views[match.match_id]
        if view.status not in (MatchStatus.DECIDED, MatchStatus.BYE):
            continue
        outcomes = ((view.winner, match.winner_to, match.winner_stage), (view.loser, match.loser_to, match.loser_stage))
        for entrant, goes_to, reached in outcomes:
            if entrant is None:
                continue
            if goes_to is None or views[goes_to.match_id].status is MatchStatus.VOID:
                if entrant in stage:
                    raise AssertionError(f"{entrant!r} finished twice; the bracket shape is inconsistent")
                stage[entrant] = reached
    if len(stage) != len(bracket.entrants):
        raise AssertionError("an entrant has no final placing; the bracket shape is inconsistent")
    by_stage = sorted(stage.items(), key=lambda item: -item[1])
    placings: list[Placing] = []
    index = 0
    while index < len(by_stage):
        end = index
        while end + 1 < len(by_stage) and by_stage[end + 1][1] == by_stage[index][1]:
            end += 1
        placings += [Placing(entrant, index + 1, end + 1) for entrant, _ in by_stage[index : end + 1]]
        index = end + 1
    return tuple(placings)
