"""Pairing rows: the one place the generators' plain data becomes `TournamentMatch` rows.

The formats (`tournaments.formats`) decide what to pair; these helpers make
the rows, give pairings their matches.Match (through `matches.services.match_create_bulk`,
a round at a time) once both players are known, copy a bracket's state into its rows, and
finish a tournament with its final places. Called with the tournament locked.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from django.utils import timezone

from matches.models import Game, Match, Player
from matches.placings import DEFAULT_POINTS_PER_PLACE, competition_places
from matches.series import TableGameRow, table_scores
from matches.services import match_create, match_create_bulk
from replays.models import MatchLog
from tournaments.generators import Bracket, BracketState, MatchStatus, Placing

from .models import Entrant, Tournament, TournamentMatch

#: Pairing statuses after which nothing more is played in them.
SETTLED = (TournamentMatch.Status.DECIDED, TournamentMatch.Status.BYE, TournamentMatch.Status.VOID)

_STATUS_OF_VIEW = {
    MatchStatus.WAITING: TournamentMatch.Status.WAITING,
    MatchStatus.READY: TournamentMatch.Status.READY,
    MatchStatus.DECIDED: TournamentMatch.Status.DECIDED,
    MatchStatus.BYE: TournamentMatch.Status.BYE,
    MatchStatus.VOID: TournamentMatch.Status.VOID,
}
_SYNCED_FIELDS = ["player_one", "player_two", "status", "winner", "result_source", "match"]


@dataclass(frozen=True)
class Run:
    """A locked, running tournament with its entrants (best seed first) and pairings (in creation order)."""

    tournament: Tournament
    entrants: list[Entrant]
    pairings: list[TournamentMatch]

    @property
    def seeded(self) -> list[int]:
        return [entrant.player_id for entrant in self.entrants]

    @property
    def players(self) -> dict[int, Player]:
        return {entrant.player_id: entrant.player for entrant in self.entrants}

    def all_settled(self, pairings: Iterable[TournamentMatch] | None = None) -> bool:
        return all(pairing.status in SETTLED for pairing in (self.pairings if pairings is None else pairings))


def table_match_for(tournament: Tournament, *players: Player) -> Match:
    """A table's matches.Match (two to four players) with the tournament's series, ruleset and time limit.

    Through `match_create`, one table at a time (a round has a quarter as many
    tables as players; `match_create_bulk` makes two-player matches only). A
    table of three or four takes the tournament's ruleset and points per
    place for its size (`table_setup`).
    """
    series = {"best_of" if tournament.series == Match.Series.BEST_OF else "first_to": tournament.series_length}
    ruleset, points = table_setup(tournament, len(players))
    return match_create(
        players=[player.handle for player in players],
        ruleset=ruleset,
        created_by=None,
        confirmation=tournament.confirmation,
        confirm_within=tournament.confirm_within,
        points_per_place=points,
        time_limit_ms=tournament.time_limit_ms,
        **series,
    )


def table_setup(tournament: Tournament, seats: int) -> tuple[object, list[int] | None]:
    """The ruleset and points per place a match of `seats` players in this tournament plays with.

    Two seats: the tournament's ruleset, counting games won. Three or four:
    the tournament's ruleset for that size (the "three-way" and "four-way"
    presets unless the organiser gave others) and its points per place
    (None: the defaults of `matches.placings`).
    """
    if seats == 2:
        return tournament.ruleset, None
    if seats == 3:
        return tournament.ruleset_three or "three-way", tournament.points_three
    return tournament.ruleset_four or "four-way", tournament.points_four


def table_points(tournament: Tournament, seats: int) -> tuple[int, ...]:
    """Points per place at a table of `seats` in this tournament.

    A pair (the table of two that five players leave) scores the first and
    the last place of a table of three: its winner finished first, its loser last.
    """
    if seats == 2:
        three = table_points(tournament, 3)
        return (three[0], three[-1])
    own = tournament.points_three if seats == 3 else tournament.points_four
    return tuple(own) if own else DEFAULT_POINTS_PER_PLACE[seats]


def table_row(
    tournament: Tournament, key: str, *, section: str, round_number: int, position: int, players: list[Player]
) -> TournamentMatch:
    """A ready table of two to four players (seat order as given) with its match."""
    seats = [*players, None, None][:4]
    return TournamentMatch(
        tournament=tournament,
        key=key,
        bracket=section,
        round=round_number,
        position=position,
        status=TournamentMatch.Status.READY,
        player_one=seats[0],
        player_two=seats[1],
        player_three=seats[2],
        player_four=seats[3],
        match=table_match_for(tournament, *players),
    )


def pairing_row(
    tournament: Tournament, key: str, *, section: str, round_number: int, position: int, one: Player, two: Player
) -> TournamentMatch:
    """A ready pairing (not saved): `pairings_create` gives it its match."""
    return TournamentMatch(
        tournament=tournament,
        key=key,
        bracket=section,
        round=round_number,
        position=position,
        status=TournamentMatch.Status.READY,
        player_one=one,
        player_two=two,
    )


def bye_row(tournament: Tournament, key: str, *, section: str, round_number: int, player_id: int) -> TournamentMatch:
    """A round's bye: settled at once, without a match."""
    return TournamentMatch(
        tournament=tournament,
        key=key,
        bracket=section,
        round=round_number,
        position=0,
        status=TournamentMatch.Status.BYE,
        player_one_id=player_id,
        winner_id=player_id,
        result_source=TournamentMatch.Source.BYE,
        decided_at=timezone.now(),
    )


def matches_attach(tournament: Tournament, pairings: Iterable[TournamentMatch], players: Mapping[int, Player]) -> None:
    """Give every ready pairing without a match its matches.Match, with the tournament's series and ruleset.

    All of them at once (`match_create_bulk`): a round of 2,048 pairings costs
    the statements of one, where a `match_create` each took seconds.
    """
    due = [
        pairing for pairing in pairings if pairing.status == TournamentMatch.Status.READY and pairing.match_id is None
    ]
    if not due:
        return
    series = {"best_of" if tournament.series == Match.Series.BEST_OF else "first_to": tournament.series_length}
    pairs = []
    for pairing in due:
        assert pairing.player_one_id is not None and pairing.player_two_id is not None
        pairs.append((players[pairing.player_one_id], players[pairing.player_two_id]))
    matches = match_create_bulk(
        pairs=pairs,
        ruleset=tournament.ruleset,
        created_by=None,
        confirmation=tournament.confirmation,
        confirm_within=tournament.confirm_within,
        time_limit_ms=tournament.time_limit_ms,
        **series,
    )
    for pairing, match in zip(due, matches, strict=True):
        pairing.match = match


def pairings_create(
    tournament: Tournament, rows: list[TournamentMatch], players: Mapping[int, Player]
) -> list[TournamentMatch]:
    """Save new pairing rows, the ready ones with their matches: a few statements however many rows."""
    matches_attach(tournament, rows, players)
    return TournamentMatch.objects.bulk_create(rows)


def bracket_rows_create(
    tournament: Tournament, bracket: Bracket, state: BracketState, players: Mapping[int, Player]
) -> list[TournamentMatch]:
    """One row per bracket match, filled from `state` (the ready ones with their matches), saved at once.

    Filled before the INSERT, so `bracket_sync` then finds nothing to change:
    updating thousands of rows after inserting them took seconds (Django's
    bulk_update is one CASE per field, which PostgreSQL reads row by row).
    """
    rows = [
        TournamentMatch(
            tournament=tournament,
            key=match.match_id,
            bracket=match.section.value,
            round=match.round,
            position=match.position,
        )
        for match in bracket.matches
    ]
    for row in rows:
        _row_fill(row, state)
    return pairings_create(tournament, rows, players)


def bracket_results(pairings: Iterable[TournamentMatch]) -> dict[str, int]:
    """Bracket match id -> winner's player id, for every decided pairing."""
    return {
        pairing.key: pairing.winner_id
        for pairing in pairings
        if pairing.status == TournamentMatch.Status.DECIDED and pairing.winner_id is not None
    }


def bracket_sync(
    tournament: Tournament, state: BracketState, pairings: Iterable[TournamentMatch], players: Mapping[int, Player]
) -> None:
    """Copy a bracket's state into its rows; a pairing whose two players are now known gets its match."""
    rows = list(pairings)
    before = [_synced(row) for row in rows]
    for row in rows:
        _row_fill(row, state)
    matches_attach(tournament, rows, players)
    changed = [row for row, was in zip(rows, before, strict=True) if _synced(row) != was]
    TournamentMatch.objects.bulk_update(changed, _SYNCED_FIELDS)


def _synced(pairing: TournamentMatch) -> tuple[object, ...]:
    return (pairing.player_one_id, pairing.player_two_id, pairing.status, pairing.winner_id, pairing.match_id)


def _row_fill(pairing: TournamentMatch, state: BracketState) -> None:
    """Set a row's players, status, winner and source from its bracket match in `state` (not saved)."""
    view = state.matches[pairing.key]
    status = _STATUS_OF_VIEW[view.status]
    one, two = view.entrants
    winner = view.winner if status in (TournamentMatch.Status.DECIDED, TournamentMatch.Status.BYE) else None
    pairing.player_one_id, pairing.player_two_id = _player_id(one), _player_id(two)
    pairing.status = status
    pairing.winner_id = _player_id(winner)
    if status == TournamentMatch.Status.BYE:
        pairing.result_source = TournamentMatch.Source.BYE
    elif status != TournamentMatch.Status.DECIDED:
        pairing.result_source = ""


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


def _player_id(entrant: object) -> int | None:
    assert entrant is None or isinstance(entrant, int)
    return entrant


def tournament_finish(tournament: Tournament, entrants: list[Entrant], placings: Mapping[object, Placing]) -> None:
    """Give every entrant their final place and mark the tournament finished."""
    for entrant in entrants:
        placing = placings[entrant.player_id]
        entrant.place, entrant.place_to = placing.place, placing.shared_to
    Entrant.objects.bulk_update(entrants, ["place", "place_to"])
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
