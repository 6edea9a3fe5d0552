"""A game's result as people give it and as it is kept: places by handle, a team's winner, two players' places.

Reading only: these check and translate a result (raising `Invalid` with the
field at fault); `games` applies it under the match's lock.
"""

from __future__ import annotations

from typing import Any

from core.errors import Invalid

from ..models import Game, Match, Player
from ..placings import check_places, places_from_winner, sole_winner, team_places


def game_result_places(match: Match, winner: Player | None, places: tuple[int, ...] | None) -> tuple[int, ...] | None:
    """The places a decided game keeps: as given in a table; from the winner in a timed two-player match
    and in Team Speed (the winner's team first).

    None in an untimed two-player match (its winner is its result) and for a void game.
    """
    if places is not None or not match.ranks_games or winner is None:
        return places
    seat = match.player_ids.index(winner.pk)
    if match.is_team:
        team = next(team for team in match.teams if seat in team)
        return team_places(winning_team=team, seats=len(match.player_ids))
    return places_from_winner(seat, len(match.player_ids))


def team_winner(match: Match, player: Player | None) -> Player | None:
    """Team Speed: a game's or match's winner is its winning team, named by that team's first seat."""
    if player is None or not match.is_team:
        return player
    first = match.team_of(player.pk)[0]
    return next(seat for seat in match.players if seat.pk == first)


def two_player_places(match: Match, winner_id: int) -> tuple[int, ...] | None:
    """A two-player report's places, as a verified log of a timed match states them (None when untimed)."""
    if not match.ranks_games:
        return None
    return places_from_winner(match.player_ids.index(winner_id), 2)


def seat_player(match: Match, player_id: int | None) -> Player | None:
    return next((player for player in match.players if player.pk == player_id), None)


def seat_names(match: Match) -> str:
    handles = [repr(player.handle) for player in match.players]
    return ", ".join(handles[:-1]) + " or " + handles[-1]


def winner_from_handle(match: Match, handle: str | None) -> Player | None:
    if handle is None:
        return None
    for player in match.players:
        if player.handle.lower() == handle.lower():
            return player
    raise Invalid(
        f"{handle!r} does not play in this match; the winner is {seat_names(match)}.", extra={"field": "winner"}
    )


def places_from_handles(match: Match, places: dict[str, int] | None) -> tuple[int, ...] | None:
    """A table's places given by handle ({"ann": 1, "bob": 2, ...}) in seat order, checked; None stays None."""
    if places is None:
        return None
    by_handle = {str(handle).lower(): place for handle, place in places.items()}
    handles = [player.handle.lower() for player in match.players]
    unknown = sorted(set(by_handle) - set(handles))
    missing = [player.handle for player in match.players if player.handle.lower() not in by_handle]
    if unknown or missing:
        raise Invalid(
            "Give a place for every player of this match and no one else "
            f"({seat_names(match)}); {'unknown: ' + ', '.join(unknown) if unknown else 'missing: ' + ', '.join(missing)}.",
            extra={"field": "places"},
        )
    try:
        return check_places([by_handle[handle] for handle in handles])
    except ValueError as exc:
        raise Invalid(f"The places are not a finishing order: {exc}.", extra={"field": "places"}) from exc


def team_result(match: Match, winner: str | None) -> tuple[Player | None, tuple[int, ...] | None]:
    """A team game's result as a person gives it: any player of the winning team names that team."""
    if winner is None:
        raise Invalid("Name a player of the winning team.", extra={"field": "winner"})
    chosen = team_winner(match, winner_from_handle(match, winner))
    assert chosen is not None
    return chosen, game_result_places(match, chosen, None)


def table_result(
    match: Match, *, winner: str | None, places: dict[str, int] | None, allow_void: bool
) -> tuple[Player | None, tuple[int, ...] | None]:
    """A table's result as a person gives it: places for every seat (their sole first is the winner)."""
    seat_places = places_from_handles(match, places)
    if seat_places is None:
        if allow_void and winner is None:
            return None, None
        raise Invalid(
            "A game at a table of three or four is reported with every player's place, "
            'e.g. {"places": {"ann": 1, "bob": 2, "cy": 3}}.',
            extra={"field": "places"},
        )
    first = sole_winner(seat_places)
    chosen = None if first is None else match.players[first]
    named = winner_from_handle(match, winner)
    if named is not None and named != chosen:
        raise Invalid(f"The winner {winner!r} is not the one player in first place.", extra={"field": "winner"})
    return chosen, seat_places


def report_entry(winner: Player | None, places: tuple[int, ...] | None) -> dict[str, Any]:
    return {"winner": None if winner is None else winner.pk, "places": None if places is None else list(places)}


def claimed_places(game: Game) -> tuple[int, ...] | None:
    return None if game.claimed_places is None else tuple(game.claimed_places)


def claimed_timed(game: Game) -> tuple[int, ...] | None:
    return None if game.claimed_timed_scores is None else tuple(game.claimed_timed_scores)
