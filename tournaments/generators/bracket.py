"""The shape of an elimination bracket as plain, immutable data.

A bracket is a list of matches in play order: every match comes after the
matches that feed it. Each match has two slots; a slot is filled from the
start (an entrant or a bye) or by the winner or loser of an earlier match.
Each match also says where its winner and loser go next (`winner_to`,
`loser_to`), the inverse of the slot sources, so a viewer can draw the
bracket either way round.

Nothing here records results: `advance.advance` computes who is where from the
shape and a set of results, so a corrected result is just a different set.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property
from typing import TypeAlias

from .entrants import EntrantId


class Section(StrEnum):
    """Which part of a bracket a match belongs to."""

    MAIN = "main"  # the only bracket of a single elimination
    WINNERS = "winners"
    LOSERS = "losers"
    GRAND_FINAL = "grand_final"
    THIRD_PLACE = "third_place"


@dataclass(frozen=True)
class Seeded:
    """The slot holds this entrant from the start."""

    entrant: EntrantId


@dataclass(frozen=True)
class Empty:
    """The slot stays empty: whoever is in the other slot has a bye."""


@dataclass(frozen=True)
class WinnerOf:
    """The slot is filled by the winner of an earlier match."""

    match_id: str


@dataclass(frozen=True)
class LoserOf:
    """The slot is filled by the loser of an earlier match (double elimination, third place)."""

    match_id: str


SlotSource: TypeAlias = Seeded | Empty | WinnerOf | LoserOf


@dataclass(frozen=True)
class SlotRef:
    """Slot 0 or 1 of a match."""

    match_id: str
    slot: int


@dataclass(frozen=True)
class PlayedIf:
    """A match is played only if `match_id` was won by the entrant in `won_by_slot`.

    This is the grand-final reset: it is needed only when the losers'-bracket
    finalist (slot 1) wins the first grand final.
    """

    match_id: str
    won_by_slot: int


@dataclass(frozen=True)
class BracketMatch:
    """One match of a bracket.

    `winner_stage` and `loser_stage` rank how far an entrant got when their
    run ends at this match (the higher, the better the final placing). They
    apply only when the entrant goes nowhere next, or the next match is not
    played (a grand-final reset that is not needed).
    """

    match_id: str
    section: Section
    round: int
    position: int
    sources: tuple[SlotSource, SlotSource]
    winner_stage: int
    loser_stage: int
    winner_to: SlotRef | None = None
    loser_to: SlotRef | None = None
    played_if: PlayedIf | None = None


@dataclass(frozen=True)
class Bracket:
    """A whole bracket: its entrants and its matches in play order."""

    entrants: tuple[EntrantId, ...]
    matches: tuple[BracketMatch, ...]

    def __post_init__(self) -> None:
        _check_shape(self.entrants, self.matches)

    @cached_property
    def by_id(self) -> dict[str, BracketMatch]:
        """Matches by id."""
        return {match.match_id: match for match in self.matches}

    def section(self, section: Section) -> tuple[BracketMatch, ...]:
        """The matches of one section, in play order."""
        return tuple(match for match in self.matches if match.section is section)


def knockout_sources(
    lines: Sequence[EntrantId | None], round_number: int, position: int, match_id: Callable[[int, int], str]
) -> tuple[SlotSource, SlotSource]:
    """Who meets in a knockout tree: two bracket lines in round one, else two winners of the round before."""
    if round_number == 1:
        return _line_source(lines[2 * position - 2]), _line_source(lines[2 * position - 1])
    return (
        WinnerOf(match_id(round_number - 1, 2 * position - 1)),
        WinnerOf(match_id(round_number - 1, 2 * position)),
    )


def _line_source(entrant: EntrantId | None) -> SlotSource:
    return Empty() if entrant is None else Seeded(entrant)


def linked(matches: Iterable[BracketMatch]) -> tuple[BracketMatch, ...]:
    """Fill each match's `winner_to` / `loser_to` from the slot sources of later matches."""
    match_list = list(matches)
    winner_to: dict[str, SlotRef] = {}
    loser_to: dict[str, SlotRef] = {}
    for match in match_list:
        for slot, source in enumerate(match.sources):
            if isinstance(source, WinnerOf):
                winner_to[source.match_id] = SlotRef(match.match_id, slot)
            elif isinstance(source, LoserOf):
                loser_to[source.match_id] = SlotRef(match.match_id, slot)
    return tuple(
        dataclasses.replace(match, winner_to=winner_to.get(match.match_id), loser_to=loser_to.get(match.match_id))
        for match in match_list
    )


def _check_shape(entrants: tuple[EntrantId, ...], matches: tuple[BracketMatch, ...]) -> None:
    """Reject a malformed bracket early: a generator bug must not reach a tournament."""
    seen: dict[str, BracketMatch] = {}
    fed: set[tuple[str, bool]] = set()
    placed: list[EntrantId] = []
    for match in matches:
        if match.match_id in seen:
            raise ValueError(f"match id {match.match_id!r} is used twice")
        for source in match.sources:
            if isinstance(source, Seeded):
                placed.append(source.entrant)
            elif isinstance(source, WinnerOf | LoserOf):
                if source.match_id not in seen:
                    raise ValueError(f"{match.match_id} is fed by {source.match_id}, which does not come before it")
                feed = (source.match_id, isinstance(source, WinnerOf))
                if feed in fed:
                    raise ValueError(f"the {'winner' if feed[1] else 'loser'} of {source.match_id} goes two places")
                fed.add(feed)
        if match.played_if is not None and match.played_if.match_id not in seen:
            raise ValueError(f"{match.match_id} depends on {match.played_if.match_id}, which does not come before it")
        seen[match.match_id] = match
    if sorted(map(repr, placed)) != sorted(map(repr, entrants)):
        raise ValueError("every entrant must be placed in the bracket exactly once")
    for match in matches:
        for target, is_winner in ((match.winner_to, True), (match.loser_to, False)):
            if target is None:
                if (match.match_id, is_winner) in fed:
                    raise ValueError(
                        f"{match.match_id} does not say where its {'winner' if is_winner else 'loser'} goes"
                    )
                continue
            source = seen[target.match_id].sources[target.slot]
            expected = WinnerOf(match.match_id) if is_winner else LoserOf(match.match_id)
            if source != expected:
                raise ValueError(f"{match.match_id} sends its {'winner' if is_winner else 'loser'} to {target}")
