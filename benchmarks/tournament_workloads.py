"""Timings for the generators at the sizes the issue names.

`python -m benchmarks.tournament_workloads` prints them; the `bench_tournaments`
management command wraps `run_bench` and adds the database side.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import TypeVar

from tournaments.generators.advance import advance
from tournaments.generators.double_elimination import double_elimination
from tournaments.generators.entrants import EntrantId
from tournaments.generators.swiss import SwissPlayer, swiss_round
from tournaments.standings import MatchRecord, compute_standings

Result = TypeVar("Result")

BRACKET_ENTRANTS = 4096
SWISS_PLAYERS = 4096
SWISS_ROUNDS_BEFORE = 5
STANDINGS_PLAYERS = 1024
STANDINGS_ROUNDS = 10
STANDINGS_TIE_BREAKS = ("match_wins", "buchholz", "sonneborn_berger", "game_win_pct", "card_margin", "head_to_head")


def _timed(action: Callable[[], Result]) -> tuple[Result, float]:
    started = time.perf_counter()
    result = action()
    return result, time.perf_counter() - started


def play_out_double_elimination(entrant_count: int, rng: random.Random) -> int:
    """Build a double-elimination bracket and play it to the end with random winners; returns matches played."""
    bracket = double_elimination(range(1, entrant_count + 1))
    results: dict[str, EntrantId] = {}
    while True:
        state = advance(bracket, results)
        if state.finished:
            return len(results)
        for match_id in state.ready:
            entrants = state.matches[match_id].entrants
            winner = entrants[rng.randrange(2)]
            assert winner is not None
            results[match_id] = winner


def random_swiss(player_count: int, rounds: int, rng: random.Random) -> tuple[list[SwissPlayer], list[MatchRecord]]:
    """Play `rounds` Swiss rounds with random results; the players going into the next round, and the records."""
    score = dict.fromkeys(range(1, player_count + 1), 0)
    opponents: dict[int, set[EntrantId]] = {player: set() for player in score}
    byes = dict.fromkeys(score, 0)
    records: list[MatchRecord] = []

    def players() -> list[SwissPlayer]:
        return [SwissPlayer(player, score[player], frozenset(opponents[player]), byes[player]) for player in score]

    for _ in range(rounds):
        pairing_round = swiss_round(players())
        if pairing_round.bye is not None:
            assert isinstance(pairing_round.bye, int)
            byes[pairing_round.bye] += 1
            score[pairing_round.bye] += 1
            records.append(MatchRecord.for_bye(pairing_round.bye))
        for pairing in pairing_round.pairings:
            first, second = pairing.first, pairing.second
            assert isinstance(first, int) and isinstance(second, int)
            opponents[first].add(second)
            opponents[second].add(first)
            first_wins = rng.random() < 0.5
            winner = first if first_wins else second
            score[winner] += 1
            loser_games = rng.randrange(2)
            games = (2, loser_games) if first_wins else (loser_games, 2)
            held = rng.randrange(1, 20)
            cards = (0, held) if first_wins else (held, 0)
            records.append(MatchRecord((first, second), winner, games, cards))
    return players(), records


def run_bench(seed: int = 20240601) -> list[tuple[str, float]]:
    """Time each workload once; returns (name, seconds) pairs."""
    rng = random.Random(seed)
    figures: list[tuple[str, float]] = []

    _, seconds = _timed(lambda: double_elimination(range(1, BRACKET_ENTRANTS + 1)))
    figures.append((f"double elimination, {BRACKET_ENTRANTS} entrants: generate", seconds))
    played, seconds = _timed(lambda: play_out_double_elimination(BRACKET_ENTRANTS, rng))
    figures.append(
        (f"double elimination, {BRACKET_ENTRANTS} entrants: generate and play out ({played} matches)", seconds)
    )

    swiss_players, _ = random_swiss(SWISS_PLAYERS, SWISS_ROUNDS_BEFORE, rng)
    _, seconds = _timed(lambda: swiss_round(swiss_players))
    figures.append((f"swiss, {SWISS_PLAYERS} players: pair round {SWISS_ROUNDS_BEFORE + 1}", seconds))

    _, records = random_swiss(STANDINGS_PLAYERS, STANDINGS_ROUNDS, rng)
    _, seconds = _timed(lambda: compute_standings(records, STANDINGS_TIE_BREAKS))
    figures.append((f"standings, {STANDINGS_PLAYERS} players, {len(records)} records", seconds))
    return figures


def main() -> None:
    for name, seconds in run_bench():
        print(f"{seconds * 1000:9.1f} ms  {name}")


if __name__ == "__main__":
    main()
