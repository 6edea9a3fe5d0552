"""What a format decides, as plain unsaved rows: the formats plan, `tournaments.services.pairings` writes.

A format (`tournaments.formats`) is handed a `Run` (a locked, running
tournament with its entrants and pairings) and returns a `PairingPlan`: the
new pairing rows (not saved, without their matches), the existing rows it
changed in memory (a bracket's state copied in), and the final places if the
tournament is over. Nothing here writes; the helpers build rows the way
every format builds them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from django.utils import timezone

from matches.models import Player
from tournaments.generators import Bracket, BracketState, EntrantId, MatchStatus, Placing

from .models import Entrant, Tournament, TournamentMatch

#: Pairing statuses after which nothing more is played in them.
SETTLED = (TournamentMatch.Status.DECIDED, TournamentMatch.Status.BYE, TournamentMatch.Status.VOID)

#: The fields a bracket's state sets on its rows (`bracket_fill`), which the writer saves.
BRACKET_FIELDS = ["player_one", "player_two", "status", "winner", "result_source", "match"]

_STATUS_OF_VIEW = {
    MatchStatus.WAITING: TournamentMatch.Status.WAITING,
    MatchStatus.READY: TournamentMatch.Status.READY,
    MatchStatus.DECIDED: TournamentMatch.Status.DECIDED,
    MatchStatus.BYE: TournamentMatch.Status.BYE,
    MatchStatus.VOID: TournamentMatch.Status.VOID,
}


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


@dataclass
class PairingPlan:
    """What a format decided: rows to create, rows it changed, and the final places (None: not over).

    `create` rows are unsaved; the writer gives the ready ones their matches.
    `update` rows are existing rows whose `BRACKET_FIELDS` the format set in
    memory (or that are ready and still need a match).
    """

    create: list[TournamentMatch] = field(default_factory=list)
    update: list[TournamentMatch] = field(default_factory=list)
    finish: Mapping[EntrantId, Placing] | None = None


def table_row(
    tournament: Tournament, key: str, *, section: str, round_number: int, position: int, players: list[Player]
) -> TournamentMatch:
    """A ready table of two to four players (seat order as given); the writer gives it its match."""
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
    )


def pairing_row(
    tournament: Tournament, key: str, *, section: str, round_number: int, position: int, one: Player, two: Player
) -> TournamentMatch:
    """A ready pairing of two players; the writer gives it its match."""
    return table_row(tournament, key, section=section, round_number=round_number, position=position, players=[one, two])


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


def bracket_rows(tournament: Tournament, bracket: Bracket, state: BracketState) -> list[TournamentMatch]:
    """One row per bracket match, filled from `state`.

    Filled before the INSERT, so the `bracket_fill` that follows finds
    nothing to change: updating thousands of rows just inserted is slow
    (Django's bulk_update is one CASE per field, which PostgreSQL reads row by row).
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
    return rows


def bracket_results(pairings: Iterable[TournamentMatch]) -> dict[str, int]:
    """Bracket match id -> winner's player id, for every decided pairing."""
    return {
        pairing.key: pairing.winner_id
        for pairing in pairings
        if pairing.status == TournamentMatch.Status.DECIDED and pairing.winner_id is not None
    }


def bracket_fill(state: BracketState, pairings: Iterable[TournamentMatch]) -> list[TournamentMatch]:
    """Copy a bracket's state into its rows (in memory); return those the writer must save.

    The changed rows, and the ready ones still without a match (a pairing a
    correction reset is ready again with the same players).
    """
    due = []
    for row in pairings:
        before = _synced(row)
        _row_fill(row, state)
        if _synced(row) != before or (row.status == TournamentMatch.Status.READY and row.match_id is None):
            due.append(row)
    return due


def _synced(pairing: TournamentMatch) -> tuple[object, ...]:
    return (pairing.player_one_id, pairing.player_two_id, pairing.status, pairing.winner_id, pairing.result_source)


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


def _player_id(entrant: object) -> int | None:
    assert entrant is None or isinstance(entrant, int)
    return entrant
