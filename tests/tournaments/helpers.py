"""Shared helpers for the pure tournament tests: play brackets out with random winners."""

from __future__ import annotations

import random

from tournaments.generators import Bracket, BracketState, EntrantId, advance


def play_out(bracket: Bracket, rng: random.Random) -> tuple[BracketState, dict[str, EntrantId]]:
    """Play every ready match with a random winner until the bracket finishes."""
    results: dict[str, EntrantId] = {}
    while True:
        state = advance(bracket, results)
        if state.finished:
            return state, results
        assert state.ready, "an unfinished bracket must have a match to play"
        for match_id in state.ready:
            first, second = state.matches[match_id].entrants
            assert first is not None and second is not None
            results[match_id] = rng.choice((first, second))


def losses_by_entrant(state: BracketState) -> dict[EntrantId, list[str]]:
    """The matches each entrant lost, in bracket order."""
    losses: dict[EntrantId, list[str]] = {}
    for view in state.matches.values():
        if view.loser is not None:
            losses.setdefault(view.loser, []).append(view.match_id)
    return losses
