"""What a pairing records of its decided match, read from the match's games and stored verdicts (reads only).

The services copy these snapshot fields onto the pairing when its match is
decided or corrected (`tournaments.services.pairings`); the standings then
load in one query, and `manage.py audit_records` recomputes them to compare.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from matches.models import Game
from matches.placings import competition_places
from matches.series import TableGameRow, table_scores
from replays.models import MatchLog

from .models import Tournament, TournamentMatch


def match_snapshot(match_id: int, player_one_id: int | None, player_two_id: int | None) -> tuple[int, int, int, int]:
    """What a pairing records of its decided match: games won, and cards held at the end of games lost.

    Returns (games won by one, by two, cards one held, cards two held). The
    cards come from the verdicts stored with the verified logs (the engine's
    final counts per seat), never from running the engine again, and only from
    a log that names the game's winner: a game whose result was corrected
    against its log counts no cards, like a game without a log.
    """
    games = list(Game.objects.filter(match_id=match_id, status=Game.Status.DECIDED).values_list("pk", "winner_id"))
    winners = dict(games)
    held_by_loser: dict[int, int] = {}
    for game_id, winner_id, winner_seat, cards_left in (
        MatchLog.objects.filter(game__match_id=match_id, status=MatchLog.Status.VERIFIED, winner_seat__isnull=False)
        .order_by("id")
        .values_list("game_id", "winner_id", "winner_seat", "cards_left")
    ):
        if cards_left is not None and winner_id == winners.get(game_id):
            held_by_loser.setdefault(game_id, sum(left for seat, left in enumerate(cards_left) if seat != winner_seat))
    won = {player_one_id: 0, player_two_id: 0}
    held = {player_one_id: 0, player_two_id: 0}
    for game_id, winner_id in games:
        if winner_id not in won:
            continue
        won[winner_id] += 1
        loser_id = player_two_id if winner_id == player_one_id else player_one_id
        held[loser_id] += held_by_loser.get(game_id, 0)
    return won[player_one_id], won[player_two_id], held[player_one_id], held[player_two_id]


@dataclass(frozen=True)
class SeatSnapshot:
    """What a pairing records of its decided match per seat: places and points (tables), timed cards."""

    places: list[int] | None
    points: list[int] | None
    timed: list[int] | None


def seat_snapshot(
    match_id: int, seat_ids: tuple[int, ...], *, points_per_place: tuple[int, ...] | None, timed: bool
) -> SeatSnapshot:
    """A table's places and points, and a timed match's cards in time, from its counted games (one query).

    With `points_per_place` (a tables event), each decided game's places earn
    points, and the match's places follow from them as its series ranks them
    (points, then first places, then the latest game's places): the winner
    is alone in first place. A two-player game's places come from its winner.
    With `timed`, each seat's timed scores over the decided games are summed.
    """
    rows = list(
        Game.objects.filter(match_id=match_id, status=Game.Status.DECIDED)
        .order_by("number")
        .values_list("number", "places", "winner_id", "timed_scores")
    )
    places = points = None
    if points_per_place is not None:
        games = [
            (number, Game.Status.DECIDED, game_places or _places_from_winner(seat_ids, winner_id))
            for number, game_places, winner_id, _scores in rows
        ]
        places, points = table_standing(games, seats=len(seat_ids), points_per_place=points_per_place)
    cards = None
    if timed:
        cards = [0] * len(seat_ids)
        for _number, _places, _winner, scores_ in rows:
            for seat, count in enumerate(scores_ or ()):
                cards[seat] += count
    return SeatSnapshot(places, points, cards)


def table_standing(
    games: Iterable[TableGameRow], *, seats: int, points_per_place: tuple[int, ...]
) -> tuple[list[int], list[int]]:
    """A table's places and points per seat from its games, as its series ranks them (pure).

    Points, then first places, then the latest game's places: the series
    winner is alone in first place.
    """
    scores = table_scores(games, seats=seats, points_per_place=points_per_place)
    points = [score.points for score in scores]
    places = list(competition_places([(-score.points, -score.firsts, *score.recent_places) for score in scores]))
    return places, points


#: The pairing fields a decided match's snapshot fills (`pairing_snapshot`).
SNAPSHOT_FIELDS = ("games_one", "games_two", "cards_left_one", "cards_left_two", "places", "points", "timed")


def pairing_snapshot(
    tournament: Tournament, pairing: TournamentMatch, points_per_place: tuple[int, ...] | None
) -> dict[str, object]:
    """Every snapshot field of a pairing whose match is decided, as its games now stand.

    Two-player pairings record games and cards as always (nothing more unless
    the tournament is timed); a table (`points_per_place` given by its format)
    records places and points per seat; a timed tournament, cards in time per seat.
    """
    assert pairing.match_id is not None
    seats = pairing.seat_ids
    fields: dict[str, object] = dict.fromkeys(SNAPSHOT_FIELDS[:4], 0) | dict.fromkeys(SNAPSHOT_FIELDS[4:])
    if len(seats) == 2:
        snapshot = match_snapshot(pairing.match_id, seats[0], seats[1])
        fields |= dict(zip(SNAPSHOT_FIELDS[:4], snapshot, strict=True))
    timed = tournament.time_limit_ms is not None
    if points_per_place is not None or timed:
        seat = seat_snapshot(pairing.match_id, seats, points_per_place=points_per_place, timed=timed)
        fields |= {"places": seat.places, "points": seat.points, "timed": seat.timed}
    return fields


def _places_from_winner(seat_ids: tuple[int, ...], winner_id: int | None) -> list[int] | None:
    if winner_id is None:
        return None
    return [1 if pk == winner_id else 2 for pk in seat_ids]
