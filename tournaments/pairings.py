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
from matches.services import match_create_bulk
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
