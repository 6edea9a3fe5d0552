"""Tables of three and four: how many tables of which size, and who sits at each, round by round.

A round seats everyone at tables of 4 and 3: as many 4s as the count allows
with the rest at 3s (10 players: 4 + 3 + 3; 9: 3 + 3 + 3). Five players are the
one count that cannot be split so: they sit 3 + 2, the pair playing a
two-player match. Fewer than three cannot fill a table.

The first round is drawn by seed in a snake (seeds 1..T to tables 1..T, then
back T..1, skipping full tables), so every table gets a spread of strength.
Later rounds seat by standing, best first, in blocks (the leaders together at
table 1), avoiding repeat table-mates: the first seating in standing order
with no two players who already shared a table, else with one such pair,
then two, ... up to the repeats of a greedy seating (each table in turn takes,
in standing order, the players who add the fewest repeats), by a depth-first
search within one budget for the round: a small field gets the fewest
repeats possible; past the budget the best seating found so far stands.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence, Set
from itertools import combinations

from .entrants import EntrantId, GeneratorUserError, require_distinct

#: Smallest number of players a tables event can seat.
MIN_TABLE_PLAYERS = 3
#: Nodes the searches of one round may visit in all before the greedy seating stands (about a second at most).
SEARCH_BUDGET = 200_000

Table = tuple[EntrantId, ...]
"""The players of one table in seat order."""


def table_sizes(count: int) -> list[int]:
    """The tables of one round for `count` players, largest first (`GeneratorUserError` under three)."""
    if count < MIN_TABLE_PLAYERS:
        raise GeneratorUserError(f"A tables event needs at least {MIN_TABLE_PLAYERS} players, not {count}.")
    if count == 5:
        return [3, 2]
    threes = (-count) % 4  # 0, 1, 2 or 3 tables of three make the rest divisible by four
    return [4] * ((count - 3 * threes) // 4) + [3] * threes


def first_round(seeded: Sequence[EntrantId]) -> list[Table]:
    """Round 1: seeds dealt to the tables in a snake, best seed first at each table."""
    players = require_distinct(seeded, minimum=MIN_TABLE_PLAYERS)
    sizes = table_sizes(len(players))
    tables: list[list[EntrantId]] = [[] for _ in sizes]
    order = list(range(len(sizes)))
    forward = True
    index = 0
    while index < len(players):
        for table in order if forward else reversed(order):
            if index < len(players) and len(tables[table]) < sizes[table]:
                tables[table].append(players[index])
                index += 1
        forward = not forward
    return [tuple(table) for table in tables]


def repeats(tables: Sequence[Table], met: Mapping[EntrantId, Set[EntrantId]]) -> int:
    """Pairs of table-mates who already shared a table."""
    return sum(1 for table in tables for a, b in combinations(table, 2) if b in met.get(a, ()))


def standing_round(ranked: Sequence[EntrantId], met: Mapping[EntrantId, Set[EntrantId]]) -> list[Table]:
    """A later round: tables in blocks by standing (`ranked`, best first), with the fewest repeat table-mates.

    `met` maps a player to everyone they have shared a table with. Seats at a
    table follow the standing. Pure and deterministic.
    """
    players = require_distinct(ranked, minimum=MIN_TABLE_PLAYERS)
    sizes = table_sizes(len(players))
    greedy = _fewest_repeats(list(players), sizes, met)
    budget = [SEARCH_BUDGET]
    # Fewer repeats than the greedy seating, 0 first; the first found is the fewest (within the budget).
    for allowed in range(repeats(greedy, met)):
        found = _search(list(players), sizes, met, allowed, budget)
        if found is not None:
            return found
        if budget[0] <= 0:
            break
    return greedy


def _clash(player: EntrantId, others: Sequence[EntrantId], met: Mapping[EntrantId, Set[EntrantId]]) -> int:
    seen = met.get(player, ())
    return sum(1 for other in others if other in seen)


def _search(
    players: list[EntrantId],
    sizes: list[int],
    met: Mapping[EntrantId, Set[EntrantId]],
    allowed: int,
    budget: list[int],
) -> list[Table] | None:
    """The first seating in standing order with at most `allowed` repeats, or None (none, or out of budget).

    Depth first: the best player left heads the next table (of any size still
    to fill), joined by the best players left whose repeats stay within `allowed`.
    """
    rank = {player: index for index, player in enumerate(players)}

    def members(
        table: tuple[EntrantId, ...], pool: list[EntrantId], needed: int, spare: int
    ) -> Iterator[tuple[tuple[EntrantId, ...], int]]:
        if needed == 0:
            yield table, spare
            return
        for index, candidate in enumerate(pool):
            if budget[0] <= 0:
                return
            budget[0] -= 1
            clash = _clash(candidate, table, met)
            if clash <= spare:
                yield from members((*table, candidate), pool[index + 1 :], needed - 1, spare - clash)

    def seat(remaining: list[EntrantId], sizes_left: list[int], spare: int) -> list[Table] | None:
        if not remaining:
            return []
        for size in dict.fromkeys(sizes_left):
            for table, left_spare in members((remaining[0],), remaining[1:], size - 1, spare):
                left = [player for player in remaining if player not in table]
                sizes_after = list(sizes_left)
                sizes_after.remove(size)
                tail = seat(left, sizes_after, left_spare)
                if tail is not None:
                    return [table, *tail]
                if budget[0] <= 0:
                    return None
        return None

    found = seat(players, sizes, allowed)
    if found is None:
        return None
    # Tables as the sizes list them (largest first), each block in standing order.
    return sorted(found, key=lambda table: (-len(table), rank[table[0]]))


def _fewest_repeats(players: list[EntrantId], sizes: list[int], met: Mapping[EntrantId, Set[EntrantId]]) -> list[Table]:
    """Each table in turn: the best player left, then whoever adds the fewest repeats (standing breaks ties)."""
    rank = {player: index for index, player in enumerate(players)}
    remaining = list(players)
    tables: list[Table] = []
    for size in sizes:
        table = [remaining.pop(0)]
        while len(table) < size:
            best = min(range(len(remaining)), key=lambda index: (_clash(remaining[index], table, met), index))
            table.append(remaining.pop(best))
        tables.append(tuple(sorted(table, key=rank.__getitem__)))
    return tables
