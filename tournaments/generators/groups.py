"""Groups followed by playoffs: round-robin groups, then the top of each into single elimination.

Groups are filled by snake seeding (1..G, then G..1, ...), so each group gets
a fair share of the seeds. The playoff seeds put the group winners first and
place each later finisher where they meet their own group-mates as late as
the bracket allows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .entrants import EntrantId, GeneratorUserError, require_distinct
from .round_robin import RoundRobinSchedule, round_robin
from .seeding import bracket_size, standard_seed_order


@dataclass(frozen=True)
class GroupStage:
    """The groups (best seed first in each) and each group's round-robin schedule."""

    groups: tuple[tuple[EntrantId, ...], ...]
    schedules: tuple[RoundRobinSchedule, ...]


def group_stage(entrants: Sequence[EntrantId], *, group_count: int, double: bool = False) -> GroupStage:
    """Snake-seed `entrants` (best first) into `group_count` groups of at least two."""
    seeded = require_distinct(entrants)
    if group_count < 1 or len(seeded) < 2 * group_count:
        raise GeneratorUserError(f"{len(seeded)} entrants cannot fill {group_count} groups of at least 2")
    groups: list[list[EntrantId]] = [[] for _ in range(group_count)]
    for index, entrant in enumerate(seeded):
        lap, offset = divmod(index, group_count)
        groups[offset if lap % 2 == 0 else group_count - 1 - offset].append(entrant)
    return GroupStage(
        groups=tuple(tuple(group) for group in groups),
        schedules=tuple(round_robin(group, double=double) for group in groups),
    )


def playoff_seeds(group_rankings: Sequence[Sequence[EntrantId]], *, advance_per_group: int) -> list[EntrantId]:
    """Seed order (best first) for a STANDARD single elimination of the top of each group.

    Group winners take the top seeds in group order. Each later tier takes the
    next block of seeds, assigned so that the earliest meeting of any two
    group-mates is as late as possible (a bottleneck assignment: the latest
    round that every group of the tier can be given, then the best seeds
    within that).
    """
    if advance_per_group < 1:
        raise GeneratorUserError("at least one entrant per group must advance")
    for index, ranking in enumerate(group_rankings):
        if len(ranking) < advance_per_group:
            raise GeneratorUserError(f"group {index + 1} has {len(ranking)} entrants; {advance_per_group} must advance")
    group_count = len(group_rankings)
    order = standard_seed_order(bracket_size(group_count * advance_per_group))
    line_of_seed = {seed: line for line, seed in enumerate(order)}
    seeds: dict[int, EntrantId] = {}
    lines_by_group: list[list[int]] = [[] for _ in group_rankings]
    for tier in range(advance_per_group):
        free = list(range(tier * group_count + 1, (tier + 1) * group_count + 1))

        def first_meeting(group: int, seed: int) -> int:
            # Two lines first meet in the round given by their highest differing bit.
            mates = lines_by_group[group]
            return min(((line_of_seed[seed] ^ mate).bit_length() for mate in mates), default=len(order))

        # Winners simply take the top seeds in group order.
        assignment = free if tier == 0 else _latest_meeting_assignment(group_count, free, first_meeting)
        for group, seed in enumerate(assignment):
            seeds[seed] = group_rankings[group][tier]
            lines_by_group[group].append(line_of_seed[seed])
    return [seeds[seed] for seed in sorted(seeds)]


def _latest_meeting_assignment(
    group_count: int, free: list[int], first_meeting: Callable[[int, int], int]
) -> list[int]:
    """One seed per group from `free`, maximising the earliest group-mate meeting (seed per group)."""
    thresholds = sorted({first_meeting(group, seed) for group in range(group_count) for seed in free}, reverse=True)
    for threshold in thresholds:
        # Prefer later meetings, then better seeds.
        options = [
            sorted(
                (seed for seed in free if first_meeting(group, seed) >= threshold),
                key=lambda seed, group=group: (-first_meeting(group, seed), seed),  # type: ignore[misc]
            )
            for group in range(group_count)
        ]
        assignment = _perfect_assignment(options)
        if assignment is not None:
            return assignment
    raise AssertionError("a full assignment exists at the lowest threshold")


def _perfect_assignment(options: list[list[int]]) -> list[int] | None:
    """A distinct seed for every group from its options (bipartite matching), or None."""
    holder: dict[int, int] = {}

    def place(group: int, visited: set[int]) -> bool:
        for seed in options[group]:
            if seed in visited:
                continue
            visited.add(seed)
            if seed not in holder or place(holder[seed], visited):
                holder[seed] = group
                return True
        return False

    if not all(place(group, set()) for group in range(len(options))):
        return None
    by_group = {group: seed for seed, group in holder.items()}
    return [by_group[group] for group in range(len(options))]
