"""Value types every generator shares: entrant ids, pairings and result errors."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypeAlias

#: An entrant is whatever id the caller uses (a primary key, a name); generators
#: only compare ids for equality and never sort them, so ints and strs both work.
EntrantId: TypeAlias = int | str


@dataclass(frozen=True)
class Pairing:
    """Two entrants due to meet; `first` sits first (seat 0, "white")."""

    first: EntrantId
    second: EntrantId

    def __contains__(self, entrant: object) -> bool:
        return entrant in (self.first, self.second)

    def opponent_of(self, entrant: EntrantId) -> EntrantId:
        """The other entrant of the pairing; `ValueError` if `entrant` is not in it."""
        if entrant == self.first:
            return self.second
        if entrant == self.second:
            return self.first
        raise ValueError(f"{entrant!r} is not in {self}")


class GeneratorUserError(ValueError):
    """Something an organiser can fix: too few entrants, an option that cannot work, a result that does not fit.

    The one error the generators raise for their callers' input (as Tabbycat's
    `DrawUserError`); the services translate it once into `core.errors.Invalid`
    with this message. Any other exception from a generator is a bug. It is a
    `ValueError`, so code that only knows `ValueError` still catches it.
    """


class InvalidResultError(GeneratorUserError):
    """A result names a match that cannot be decided yet, or a winner who is not in it."""


def require_distinct(entrants: Iterable[EntrantId], *, minimum: int = 2) -> tuple[EntrantId, ...]:
    """Return the entrants as a tuple, checking there are enough and none repeats.

    Raises `GeneratorUserError` for too few entrants (the organiser enters more)
    and `ValueError` with the offending ids for a repeat (a caller's bug).
    """
    entrant_tuple = tuple(entrants)
    if len(entrant_tuple) < minimum:
        raise GeneratorUserError(f"need at least {minimum} entrants, got {len(entrant_tuple)}")
    seen: set[EntrantId] = set()
    repeated: list[EntrantId] = []
    for entrant in entrant_tuple:
        if entrant in seen:
            repeated.append(entrant)
        seen.add(entrant)
    if repeated:
        raise ValueError(f"entrants must be distinct; repeated: {repeated!r}")
    return entrant_tuple


def competition_ranks(keys: Sequence[object]) -> list[int]:
    """Competition ranks ("1224") for already-sorted keys: equal neighbours share a rank."""
    ranks: list[int] = []
    for index, key in enumerate(keys):
        if index and key == keys[index - 1]:
            ranks.append(ranks[-1])
        else:
            ranks.append(index + 1)
    return ranks
