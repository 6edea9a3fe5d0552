"""A match's seats in words for the pages: names, places and timed scores, pure (no queries).

Two players read "ann v bo"; a table of three or four reads "ann, bo, cy and di"
(a "v" between the first two would hide the others). A game's places come as
lines, best first, with the players who share a place on one line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

_ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


def names_in_words(names: Sequence[str]) -> str:
    """ "ann", "ann and bo", "ann, bo and cy"."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def players_title(names: Sequence[str]) -> str:
    """A match's players as its title: "ann v bo" for two, in words for a table."""
    return " v ".join(names) if len(names) == 2 else names_in_words(names)


def ordinal(place: int) -> str:
    return _ORDINALS.get(place, f"{place}th")


def clock_limit(ms: int) -> str:
    """A time limit in words: "1 min", "90 s", "2 min 30 s"."""
    minutes, seconds = divmod(round(ms / 1000), 60)
    if not minutes:
        return f"{seconds} s"
    return f"{minutes} min" + (f" {seconds} s" if seconds else "")


@dataclass(frozen=True, slots=True)
class PlaceLine:
    """One place of a game: who took it (several when shared) and, in a timed game, each one's cards played."""

    place: int
    handles: tuple[str, ...]
    timed: tuple[int, ...] | None = None

    @property
    def shared(self) -> bool:
        return len(self.handles) > 1

    @property
    def label(self) -> str:
        return ordinal(self.place) + (" (shared)" if self.shared else "")

    @property
    def who(self) -> str:
        """The players with their timed scores: "ann (23 cards), bo (23 cards)"."""
        if self.timed is None:
            return names_in_words(self.handles)
        return names_in_words(
            [f"{h} ({n} card{'s' if n != 1 else ''})" for h, n in zip(self.handles, self.timed, strict=True)]
        )


def place_lines(
    places: Sequence[int] | None, handles: Sequence[str], timed: Sequence[int] | None = None
) -> list[PlaceLine]:
    """A game's places per seat as lines, best first (seat order within a shared place); [] without places."""
    if not places or len(places) != len(handles):
        return []
    if timed is not None and len(timed) != len(handles):
        timed = None
    lines = []
    for place in sorted(set(places)):
        seats = [seat for seat, p in enumerate(places) if p == place]
        lines.append(
            PlaceLine(
                place,
                tuple(handles[seat] for seat in seats),
                None if timed is None else tuple(timed[seat] for seat in seats),
            )
        )
    return lines
