"""Reads of tournaments, pairings, standings and ratings, each in a fixed number of queries."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from django.db.models import Q, QuerySet

from matches.models import Game, Match, Player, ResultChange
from matches.placings import places_from_winner
from tournaments.ratings.glicko2 import Rating
from tournaments.ratings.history import RatedMatch, RatingStep, ratings_replay
from tournaments.standings import StandingsRow, metric_for
from tournaments.table_settings import table_settings_ms

from .cache import TournamentCache
from .formats import format_for

if TYPE_CHECKING:
    from .formats.base import PairingResult
from .models import CorrectionRecord, Entrant, PlayerRating, RatingChange, Tournament, TournamentMatch


def tournament_list(*, status: str | None = None, format: str | None = None) -> QuerySet[Tournament]:
    tournaments = Tournament.objects.all()
    if status:
        tournaments = tournaments.filter(status=status)
    if format:
        tournaments = tournaments.filter(format=format)
    return tournaments.order_by("-created_at", "-id")


def match_organiser_ids(*, match_id: int) -> list[int] | None:
    """Who runs the tournament a match was played for (its creator), or None: no tournament, or nobody recorded.

    The provider of `matches.listeners.match_organisers` (a dispute's email goes to them).
    """
    created_by = (
        TournamentMatch.objects.filter(match_id=match_id).values_list("tournament__created_by_id", flat=True).first()
    )
    return None if created_by is None else [created_by]


def tournament_table_settings(*, match_id: int) -> dict[str, int | None]:
    """A tournament match's own table settings, in a table's millisecond keys (speed-table/1 amendment L5),
    to lay over the site's; {} for a casual match. One query.

    `claim_ms` and `abandon_ms` are the organiser's where set. `no_show_ms` is always given for a
    tournament's match: the organiser's when the match has been called to a table (an organiser marked
    it underway), else None. Before the call nobody is expected at the table, so a player who opened it
    early (at 3 a.m., say) cannot win by the other's absence.
    """
    row = (
        TournamentMatch.objects.filter(match_id=match_id)
        .values_list("tournament__table_settings", "underway_at")
        .first()
    )
    if row is None:
        return {}
    stored, underway_at = row
    settings = table_settings_ms(stored or {})
    if underway_at is None or "no_show_ms" not in settings:
        settings["no_show_ms"] = None
    return settings


def game_called_to_tables(*, game_id: int) -> str | None:
    """The name of the tournament whose called match the game is of, when it is played at the site's tables,
    else None (a casual match's game, or one not called yet). One query.

    Called: an organiser, or `advance_automatically`, marked the pairing underway.
    """
    return (
        TournamentMatch.objects.filter(
            match__games__id=game_id, tournament__played_at_tables=True, underway_at__isnull=False
        )
        .values_list("tournament__name", flat=True)
        .first()
    )


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
        "player_one", "player_two", "player_three", "player_four", "winner"
    )
    if round_number is not None:
        pairings = pairings.filter(round=round_number)
    if bracket:
        pairings = pairings.filter(bracket=bracket)
    return pairings.order_by("id")


def pairing_get(*, tournament: Tournament, key: str) -> TournamentMatch | None:
    return pairing_list(tournament=tournament).filter(key=key).first()


@dataclass(frozen=True)
class AnnulledMatch:
    """A match a correction set aside: played for the tournament, now outside it, kept and counted nowhere."""

    match: Match
    #: The pairing it was played for, as the correction recorded it ("" if the record does not say).
    key: str
    #: The correction that set it aside: its id and the pairing it corrected.
    correction_id: int
    correction_key: str


def tournament_annulled_matches(*, tournament: Tournament) -> list[AnnulledMatch]:
    """The matches this tournament's corrections annulled, in the order they were annulled (two queries)."""
    corrections = {record.pk: record for record in CorrectionRecord.objects.filter(tournament=tournament)}
    if not corrections:
        return []
    annulments = (
        ResultChange.objects.filter(
            kind=ResultChange.Kind.ANNULMENT, game__isnull=True, source__correction__in=list(corrections)
        )
        .select_related(
            "match__player_one", "match__player_two", "match__player_three", "match__player_four", "match__winner"
        )
        .order_by("id")
    )
    annulled = []
    for change in annulments:
        record = corrections[change.source["correction"]]
        handles = [player.handle for player in change.match.players]
        reset = {item["key"] for item in record.after.get("pairings", []) if item.get("action") == "reset"}
        key = next(
            (
                item["key"]
                for item in record.before.get("pairings", [])
                if item["key"] in reset and item.get("players") == handles
            ),
            "",
        )
        annulled.append(AnnulledMatch(change.match, key, record.pk, record.key))
    return annulled


def correction_list(*, tournament: Tournament) -> QuerySet[CorrectionRecord]:
    return CorrectionRecord.objects.filter(tournament=tournament).select_related("made_by").order_by("-made_at", "-id")


# --- Standings ------------------------------------------------------------------


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


def tournament_standings(*, tournament: Tournament) -> StandingsView:
    """Standings in two queries whatever the size: entrants with players, then pairings.

    Formats that end in a bracket show final placings once finished (and every
    entrant unplaced before). The other formats rank by the tournament's tie-breaks.
    """
    return _standings_of(tournament, entrant_list(tournament=tournament))


def _standings_of(tournament: Tournament, entrants: Sequence[Entrant]) -> StandingsView:
    """The standings from the tournament's entrants (with players) already loaded: one query for the pairings."""
    players = {entrant.player_id: entrant.player for entrant in entrants}
    finished = tournament.status == Tournament.Status.FINISHED
    fmt = format_for(tournament.format)
    if fmt.placings:
        ordered = sorted(entrants, key=lambda entrant: (entrant.place is None, entrant.place or 0, entrant.seed))
        rows = [
            StandingsRowView(entrant.place, _place_label(entrant.place, entrant.place_to), entrant.player)
            for entrant in ordered
        ]
        return StandingsView(kind="placings", tie_breaks=[], finished=finished, rows=rows)
    # Named tuples, not model instances: a 1,024-player Swiss has over 5,000 pairings.
    pairings = TournamentMatch.objects.filter(tournament=tournament).values_list(
        "status",
        "bracket",
        "player_one_id",
        "player_two_id",
        "winner_id",
        "games_one",
        "games_two",
        "cards_left_one",
        "cards_left_two",
        "player_three_id",
        "player_four_id",
        "places",
        "points",
        "timed",
        named=True,
    )
    # django-stubs types a named values_list row without its fields; each has PairingResult's.
    results = cast("Iterable[PairingResult]", pairings)
    table = fmt.table(tournament, results, [entrant.player_id for entrant in entrants])
    return StandingsView(
        kind="table", tie_breaks=fmt.tie_breaks(tournament), finished=finished, rows=_table_rows(table, players)
    )


#: The orders a standings table can be read in: its rank (the score and tie-breaks), a handle, a rating, a seed.
STANDINGS_SORTS = ("rank", "name", "rating", "seed")


class _PlainRow(NamedTuple):
    """A standings row as cached: a plain tuple, which unpickles faster than a dataclass."""

    rank: int | None
    label: str
    player_id: int
    handle: str
    seed: int
    values: dict[str, float]


@dataclass(frozen=True)
class _PlainStandings:
    kind: str
    tie_breaks: list[str]
    finished: bool
    rows: list[_PlainRow]


@dataclass(frozen=True)
class StandingsSlice:
    """A part of a tournament's standings (its `rows` only that part), in the order asked for."""

    standings: StandingsView
    total: int
    offset: int
    sort: str
    seeds: dict[int, int]


def _standings_plain(tournament: Tournament, entrants: Sequence[Entrant]) -> _PlainStandings:
    standings = _standings_of(tournament, entrants)
    seeds = {entrant.player_id: entrant.seed for entrant in entrants}
    rows = [
        _PlainRow(row.rank, row.label, row.player.pk, row.player.handle, seeds.get(row.player.pk, 0), row.values)
        for row in standings.rows
    ]
    return _PlainStandings(standings.kind, standings.tie_breaks, standings.finished, rows)


def tournament_standings_slice(
    *,
    tournament: Tournament,
    offset: int = 0,
    limit: int = 50,
    sort: str = "rank",
    entrants: Callable[[], Sequence[Entrant]] | None = None,
    page_cache: TournamentCache | None = None,
) -> StandingsSlice:
    """`limit` rows of the standings from `offset`, sorted by `sort` (one of STANDINGS_SORTS; else by rank).

    The table is computed once per change of the tournament (`tournaments.cache`)
    and shared by every visitor, and so are the pages cut from it: a read costs
    two cache lookups; a miss, one query for the ratings when sorted by them.
    No query grows with the field.
    `entrants` gives the entrants with their players when the caller has them
    (computing the table then costs one query, for the pairings; else two).
    `page_cache` is the caller's reader of the tournament's cache (one generation read, entries prefetched).
    """
    if sort not in STANDINGS_SORTS:
        sort = "rank"
    reader = page_cache or TournamentCache(tournament.pk)

    def part() -> tuple[_PlainStandings, int]:
        load = entrants or (lambda: entrant_list(tournament=tournament))
        plain = reader.get("standings", lambda: _standings_plain(tournament, load()))
        rows = _sorted_rows(tournament, plain.rows, sort)
        return _PlainStandings(plain.kind, plain.tie_breaks, plain.finished, rows[offset : offset + limit]), len(rows)

    # The pages the site and the API ask for are cached as they are (a few rows to unpickle, not the whole
    # table); an odd offset is cut from the cached table, so a visitor cannot fill the cache with slices.
    name = standings_page_name(sort=sort, offset=offset, limit=limit)
    if name is not None:
        page, total = reader.get(name, part)
    else:
        page, total = part()
    views = [
        StandingsRowView(row.rank, row.label, Player(pk=row.player_id, handle=row.handle), row.values)
        for row in page.rows
    ]
    return StandingsSlice(
        StandingsView(page.kind, page.tie_breaks, page.finished, views),
        total=total,
        offset=offset,
        sort=sort,
        seeds={row.player_id: row.seed for row in page.rows},
    )


def standings_page_name(*, sort: str, offset: int, limit: int) -> str | None:
    """The cache entry of a page of the standings, or None for an odd slice (cut from the table, not cached)."""
    if offset % limit == 0 and offset // limit < 1000:
        return f"standings:{sort if sort in STANDINGS_SORTS else 'rank'}:{offset}:{limit}"
    return None


def _sorted_rows(tournament: Tournament, rows: list[_PlainRow], sort: str) -> list[_PlainRow]:
    if sort == "name":
        return sorted(rows, key=lambda row: (row.handle.casefold(), row.player_id))
    if sort == "seed":
        return sorted(rows, key=lambda row: row.seed)
    if sort == "rating":
        # Ratings change with results elsewhere too; a page sorted by them is at most the cache's timeout old.
        ratings = dict(
            PlayerRating.objects.filter(
                player_id__in=Entrant.objects.filter(tournament=tournament).values("player_id")
            ).values_list("player_id", "rating")
        )
        # Unrated players after the rated ones, then by seed.
        return sorted(rows, key=lambda row: (row.player_id not in ratings, -ratings.get(row.player_id, 0), row.seed))
    return rows


def _table_rows(table: list[StandingsRow], players: Mapping[int, Player]) -> list[StandingsRowView]:
    counts = Counter(row.rank for row in table)
    return [
        StandingsRowView(
            row.rank,
            _place_label(row.rank, row.rank + counts[row.rank] - 1),
            players[int(row.player)],
            dict(row.values),
        )
        for row in table
    ]


@dataclass(frozen=True)
class RoundPairings:
    """One round's pairings, in board order."""

    number: int
    pairings: list[TournamentMatch]


@dataclass(frozen=True)
class GroupView:
    """A group of a format played in groups: its table and its rounds."""

    name: str
    standings: StandingsView
    rounds: list[RoundPairings]
    advancing: int

    @property
    def columns(self) -> list[tuple[str, str]]:
        """(key, label) of the table's tie-breaks."""
        return [(key, metric_for(key).label) for key in self.standings.tie_breaks]


def pairing_rounds(pairings: Iterable[TournamentMatch]) -> list[RoundPairings]:
    """Pairings by round, rounds in order (no queries)."""
    rounds: dict[int, list[TournamentMatch]] = defaultdict(list)
    for pairing in pairings:
        rounds[pairing.round].append(pairing)
    return [RoundPairings(number, rounds[number]) for number in sorted(rounds)]


def tournament_groups(
    *, tournament: Tournament, entrants: Sequence[Entrant], pairings: Sequence[TournamentMatch]
) -> list[GroupView]:
    """The group tables of a format played in groups, from rows already loaded (no queries); else empty."""
    fmt = format_for(tournament.format)
    players = {entrant.player_id: entrant.player for entrant in entrants}
    finished = tournament.status == Tournament.Status.FINISHED
    return [
        GroupView(
            group.name,
            StandingsView("table", fmt.tie_breaks(tournament), finished, _table_rows(group.table, players)),
            pairing_rounds(group.pairings),
            group.advancing,
        )
        for group in fmt.groups(tournament, entrants, pairings)
    ]


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
    """The player's rating changes, latest result first (rating order, not when the row was written)."""
    return RatingChange.objects.filter(player=player).order_by(*(f"-{key}" for key in RATING_ORDER_OF_CHANGE))


#: The order ratings take results in: when the match was decided, then its id.
RATING_ORDER = ("finished_at", "id")
RATING_ORDER_OF_CHANGE = ("match__finished_at", "match_id")

RatingPoint = tuple[Any, int]
"""A place in the rating order: a match's (finished_at, id)."""


def counting_matches() -> QuerySet[Match]:
    """The results ratings count: finished rated matches (not in progress, not annulled, not casual), in rating
    order."""
    return Match.objects.filter(status=Match.Status.FINISHED, finished_at__isnull=False, rated=True).order_by(
        *RATING_ORDER
    )


def from_point(point: RatingPoint, *, prefix: str = "") -> Q:
    """Rows at or after a place in the rating order (`prefix`: the path to the match, e.g. "match__")."""
    finished_at, match_id = point
    return Q(**{f"{prefix}finished_at__gt": finished_at}) | Q(
        **{f"{prefix}finished_at": finished_at, f"{prefix}id__gte": match_id}
    )


def rated_results(*, start: RatingPoint | None = None) -> list[RatedMatch[int, int]]:
    """The counting results from `start` on (all when None), in rating order, with each decided game's places.

    Two queries whatever the number of matches.
    """
    matches = counting_matches()
    if start is not None:
        matches = matches.filter(from_point(start))
    return _rated(matches)


def rated_match(*, match: Match) -> RatedMatch[int, int]:
    """One match as the ratings take it, its seats and teams read from the loaded row: one query (its games)."""
    return _rated_games({match.pk: (match.player_ids, match.teams)}, Game.objects.filter(match_id=match.pk))[0]


def _rated(matches: QuerySet[Match]) -> list[RatedMatch[int, int]]:
    # Only the ruleset's teams (Team Speed: partners are not rated against each other), not the whole ruleset.
    rows = matches.values_list(
        "pk", "ruleset__teams", "player_one_id", "player_two_id", "player_three_id", "player_four_id"
    )
    sides = {
        pk: (tuple(seat for seat in seats if seat is not None), tuple(tuple(team) for team in teams or ()))
        for pk, teams, *seats in rows
    }
    return _rated_games(sides, Game.objects.filter(match__in=matches))


def _rated_games(
    sides: dict[int, tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]], games: QuerySet[Game]
) -> list[RatedMatch[int, int]]:
    """The matches (players and teams by match id, in rating order) with their decided games' places."""
    places: dict[int, list[tuple[int, ...]]] = defaultdict(list)
    decided = (
        games.filter(status=Game.Status.DECIDED)
        .filter(Q(winner__isnull=False) | Q(places__isnull=False))
        .order_by("match_id", "number")
        .values_list("match_id", "winner_id", "places")
    )
    for match_id, winner_id, stored in decided:
        seat_places = rated_places(sides[match_id][0], winner_id, stored)
        if seat_places is not None:
            places[match_id].append(seat_places)
    return [RatedMatch(pk, players, tuple(places[pk]), teams) for pk, (players, teams) in sides.items()]


def rated_places(players: Sequence[int], winner_id: int | None, places: Sequence[int] | None) -> tuple[int, ...] | None:
    """A decided game's places per seat as rated: as stored (tables, timed matches), else from its winner.

    None for a result that does not fit the match (a winner from outside it,
    not one place per seat): the services never write one, and rather than
    fail on a record edited by hand the ratings skip it (the audit names it).
    """
    if places is not None:
        return tuple(places) if len(places) == len(players) else None
    if winner_id not in players:
        return None
    return places_from_winner(players.index(winner_id), len(players))


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


def ratings_from_scratch() -> tuple[list[RatingStep[int, int]], dict[int, Rating]]:
    """Every rating change and every current rating as a replay of all counting results gives them (no writes)."""
    return ratings_replay(rated_results())


def tournament_has_results(*, tournament: Tournament) -> bool:
    """Whether anything of the tournament was played: a game with a result, a claim, a dispute or a log in any of
    its matches, or a correction. Until then its start can be undone and it can be deleted (a few queries)."""
    from .correction_plans import started_match_ids  # noqa: PLC0415 - the formats import this module

    match_ids = list(
        TournamentMatch.objects.filter(tournament=tournament, match__isnull=False).values_list("match_id", flat=True)
    )
    return bool(started_match_ids(match_ids)) or CorrectionRecord.objects.filter(tournament=tournament).exists()
