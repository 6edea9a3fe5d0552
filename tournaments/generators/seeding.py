"""Where entrants start in an elimination bracket: standard, random or as given.

A bracket of size 2^k has 2^k *lines*; in round one line 2i meets line 2i+1.
Seeding decides which entrant stands on which line, and which lines are empty
(byes) when the entry is not a power of two.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from enum import StrEnum

from .entrants import EntrantId, GeneratorUserError, require_distinct


class Seeding(StrEnum):
    """How entrants are placed on the bracket's lines."""

    #: Entrants are listed best first; seed 1 meets the last seed, and so on.
    STANDARD = "standard"
    #: A reproducible random draw (needs `rng_seed`), then placed as STANDARD.
    RANDOM = "random"
    #: Entrants are listed top to bottom as they stand in the bracket.
    AS_GIVEN = "as_given"


def bracket_size(entrant_count: int) -> int:
    """The smallest power of two holding `entrant_count` entrants (at least 2)."""
    if entrant_count < 2:
        raise GeneratorUserError(f"a bracket needs at least 2 entrants, got {entrant_count}")
    return 1 << (entrant_count - 1).bit_length()


def standard_seed_order(size: int) -> list[int]:
    """Seed numbers line by line for a bracket of `size` lines.

    Each doubling puts seed s next to seed (2n + 1 - s), which keeps the top
    two seeds apart until the final, the top four until the semi-finals, ...

    >>> standard_seed_order(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    if size < 2 or size & (size - 1):
        raise ValueError(f"a bracket size must be a power of two, at least 2; got {size}")
    order = [1]
    while len(order) < size:
        doubled = 2 * len(order)
        order = [seed for top in order for seed in (top, doubled + 1 - top)]
    return order


def bracket_lines(
    entrants: Sequence[EntrantId], *, seeding: Seeding = Seeding.STANDARD, rng_seed: int | None = None
) -> list[EntrantId | None]:
    """Place `entrants` on the lines of the smallest bracket that holds them.

    `None` marks an empty line: a bye for the entrant it faces. With STANDARD
    and RANDOM placement the empty lines are the missing bottom seeds, so the
    byes go to the top seeds and two byes never meet (there are fewer byes than
    round-one matches). With AS_GIVEN placement the first entrants in the list
    take the byes, one per match, and the rest are paired in list order.

    Raises `GeneratorUserError` for fewer than two entrants or RANDOM placement
    without an `rng_seed` (a draw must be reproducible), `ValueError` for repeats.
    """
    ordered = list(require_distinct(entrants))
    size = bracket_size(len(ordered))
    byes = size - len(ordered)
    if seeding is Seeding.AS_GIVEN:
        lines: list[EntrantId | None] = []
        for entrant in ordered[:byes]:
            lines += [entrant, None]
        lines += ordered[byes:]
        return lines
    if seeding is Seeding.RANDOM:
        if rng_seed is None:
            raise GeneratorUserError("random seeding needs an rng_seed so the draw can be reproduced")
        random.Random(rng_seed).shuffle(ordered)
    return [ordered[seed - 1] if seed <= len(ordered) else None for seed in standard_seed_order(size)]
