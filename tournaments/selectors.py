"""Reads of tournaments, pairings, standings and ratings, each in a fixed number of queries."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Protocol

from django.db.models import QuerySet

from matches.models import Player
from tournaments.generators import Bracket, Seeding, double_elimination, single_elimination
from tournaments.ratings.glicko2 import Rating
from tournaments.standings import MatchRecord, compute_standings

from .models import CorrectionRecord, Entrant, PlayerRating, RatingChange, Tournament, TournamentMatch

#: Tie-breaks a tournament gets when its organiser names none.
DEFAULT_TIE_BREAKS: dict[str, list[str]] = {
    Tournament.Format.ROUND_ROBIN: ["match_wins", "head_to_head", "game_win_pct", "card_margin"],
    Tournament.Format.SWISS: ["match_wins", "buchholz", "sonneborn_berger", "card_margin"],
    Tournament.Format.WINNER_STAYS_ON: ["match_wins", "game_win_pct", "card_margin"],
}


def tournament_list(*, status: str | None = None, format: str | None = None) -> QuerySet[Tournament]:
    tournaments = Tournament.objects.all()
    if status:
        tournaments = tournaments.filter(status=status)
    if format:
        tournaments = tournaments.filter(format=format)
    return tournaments.order_by("-created_at", "-id")


def tournament_get(*, tournament_id: int) -> Tournament | None:
    return Tournament.objects.filter(pk=tournament_id).first()


def entrant_list(*, tournament: Tournament) -> list[Entrant]:
    """Entrants with their players, best seed first (one query)."""
    return list(Entrant.objects.filter(tournament=tournament).select_related("player").order_by("seed"))


def pairing_list(
    *, tournament: Tournament, round_number: int | None = None, bracket: str | None = None
) -> QuerySet[TournamentMatch]:
    """Pairings with their players and winner, in play order (one query)."""
    pairings = TournamentMatch.objects.filter(tournament=tournament).select_related(
        "player_one", "player_two", "winner"
    )
    if round_number is not None:
        pairings = pairings.filter(round=round_number)
    if bracket:
        pairings = pairings.filter(bracket=bracket)
    return pairings.order_by("id")


def pairing_get(*, tournament: Tournament, key: str) -> TournamentMatch | None:
    return pairing_list(tournament=tournament).filter(key=key).first()


def correction_list(*, tournament: Tournament) -> QuerySet[CorrectionRecord]:
    return CorrectionRecord.objects.filter(tournament=tournament).select_related("made_by").order_by("-made_at", "-id")


# --- Brackets -------------------------------------------------------------------


def bracket_for(*, tournament: Tournament, seeded_player_ids: Sequence[int]) -> Bracket:
    """The tournament's bracket, regenerated from its options and seeded entrants (pure and cached)."""
    return _bracket(
        format=tournament.format,
        entrants=tuple(seeded_player_ids),
        seeding=tournament.seeding,
        rng_seed=tournament.rng_seed,
        third_place=tournament.third_place,
        grand_final_reset=tournament.grand_final_reset,
    )


@lru_cache(maxsize=32)
def _bracket(
    *,
    format: str,
    entrants: tuple[int, ...],
    seeding: str,
    rng_seed: int | None,
    third_place: bool,
    grand_final_reset: bool,
) -> Bracket:
    # Same inputs, same bracket: generating a 4,096-entrant double elimination
    # takes ~70 ms, so advancing it after every match reuses the last one.
    if format == Tournament.Format.SINGLE_ELIMINATION:
        return single_elimination(entrants, seeding=Seeding(seeding), rng_seed=rng_seed, third_place=third_place)
    return double_elimination(
        entrants, seeding=Seeding(seeding), rng_seed=rng_seed, grand_final_reset=grand_final_reset
    )


def bracket_results(pairings: Iterable[TournamentMatch]) -> dict[str, int]:
    """Bracket match id -> winner's player id, for every decided pairing."""
    return {
        pairing.key: pairing.winner_id
        for pairing in pairings
        if pairing.status == TournamentMatch.Status.DECIDED and pairing.winner_id is not None
    }


# --- Standings ------------------------------------------------------------------


class PairingResult(Protocol):
    """What a standings record needs from a pairing: a model row, or a named `values_list` row."""

    status: str
    player_one_id: int | None
    player_two_id: int | None
    winner_id: int | None
    games_one: int
    games_two: int
    cards_left_one: int
    cards_left_two: int


def match_records(*, tournament: Tournament, pairings: Iterable[PairingResult]) -> list[MatchRecord]:
    """Plain records of the decided pairings, for the standings metrics.

    A Swiss bye is a win (the issue's rule); a round-robin bye is only sitting
    out (everyone has one when the count is odd), so it is not a record.
    """
    records: list[MatchRecord] = []
    for pairing in pairings:
        if pairing.winner_id is None or pairing.player_one_id is None:
            continue
        if pairing.status == TournamentMatch.Status.BYE:
            if tournament.format == Tournament.Format.SWISS:
                records.append(MatchRecord.for_bye(pairing.player_one_id))
            continue
        if pairing.status != TournamentMatch.Status.DECIDED or pairing.player_two_id is None:
            continue
        records.append(
            MatchRecord(
                players=(pairing.player_one_id, pairing.player_two_id),
                winner=pairing.winner_id,
                games_won=(pairing.games_one, pairing.games_two),
                cards_left=(pairing.cards_left_one, pairing.cards_left_two),
            )
        )
    return records


@dataclass(frozen=True)
class StandingsRowView:
    """One line of a tournament's standings: rank (or place) and, for tables, each metric's value."""

    rank: int | None
    label: str
    player: Player
    values: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class StandingsView:
    """A tournament's standings: a tie-break table, or elimination placings."""

    kind: str  # "table" or "placings"
    tie_breaks: list[str]
    finished: bool
    rows: list[StandingsRowView]


def tournament_tie_breaks(tournament: Tournament) -> list[str]:
    return list(tournament.tie_breaks) or DEFAULT_TIE_BREAKS.get(tournament.format, ["match_wins"])


def tournament_standings(*, tournament: Tournament) -> StandingsView:
    """Standings in two queries whatever the size: entrants with players, then pairings.

    Elimination formats show final placings once finished (and every entrant
    unplaced before). The other formats rank by the tournament's tie-breaks.
    """
    entrants = entrant_list(tournament=tournament)
    players = {entrant.player_id: entrant.player for entrant in entrants}
    finished = tournament.status == Tournament.Status.FINISHED
    if tournament.is_elimination:
        ordered = sorted(entrants, key=lambda entrant: (entrant.place is None, entrant.place or 0, entrant.seed))
        rows = [
            StandingsRowView(entrant.place, _place_label(entrant.place, entrant.place_to), entrant.player)
            for entrant in ordered
        ]
        return StandingsView(kind="placings", tie_breaks=[], finished=finished, rows=rows)
    # Named tuples, not model instances: a 1,024-player Swiss has over 5,000 pairings.
    pairings = TournamentMatch.objects.filter(tournament=tournament).values_list(
        "status",
        "player_one_id",
        "player_two_id",
        "winner_id",
        "games_one",
        "games_two",
        "cards_left_one",
        "cards_left_two",
        named=True,
    )
    tie_breaks = tournament_tie_breaks(tournament)
    table = compute_standings(
        match_records(tournament=tournament, pairings=pairings),
        tie_breaks,
        players=[entrant.player_id for entrant in entrants],
    )
    counts: dict[int, int] = {}
    for row in table:
        counts[row.rank] = counts.get(row.rank, 0) + 1
    rows = [
        StandingsRowView(
            row.rank,
            _place_label(row.rank, row.rank + counts[row.rank] - 1),
            players[int(row.player)],
            dict(row.values),
        )
        for row in table
    ]
    return StandingsView(kind="table", tie_breaks=tie_breaks, finished=finished, rows=rows)


def _place_label(place: int | None, place_to: int | None) -> str:
    if place is None:
        return ""
    return str(place) if place_to in (None, place) else f"{place}-{place_to}"


# --- Ratings ------------------------------------------------------------------------


def rating_list() -> QuerySet[PlayerRating]:
    return PlayerRating.objects.select_related("player").order_by("-rating", "player__handle")


def rating_get(*, player: Player) -> PlayerRating | None:
    return PlayerRating.objects.filter(player=player).first()


def rating_history(*, player: Player) -> QuerySet[RatingChange]:
    return RatingChange.objects.filter(player=player).order_by("-created_at", "-id")


def rating_summary(rating: PlayerRating | None) -> dict[str, Any]:
    default = Rating()
    if rating is None:
        return {"rating": default.rating, "deviation": default.deviation, "volatility": default.volatility, "games": 0}
    return {
        "rating": rating.rating,
        "deviation": rating.deviation,
        "volatility": rating.volatility,
        "games": rating.games,
    }
