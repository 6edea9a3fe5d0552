"""The blossom matching finds a maximum matching, checked against brute force."""

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.generators.matching import UNMATCHED, Matching


def brute_force_maximum(size: int, edges: set[frozenset[int]]) -> int:
    best = 0
    edge_list = list(edges)
    for count in range(size // 2, 0, -1):
        for chosen in itertools.combinations(edge_list, count):
            covered = [vertex for edge in chosen for vertex in edge]
            if len(covered) == len(set(covered)):
                return count
    return best


@settings(max_examples=300, deadline=None)
@given(
    st.integers(min_value=1, max_value=9), st.floats(min_value=0.1, max_value=0.9), st.randoms(use_true_random=False)
)
def test_maximum_matching_size(size: int, density: float, rng: random.Random) -> None:
    edges = {frozenset(pair) for pair in itertools.combinations(range(size), 2) if rng.random() < density}

    def adjacent(first: int, second: int) -> bool:
        return frozenset((first, second)) in edges

    matching = Matching(size, adjacent, lambda vertex: range(size))
    matching.maximise(range(size))
    pairs = {frozenset((vertex, matching.mate[vertex])) for vertex in range(size) if matching.mate[vertex] != UNMATCHED}
    assert pairs <= edges
    for vertex in range(size):
        if matching.mate[vertex] != UNMATCHED:
            assert matching.mate[matching.mate[vertex]] == vertex
    assert len(pairs) == brute_force_maximum(size, edges)


def test_needs_a_blossom() -> None:
    # A triangle 0-1-2 with a tail 2-3 and 0-4: greedy 0-1 leaves 2-3 and 4 free;
    # the maximum (0-4, 1-2... ) needs an augmenting path through the odd cycle.
    edges = {frozenset(pair) for pair in [(0, 1), (1, 2), (2, 0), (2, 3), (0, 4), (4, 5)]}
    matching = Matching(6, lambda first, second: frozenset((first, second)) in edges, lambda vertex: range(6))
    matching.pair(1, 2)
    matching.pair(0, 4)
    matching.maximise(range(6))
    assert matching.unmatched() == []
