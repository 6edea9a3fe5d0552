"""A decided match reaches the apps above through the listener registry, not an import."""

from matches.listeners import match_finished_listeners
from tournaments.services import tournament_match_decided


def test_tournaments_registers_its_listener_at_start_up() -> None:
    assert tournament_match_decided in match_finished_listeners()
