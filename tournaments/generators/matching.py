"""Maximum matching in a general graph (Edmonds' blossom algorithm).

Swiss pairing needs it to know for sure whether a round can be paired without
rematches: pairing is not bipartite, so a plain bipartite matching (or a
greedy pass) can miss a pairing that exists. The graph is given by a
predicate rather than adjacency lists because a Swiss graph ("may meet") is
nearly complete and materialising it for thousands of players would cost
more than pairing them.

The caller starts from a good partial matching and augments it; each search
looks at unmatched vertices first, so in a dense graph an augmenting path is
usually found after scanning one vertex's neighbours.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable

UNMATCHED = -1


class Matching:
    """A matching on vertices 0..size-1 that can be grown by augmenting paths.

    `adjacent(u, v)` says whether u and v may be matched (it must be
    symmetric); `neighbour_order(v)` lists the vertices to try for v, best
    first, so the caller decides which augmenting path is preferred.
    """

    def __init__(
        self,
        size: int,
        adjacent: Callable[[int, int], bool],
        neighbour_order: Callable[[int], Iterable[int]],
    ) -> None:
        self.size = size
        self.adjacent = adjacent
        self.neighbour_order = neighbour_order
        self.mate = [UNMATCHED] * size

    def pair(self, first: int, second: int) -> None:
        """Match two unmatched vertices directly (to seed the matching)."""
        assert self.mate[first] == UNMATCHED and self.mate[second] == UNMATCHED
        self.mate[first], self.mate[second] = second, first

    def unmatched(self) -> list[int]:
        """Vertices without a mate, in order."""
        return [vertex for vertex in range(self.size) if self.mate[vertex] == UNMATCHED]

    def maximise(self, vertices: Iterable[int]) -> None:
        """Augment from each of `vertices` still unmatched.

        Once no augmenting path starts at a vertex, none will after later
        augmentations either, so one pass over all unmatched vertices leaves a
        maximum matching.
        """
        for vertex in vertices:
            if self.mate[vertex] == UNMATCHED:
                self.augment_from(vertex)

    def augment_from(self, root: int) -> bool:
        """Find an augmenting path from the unmatched `root` and flip it; False if there is none."""
        return _BlossomSearch(self, root).run() != UNMATCHED


class _BlossomSearch:
    """One breadth-first search for an augmenting path, shrinking odd cycles (blossoms)."""

    def __init__(self, matching: Matching, root: int) -> None:
        self.matching = matching
        self.mate = matching.mate
        self.root = root
        self.parent = [UNMATCHED] * matching.size
        self.base = list(range(matching.size))
        self.in_queue = [False] * matching.size
        self.queue: deque[int] = deque([root])
        self.in_queue[root] = True

    def run(self) -> int:
        """Augment along the first path found and return its far end, or UNMATCHED."""
        mate, parent, base = self.mate, self.parent, self.base
        adjacent = self.matching.adjacent
        while self.queue:
            vertex = self.queue.popleft()
            for other in self.matching.neighbour_order(vertex):
                if other == vertex or base[vertex] == base[other] or mate[vertex] == other:
                    continue
                if not adjacent(vertex, other):
                    continue
                if other == self.root or (mate[other] != UNMATCHED and parent[mate[other]] != UNMATCHED):
                    self._contract(vertex, other)
                elif parent[other] == UNMATCHED:
                    parent[other] = vertex
                    if mate[other] == UNMATCHED:
                        self._flip(other)
                        return other
                    partner = mate[other]
                    self.in_queue[partner] = True
                    self.queue.append(partner)
        return UNMATCHED

    def _flip(self, end: int) -> None:
        vertex = end
        while vertex != UNMATCHED:
            previous = self.parent[vertex]
            following = self.mate[previous]
            self.mate[vertex], self.mate[previous] = previous, vertex
            vertex = following

    def _common_base(self, first: int, second: int) -> int:
        seen = [False] * self.matching.size
        vertex = first
        while True:
            vertex = self.base[vertex]
            seen[vertex] = True
            if self.mate[vertex] == UNMATCHED:
                break
            vertex = self.parent[self.mate[vertex]]
        vertex = second
        while True:
            vertex = self.base[vertex]
            if seen[vertex]:
                return vertex
            vertex = self.parent[self.mate[vertex]]

    def _contract(self, first: int, second: int) -> None:
        blossom_base = self._common_base(first, second)
        in_blossom = [False] * self.matching.size
        self._mark_path(first, blossom_base, second, in_blossom)
        self._mark_path(second, blossom_base, first, in_blossom)
        for vertex in range(self.matching.size):
            if in_blossom[self.base[vertex]]:
                self.base[vertex] = blossom_base
                if not self.in_queue[vertex]:
                    self.in_queue[vertex] = True
                    self.queue.append(vertex)

    def _mark_path(self, vertex: int, blossom_base: int, child: int, in_blossom: list[bool]) -> None:
        while self.base[vertex] != blossom_base:
            in_blossom[self.base[vertex]] = True
            in_blossom[self.base[self.mate[vertex]]] = True
            self.parent[vertex] = child
            child = self.mate[vertex]
            vertex = self.parent[self.mate[vertex]]
