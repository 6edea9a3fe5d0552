"""Bring a tournament's pairings up to date: the one place the generators meet the rows.

Called by `tournaments.services` with the tournament row locked. Each format
opens its first pairings at the start and, after every result or
correction, recomputes what follows from all results so far: the next
bracket matches, the next Swiss round, the next winner-stays-on match, or
the end of the tournament with its final places. A pairing gets its
matches.Match (through `matches.services.match_create`) once both players
are known.
"""

from __future__ import annotations

import math
from collections import Counter

from django.utils import timezone

from matches.models import Match, Player
from matches.services import match_create
from tournaments.generators import (
    MatchStatus,
    Placing,
    SwissPlayer,
    WinnerStaysOnState,
    advance,
    round_robin,
    swiss_round,
    winner_stays_on,
)
from tournaments.standings import compute_standings

from .models import Entrant, Tournament, TournamentMatch
from .selectors import bracket_for, bracket_results, entrant_list, match_records, tournament_tie_breaks

_STATUS_OF_VIEW = {
    MatchStatus.WAITING: TournamentMatch.Status.WAITING,
    MatchStatus.READY: TournamentMatch.Status.READY,
    MatchStatus.DECIDED: TournamentMatch.Status.DECIDED,
    MatchStatus.BYE: TournamentMatch.Status.BYE,
    MatchStatus.VOID: TournamentMatch.Status.VOID,
}
_SYNCED_FIELDS = ["player_one", "player_two", "status", "winner", "result_source", "match"]


def default_swiss_rounds(entrant_count: int) -> int:
    """Enough rounds for one unbeaten player: ceil(log2(n))."""
    return max(1, math.ceil(math.log2(entrant_count)))


def pairings_open(tournament: Tournament) -> None:
    """Create the first pairings of a tournament that has just started."""
    entrants = entrant_list(tournament=tournament)
    if tournament.is_elimination:
        bracket = bracket_for(tournament=tournament, seeded_player_ids=[entrant.player_id for entrant in entrants])
        TournamentMatch.objects.bulk_create(
            TournamentMatch(
                tournament=tournament,
                key=match.match_id,
                bracket=match.section.value,
                round=match.round,
                position=match.position,
            )
            for match in bracket.matches
        )
    elif tournament.format == Tournament.Format.ROUND_ROBIN:
        _round_robin_open(tournament, entrants)
    elif tournament.format == Tournament.Format.SWISS:
        _swiss_pair_round(tournament, entrants, round_number=1, pairings=[])
    else:
        _winner_stays_on_next(tournament, entrants, pairings=[])
    pairings_advance(tournament)


def pairings_advance(tournament: Tournament) -> None:
    """After a result or a correction: open what is now ready, and finish the tournament when done."""
    if tournament.status != Tournament.Status.RUNNING:
        return
    entrants = entrant_list(tournament=tournament)
    pairings = list(TournamentMatch.objects.filter(tournament=tournament).order_by("id"))
    if tournament.is_elimination:
        _bracket_sync(tournament, entrants, pairings)
    elif tournament.format == Tournament.Format.ROUND_ROBIN:
        if all(pairing.status in _SETTLED for pairing in pairings):
            _finish_by_standings(tournament, entrants, pairings)
    elif tournament.format == Tournament.Format.SWISS:
        _swiss_advance(tournament, entrants, pairings)
    else:
        _winner_stays_on_advance(tournament, entrants, pairings)


_SETTLED = (TournamentMatch.Status.DECIDED, TournamentMatch.Status.BYE, TournamentMatch.Status.VOID)


def _players_by_id(entrants: list[Entrant]) -> dict[int, Player]:
    return {entrant.player_id: entrant.player for entrant in entrants}


def _match_for(tournament: Tournament, one: Player, two: Player) -> Match:
    """A matches.Match with the tournament's series and ruleset (through the matches service)."""
    series = {"best_of" if tournament.series == Match.Series.BEST_OF else "first_to": tournament.series_length}
    return match_create(players=[one.handle, two.handle], ruleset=tournament.ruleset, created_by=None, **series)


# --- Elimination -------------------------------------------------------------------


def _bracket_sync(tournament: Tournament, entrants: list[Entrant], pairings: list[TournamentMatch]) -> None:
    bracket = bracket_for(tournament=tournament, seeded_player_ids=[entrant.player_id for entrant in entrants])
    state = advance(bracket, bracket_results(pairings))
    players = _players_by_id(entrants)
    changed: list[TournamentMatch] = []
    for pairing in pairings:
        view = state.matches[pairing.key]
        status = _STATUS_OF_VIEW[view.status]
        one, two = view.entrants
        winner = view.winner if status in (TournamentMatch.Status.DECIDED, TournamentMatch.Status.BYE) else None
        before = (pairing.player_one_id, pairing.player_two_id, pairing.status, pairing.winner_id, pairing.match_id)
        pairing.player_one_id, pairing.player_two_id = _player_id(one), _player_id(two)
        pairing.status = status
        pairing.winner_id = _player_id(winner)
        if status == TournamentMatch.Status.BYE:
            pairing.result_source = TournamentMatch.Source.BYE
        elif status != TournamentMatch.Status.DECIDED:
            pairing.result_source = ""
        if status == TournamentMatch.Status.READY and pairing.match_id is None:
            assert pairing.player_one_id is not None and pairing.player_two_id is not None
            pairing.match = _match_for(tournament, players[pairing.player_one_id], players[pairing.player_two_id])
        after = (pairing.player_one_id, pairing.player_two_id, pairing.status, pairing.winner_id, pairing.match_id)
        if before != after:
            changed.append(pairing)
    TournamentMatch.objects.bulk_update(changed, _SYNCED_FIELDS)
    if state.finished:
        _finish(tournament, entrants, {placing.entrant: placing for placing in state.placings})


def _player_id(entrant: object) -> int | None:
    assert entrant is None or isinstance(entrant, int)
    return entrant


# --- Round robin ----------------------------------------------------------------------


def _round_robin_open(tournament: Tournament, entrants: list[Entrant]) -> None:
    players = _players_by_id(entrants)
    schedule = round_robin([entrant.player_id for entrant in entrants], double=tournament.double_round_robin)
    rows: list[TournamentMatch] = []
    for scheduled in schedule.rounds:
        for board, pairing in enumerate(scheduled.pairings, start=1):
            one, two = players[int(pairing.first)], players[int(pairing.second)]
            key = f"RR{scheduled.number}-{board}"
            rows.append(_pairing_row(tournament, key, round_number=scheduled.number, position=board, one=one, two=two))
        if scheduled.bye is not None:
            rows.append(_bye_row(tournament, f"RR{scheduled.number}-bye", scheduled.number, int(scheduled.bye)))
    TournamentMatch.objects.bulk_create(rows)


def _pairing_row(
    tournament: Tournament, key: str, *, round_number: int, position: int, one: Player, two: Player
) -> TournamentMatch:
    return TournamentMatch(
        tournament=tournament,
        key=key,
        bracket=_bracket_of(tournament),
        round=round_number,
        position=position,
        status=TournamentMatch.Status.READY,
        player_one=one,
        player_two=two,
        match=_match_for(tournament, one, two),
    )


def _bye_row(tournament: Tournament, key: str, round_number: int, player_id: int) -> TournamentMatch:
    return TournamentMatch(
        tournament=tournament,
        key=key,
        bracket=_bracket_of(tournament),
        round=round_number,
        position=0,
        status=TournamentMatch.Status.BYE,
        player_one_id=player_id,
        winner_id=player_id,
        result_source=TournamentMatch.Source.BYE,
        decided_at=timezone.now(),
    )


def _bracket_of(tournament: Tournament) -> str:
    return {
        Tournament.Format.ROUND_ROBIN: TournamentMatch.Bracket.ROUND_ROBIN,
        Tournament.Format.SWISS: TournamentMatch.Bracket.SWISS,
        Tournament.Format.WINNER_STAYS_ON: TournamentMatch.Bracket.WINNER_STAYS_ON,
    }[tournament.format]


# --- Swiss ----------------------------------------------------------------------------


def _swiss_advance(tournament: Tournament, entrants: list[Entrant], pairings: list[TournamentMatch]) -> None:
    current = max(pairing.round for pairing in pairings)
    if not all(pairing.status in _SETTLED for pairing in pairings if pairing.round == current):
        return
    rounds = tournament.swiss_rounds or default_swiss_rounds(len(entrants))
    if current >= rounds:
        _finish_by_standings(tournament, entrants, pairings)
        return
    _swiss_pair_round(tournament, entrants, round_number=current + 1, pairings=pairings)


def _swiss_pair_round(
    tournament: Tournament, entrants: list[Entrant], *, round_number: int, pairings: list[TournamentMatch]
) -> None:
    # Rank order for pairing: the standings so far, then seed.
    standings = compute_standings(
        match_records(tournament=tournament, pairings=pairings),
        tournament_tie_breaks(tournament),
        players=[entrant.player_id for entrant in entrants],
    )
    wins = dict.fromkeys((entrant.player_id for entrant in entrants), 0)
    opponents: dict[int, set[int]] = {player_id: set() for player_id in wins}
    byes = dict.fromkeys(wins, 0)
    for pairing in pairings:
        if pairing.winner_id is not None:
            wins[pairing.winner_id] += 1
        if pairing.status == TournamentMatch.Status.BYE and pairing.player_one_id is not None:
            byes[pairing.player_one_id] += 1
        elif pairing.player_one_id is not None and pairing.player_two_id is not None:
            opponents[pairing.player_one_id].add(pairing.player_two_id)
            opponents[pairing.player_two_id].add(pairing.player_one_id)
    players = [
        SwissPlayer(
            int(row.player), wins[int(row.player)], frozenset(opponents[int(row.player)]), byes[int(row.player)]
        )
        for row in standings
    ]
    paired = swiss_round(players)
    by_id = _players_by_id(entrants)
    rows = [
        _pairing_row(
            tournament,
            f"S{round_number}-{board}",
            round_number=round_number,
            position=board,
            one=by_id[int(pairing.first)],
            two=by_id[int(pairing.second)],
        )
        for board, pairing in enumerate(paired.pairings, start=1)
    ]
    if paired.bye is not None:
        rows.append(_bye_row(tournament, f"S{round_number}-bye", round_number, int(paired.bye)))
    TournamentMatch.objects.bulk_create(rows)


# --- Winner stays on ---------------------------------------------------------------------


def _winner_stays_on_advance(tournament: Tournament, entrants: list[Entrant], pairings: list[TournamentMatch]) -> None:
    if not all(pairing.status in _SETTLED for pairing in pairings):
        return
    state = winner_stays_on_replay(tournament, entrants, pairings)
    if state.finished:
        _finish_by_standings(tournament, entrants, pairings)
    else:
        _winner_stays_on_next(tournament, entrants, pairings)


def winner_stays_on_replay(
    tournament: Tournament, entrants: list[Entrant], pairings: list[TournamentMatch]
) -> WinnerStaysOnState:
    """The event replayed from its decided matches, in order."""
    ordered = sorted(pairings, key=lambda pairing: pairing.round)
    winners = [pairing.winner_id for pairing in ordered if pairing.winner_id is not None]
    return winner_stays_on(
        [entrant.player_id for entrant in entrants],
        winners,
        max_matches=tournament.max_matches or default_max_matches(len(entrants)),
    )


def default_max_matches(entrant_count: int) -> int:
    """Without a bound, each entrant gets about three turns at the table."""
    return 3 * entrant_count


def _winner_stays_on_next(tournament: Tournament, entrants: list[Entrant], pairings: list[TournamentMatch]) -> None:
    state = winner_stays_on_replay(tournament, entrants, pairings)
    upcoming = state.next_match
    if upcoming is None:
        return
    by_id = _players_by_id(entrants)
    number = state.matches_played + 1
    row = _pairing_row(
        tournament,
        f"M{number}",
        round_number=number,
        position=1,
        one=by_id[int(upcoming.first)],
        two=by_id[int(upcoming.second)],
    )
    row.save()


# --- Finishing ---------------------------------------------------------------------------


def _finish_by_standings(tournament: Tournament, entrants: list[Entrant], pairings: list[TournamentMatch]) -> None:
    table = compute_standings(
        match_records(tournament=tournament, pairings=pairings),
        tournament_tie_breaks(tournament),
        players=[entrant.player_id for entrant in entrants],
    )
    shared = Counter(row.rank for row in table)
    placings = {row.player: Placing(row.player, row.rank, row.rank + shared[row.rank] - 1) for row in table}
    _finish(tournament, entrants, placings)


def _finish(tournament: Tournament, entrants: list[Entrant], placings: dict[object, Placing]) -> None:
    for entrant in entrants:
        placing = placings[entrant.player_id]
        entrant.place, entrant.place_to = placing.place, placing.shared_to
    Entrant.objects.bulk_update(entrants, ["place", "place_to"])
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
