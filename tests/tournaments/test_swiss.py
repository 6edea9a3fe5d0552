"""Swiss pairing: Dutch score groups, no avoidable rematches, byes, a large field."""

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.tournament_workloads import random_swiss
from tournaments.generators import EntrantId, SwissPlayer, SwissRound, swiss_round


class Event:
    """A Swiss event played with random results, keeping what pairing needs."""

    def __init__(self, count: int, rng: random.Random) -> None:
        self.rng = rng
        self.score = dict.fromkeys(range(count), 0)
        self.opponents: dict[int, set[EntrantId]] = {player: set() for player in range(count)}
        self.byes = dict.fromkeys(range(count), 0)
        self.games = dict.fromkeys(range(count), 0)

    def players(self) -> list[SwissPlayer]:
        # Rank order: score, then a random tie-break standing in for real ones.
        order = sorted(self.score, key=lambda player: (-self.score[player], self.rng.random()))
        return [
            SwissPlayer(player, self.score[player], frozenset(self.opponents[player]), self.byes[player])
            for player in order
        ]

    def record(self, played: SwissRound) -> None:
        if played.bye is not None:
            assert isinstance(played.bye, int)
            self.byes[played.bye] += 1
            self.score[played.bye] += 1
            self.games[played.bye] += 1
        for pairing in played.pairings:
            assert isinstance(pairing.first, int) and isinstance(pairing.second, int)
            self.opponents[pairing.first].add(pairing.second)
            self.opponents[pairing.second].add(pairing.first)
            self.score[self.rng.choice((pairing.first, pairing.second))] += 1
            self.games[pairing.first] += 1
            self.games[pairing.second] += 1


def can_pair_without_rematch(players: Sequence[EntrantId], opponents: dict[int, set[EntrantId]]) -> bool:
    """Brute force: is there a perfect pairing of `players` with no repeat meeting?"""
    if not players:
        return True
    first, rest = players[0], players[1:]
    assert isinstance(first, int)
    return any(
        other not in opponents[first] and can_pair_without_rematch([p for p in rest if p != other], opponents)
        for other in rest
    )


def assert_well_formed(played: SwissRound, players: Sequence[SwissPlayer]) -> None:
    seen = [entrant for pairing in played.pairings for entrant in (pairing.first, pairing.second)]
    if played.bye is not None:
        seen.append(played.bye)
    assert sorted(seen) == sorted(player.entrant for player in players), "everyone plays or has the bye, once"
    assert (played.bye is not None) == (len(players) % 2 == 1)


class TestDutchPairing:
    def test_first_round_is_top_half_against_bottom_half(self) -> None:
        played = swiss_round([SwissPlayer(player, 0) for player in range(1, 9)])
        assert [(pairing.first, pairing.second) for pairing in played.pairings] == [(1, 5), (2, 6), (3, 7), (4, 8)]
        assert played.bye is None

    def test_score_groups_pair_inside_and_an_odd_group_floats_its_lowest_down(self) -> None:
        players = [SwissPlayer(player, 2 if player <= 3 else 1 if player <= 7 else 0) for player in range(1, 11)]
        played = swiss_round(players)
        # Score 2: [1] v [2, 3] pairs 1-2, and 3 floats down.
        # Score 1 with the floater: [3, 4] v [5, 6, 7] pairs 3-5 and 4-6, and 7 floats down.
        # Score 0 with the floater: [7, 8] v [9, 10].
        assert [(pairing.first, pairing.second) for pairing in played.pairings] == [
            (1, 2),
            (3, 5),
            (4, 6),
            (7, 9),
            (8, 10),
        ]

    def test_a_rematch_is_swapped_for_the_next_bottom_half_player(self) -> None:
        players = [
            SwissPlayer(1, 1, frozenset({3})),
            SwissPlayer(2, 1),
            SwissPlayer(3, 1, frozenset({1})),
            SwissPlayer(4, 1),
        ]
        played = swiss_round(players)
        assert [(pairing.first, pairing.second) for pairing in played.pairings] == [(1, 4), (2, 3)]
        assert played.rematches == ()

    def test_bye_goes_to_the_lowest_ranked_player_without_one(self) -> None:
        players = [
            SwissPlayer(1, 1),
            SwissPlayer(2, 1),
            SwissPlayer(3, 0),
            SwissPlayer(4, 0, byes=1),
            SwissPlayer(5, 0),
        ]
        played = swiss_round(players)
        assert played.bye == 5
        players[-1] = SwissPlayer(5, 0, byes=1)
        assert swiss_round(players).bye == 3

    def test_unavoidable_rematch_is_reported(self) -> None:
        players = [SwissPlayer(1, 1, frozenset({2})), SwissPlayer(2, 0, frozenset({1}))]
        played = swiss_round(players)
        assert len(played.pairings) == 1
        assert played.rematches == played.pairings

    def test_rejects_repeated_players(self) -> None:
        with pytest.raises(ValueError, match="repeated"):
            swiss_round([SwissPlayer(1, 0), SwissPlayer(1, 0)])


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=2, max_value=10), st.randoms(use_true_random=False), st.data())
def test_never_a_rematch_or_a_misplaced_bye_when_avoidable(count: int, rng: random.Random, data: st.DataObject) -> None:
    event = Event(count, rng)
    rounds = data.draw(st.integers(min_value=1, max_value=count + 1))
    for _ in range(rounds):
        players = event.players()
        played = swiss_round(players)
        assert_well_formed(played, players)
        order = [player.entrant for player in players]
        if count % 2 == 0:
            if can_pair_without_rematch(order, event.opponents):
                assert played.rematches == ()
        else:
            fewest = min(player.byes for player in players)
            eligible = [player.entrant for player in players if player.byes == fewest]
            assert played.bye in eligible
            feasible = [
                candidate
                for candidate in eligible
                if can_pair_without_rematch([p for p in order if p != candidate], event.opponents)
            ]
            if feasible:
                assert played.rematches == ()
            if eligible[-1] in feasible:
                assert played.bye == eligible[-1], "the lowest-ranked player without a bye takes it"
        for pairing in played.pairings:
            assert isinstance(pairing.first, int)
            assert (pairing in played.rematches) == (pairing.second in event.opponents[pairing.first])
        event.record(played)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=2, max_value=70), st.randoms(use_true_random=False))
def test_no_rematches_and_one_bye_each_over_a_short_event(count: int, rng: random.Random) -> None:
    # With r rounds played each player has met at most r others, so while
    # r <= (count - 1) // 2 a rematch-free pairing always exists (Dirac).
    rounds = max(1, (count - 1) // 2)
    event = Event(count, rng)
    for _ in range(rounds):
        players = event.players()
        played = swiss_round(players)
        assert_well_formed(played, players)
        assert played.rematches == ()
        event.record(played)
    assert set(event.games.values()) == {rounds}, "everyone plays (or has a bye in) every round"
    assert max(event.byes.values()) <= 1


def test_pairs_4096_players() -> None:
    # Speed is measured by benchmarks/tournament_workloads.py, not asserted here (no wall clock in tests).
    players, _ = random_swiss(4096, 5, random.Random(1))
    played = swiss_round(players)
    assert_well_formed(played, players)
    assert played.rematches == ()
