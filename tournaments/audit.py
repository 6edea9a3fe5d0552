"""The records audit: every derived number recomputed from its sources, and each difference named.

The sources are the games' results (with the series rule), the annulments
kept in the matches' history, each tournament's format run again over its
results, and the ordered counting results for the ratings. What is derived
from them and stored, and so checked here:

- a match's status and winner (from its games by its series rule: games won
  for two players, points per place at a table of three or four via
  `table_series_step`; team wins in Team Speed; annulled only by a correction);
- each game's result against its match: a winner from its seats; at a table,
  in Team Speed or in a timed match, places that are a finishing order and
  name the winner (the one alone in first place; in Team Speed the winning
  team's first seat, both partners first), and, for a game its evidence
  decided (logs, players' reports, a claim that stood), a result that
  evidence names;
- a tournament pairing's recorded result (winner, games each, cards left; a
  table's places and points and a timed event's cards in time, per seat) and
  that its match is the one being played;
- a tournament's pairings, status and final places (its format advanced again,
  in a savepoint rolled back at once: the audit writes nothing);
- every rating change and every current rating (replayed from scratch, games
  of three or four as pairwise results: `tournaments.ratings.pairwise`).

It sits in the site's app because it reads every app; `manage.py audit_records` prints it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from matches.models import Game, Match, Player, ResultChange
from matches.placings import DEFAULT_POINTS_PER_PLACE, check_places, sole_winner, team_places
from matches.series import SeriesStep, series_step, table_series_step
from matches.services.games import game_claims
from tournaments.formats import format_for
from tournaments.models import Entrant, PlayerRating, RatingChange, Tournament, TournamentMatch
from tournaments.selectors import ratings_from_scratch
from tournaments.services.pairings import pairings_advance
from tournaments.snapshots import SNAPSHOT_FIELDS, pairing_snapshot


@dataclass(frozen=True)
class Difference:
    """One derived number that does not follow from its sources."""

    record: str
    field: str
    stored: object
    expected: object

    def __str__(self) -> str:
        return f"{self.record}: {self.field} is {self.stored!r}, expected {self.expected!r}"


@dataclass(frozen=True)
class Audit:
    differences: list[Difference]
    checked: dict[str, int]


def audit_records() -> Audit:
    """Recompute every derived number from the sources; nothing is written."""
    handles = dict(Player.objects.values_list("pk", "handle"))
    differences: list[Difference] = []
    checked: dict[str, int] = {}
    for name, check in (
        ("matches", _matches),
        ("pairings", _pairings),
        ("tournaments", _tournaments),
        ("rating changes", _ratings),
    ):
        count = 0
        for item in check(handles):
            if isinstance(item, Difference):
                differences.append(item)
            else:
                count += 1
        checked[name] = count
    return Audit(differences, checked)


Checked = Iterator["Difference | None"]
"""A check yields a Difference for each one found and None for each record it checked."""


def _handle(handles: dict[int, str], player_id: int | None) -> str | None:
    return None if player_id is None else handles.get(player_id, f"#{player_id}")


GameRecord = tuple[int, str, int | None, list[int] | None, str]
"""A game as the audit reads it: number, status, winner's id, places per seat, how it was decided."""

#: How a game decided by its evidence is labelled: its result must be one its evidence names.
_BY_EVIDENCE = (Game.DecidedBy.LOG, Game.DecidedBy.PLAYERS, Game.DecidedBy.LAPSE, Game.DecidedBy.TABLE)


def _matches(handles: dict[int, str]) -> Checked:
    annulled_by_correction = set(
        ResultChange.objects.filter(kind=ResultChange.Kind.ANNULMENT, game__isnull=True).values_list(
            "match_id", flat=True
        )
    )
    games: dict[int, list[GameRecord]] = {}
    for match_id, number, status, winner_id, places, decided_by in Game.objects.order_by(
        "match_id", "number"
    ).values_list("match_id", "number", "status", "winner_id", "places", "decided_by"):
        games.setdefault(match_id, []).append((number, status, winner_id, places, decided_by))
    for match in Match.objects.order_by("id"):
        record = f"match {match.pk} ({_sides(match, handles)})"
        rows = games.get(match.pk, [])
        yield from _game_differences(match, record, rows, handles)
        step = _series_step(match, rows)
        if match.status == Match.Status.ANNULLED or match.pk in annulled_by_correction:
            # Set aside by a correction: kept as its games left it, counted nowhere.
            if match.status != Match.Status.ANNULLED:
                yield Difference(record, "status", match.status, Match.Status.ANNULLED.value)
            elif match.pk not in annulled_by_correction:
                yield Difference(record, "status", match.status, "no annulment in its history")
            if match.winner_id is not None and match.winner_id != step.winner_id:
                yield Difference(record, "winner", _handle(handles, match.winner_id), _handle(handles, step.winner_id))
            yield None
            continue
        expected_status = Match.Status.FINISHED if step.winner_id is not None else Match.Status.IN_PROGRESS
        if match.status != expected_status:
            yield Difference(record, "status", match.status, expected_status.value)
        if match.winner_id != step.winner_id:
            yield Difference(record, "winner", _handle(handles, match.winner_id), _handle(handles, step.winner_id))
        if match.status == Match.Status.FINISHED and match.finished_at is None:
            yield Difference(record, "finished_at", None, "when it was decided")
        if expected_status == Match.Status.IN_PROGRESS and step.open_game is not None:
            yield Difference(record, "open game", None, f"game {step.open_game}")
        yield None


def _sides(match: Match, handles: dict[int, str]) -> str:
    """Who plays, for a record's name: "ann v bo", "ann v bo v cy", "ann & cy v bo & di" (Team Speed)."""
    players = match.player_ids
    teams = match.teams or tuple((seat,) for seat in range(len(players)))
    return " v ".join(" & ".join(str(_handle(handles, players[seat])) for seat in team) for team in teams)


def _fits(places: list[int] | None, seats: int) -> bool:
    """A finishing order of one place per seat (1, 2, 2, 4 ...)."""
    if places is None or len(places) != seats:
        return False
    try:
        check_places(places)
    except ValueError:
        return False
    return True


def _series_step(match: Match, rows: list[GameRecord]) -> SeriesStep:
    """The series rule run again over the games: points per place at a table, games won otherwise."""
    if match.is_table:
        seats = len(match.player_ids)
        return table_series_step(
            # A game whose places are not a finishing order counts for nothing here (its own difference is named).
            games=[(number, status, places if _fits(places, seats) else None) for number, status, _, places, _ in rows],
            player_ids=match.player_ids,
            points_per_place=match.points_per_place or DEFAULT_POINTS_PER_PLACE[seats],
            series=match.series,
            length=match.series_length,
        )
    # Two players, or two teams (a team's games are won in the name of its first seat).
    sides = tuple(match.player_ids[team[0]] for team in match.teams) or match.player_ids
    return series_step(
        games=[(number, status, winner_id) for number, status, winner_id, _, _ in rows],
        player_ids=(sides[0], sides[1]),
        wins_needed=match.wins_needed,
    )


def _winner_named(match: Match, places: list[int]) -> tuple[bool, int | None]:
    """Whether these places are a result the match's games can have, and the winner they name.

    At a table or in a timed match, the one alone in first place (none when
    first place is shared); in Team Speed, the first seat of the team whose
    partners share first place (and the other team after them).
    """
    players = match.player_ids
    if match.is_team:
        for team in match.teams:
            if tuple(places) == team_places(winning_team=team, seats=len(players)):
                return True, players[team[0]]
        return False, None
    first = sole_winner(tuple(places))
    return True, None if first is None else players[first]


def _game_differences(
    match: Match, record: str, rows: list[GameRecord], handles: dict[int, str]
) -> Iterator[Difference]:
    """Each game's result against the match's seats and, where games end in places, against its evidence."""
    players = match.player_ids
    if match.is_table and match.points_per_place is None:
        yield Difference(record, "points_per_place", None, "points for each place")
    for number, status, winner_id, places, decided_by in rows:
        decided = status == Game.Status.DECIDED
        if decided and winner_id is not None and winner_id not in players:
            yield Difference(record, f"game {number} winner", _handle(handles, winner_id), "one of its players")
        if not decided and winner_id is not None:
            yield Difference(record, f"game {number} winner ({status})", _handle(handles, winner_id), None)
        if not decided or not match.ranks_games:
            # Places belong to decided games of tables, Team Speed and timed matches only.
            if places is not None:
                yield Difference(record, f"game {number} places ({status})", places, None)
            if decided and winner_id is None:
                yield Difference(record, f"game {number} winner", None, "one of its players (decided, not void)")
            continue
        if not _fits(places, len(players)):
            yield Difference(record, f"game {number} places", places, f"a finishing order of {len(players)} places")
            continue
        assert places is not None
        possible, expected = _winner_named(match, places)
        if not possible:
            yield Difference(record, f"game {number} places", places, "one team first (both partners), the other after")
        elif winner_id != expected:
            yield Difference(record, f"game {number} winner", _handle(handles, winner_id), _handle(handles, expected))
        elif decided_by in _BY_EVIDENCE:
            evidence = _evidence(match, number)
            if (winner_id, tuple(places)) not in evidence:
                named = sorted(list(result[1]) for result in evidence if result[1] is not None)
                expected_places: object = named[0] if len(named) == 1 else named or "a result its evidence names"
                yield Difference(record, f"game {number} places (by its evidence)", places, expected_places)


def _evidence(match: Match, number: int) -> set[tuple[int | None, tuple[int, ...] | None]]:
    """The results a game's evidence names (its verified logs and its players' reports), one query."""
    game = Game.objects.get(match=match, number=number)
    game.match = match
    claims, _pending = game_claims(game)
    return {claim.result for claim in claims}


def _pairings(handles: dict[int, str]) -> Checked:
    pairings = TournamentMatch.objects.filter(match__isnull=False).select_related("match", "tournament").order_by("id")
    for pairing in pairings:
        match = pairing.match
        assert match is not None
        record = f"{pairing.tournament.name} {pairing.key} (match {match.pk})"
        if pairing.seat_ids != match.player_ids:
            yield Difference(
                record,
                "players",
                [_handle(handles, pk) for pk in pairing.seat_ids],
                [_handle(handles, pk) for pk in match.player_ids],
            )
        if match.status == Match.Status.ANNULLED:
            yield Difference(record, "match", "annulled", "a match that counts (an annulled one is detached)")
        elif pairing.status == TournamentMatch.Status.DECIDED:
            if match.status != Match.Status.FINISHED:
                yield Difference(record, "status", pairing.status, f"not decided: its match is {match.status}")
            if pairing.winner_id != match.winner_id:
                yield Difference(
                    record, "winner", _handle(handles, pairing.winner_id), _handle(handles, match.winner_id)
                )
            tournament = pairing.tournament
            points = format_for(tournament.format).table_points(tournament, len(pairing.seat_ids))
            expected = pairing_snapshot(tournament, pairing, points)
            for field in SNAPSHOT_FIELDS:
                if getattr(pairing, field) != expected[field]:
                    yield Difference(record, field, getattr(pairing, field), expected[field])
        elif pairing.status == TournamentMatch.Status.READY:
            if match.status != Match.Status.IN_PROGRESS:
                yield Difference(record, "status", pairing.status, f"decided: its match is {match.status}")
        else:
            yield Difference(record, "match", match.pk, f"none while {pairing.status}")
        yield None


def _tournament_state(tournament_id: int) -> dict[str, Any]:
    tournament = Tournament.objects.get(pk=tournament_id)
    return {
        "status": tournament.status,
        "places": {
            player_id: (place, place_to)
            for player_id, place, place_to in Entrant.objects.filter(tournament_id=tournament_id).values_list(
                "player_id", "place", "place_to"
            )
        },
        "pairings": {
            key: (status, one, two, winner, match_id is not None, source, three, four)
            for key, status, one, two, winner, match_id, source, three, four in TournamentMatch.objects.filter(
                tournament_id=tournament_id
            ).values_list(
                "key",
                "status",
                "player_one_id",
                "player_two_id",
                "winner_id",
                "match_id",
                "result_source",
                "player_three_id",
                "player_four_id",
            )
        },
    }


def _tournaments(handles: dict[int, str]) -> Checked:
    for tournament in Tournament.objects.exclude(status=Tournament.Status.SETUP).order_by("id"):
        stored = _tournament_state(tournament.pk)
        # The format run again over the results as they stand, as after a correction
        # (a finished tournament is reopened first), then undone: the audit writes nothing.
        with transaction.atomic():
            if tournament.status == Tournament.Status.FINISHED:
                tournament.status = Tournament.Status.RUNNING
                tournament.save(update_fields=["status"])
                Entrant.objects.filter(tournament=tournament).update(place=None, place_to=None)
            pairings_advance(tournament)
            expected = _tournament_state(tournament.pk)
            transaction.set_rollback(True)
        yield from _tournament_differences(tournament.name, stored, expected, handles)
        yield None


def _tournament_differences(
    name: str, stored: dict[str, Any], expected: dict[str, Any], handles: dict[int, str]
) -> Iterator[Difference]:
    if stored["status"] != expected["status"]:
        yield Difference(name, "status", stored["status"], expected["status"])
    for player_id in sorted(stored["places"].keys() | expected["places"].keys()):
        was, should = stored["places"].get(player_id), expected["places"].get(player_id)
        if was != should:
            yield Difference(name, f"place of {_handle(handles, player_id)}", was, should)
    fields = (
        "status",
        "player_one",
        "player_two",
        "winner",
        "has a match",
        "result_source",
        "player_three",
        "player_four",
    )
    for key in sorted(stored["pairings"].keys() | expected["pairings"].keys()):
        was, should = stored["pairings"].get(key), expected["pairings"].get(key)
        if was is None or should is None:
            yield Difference(f"{name} {key}", "pairing", was and "present", should and "present")
            continue
        for index, field in enumerate(fields):
            if was[index] != should[index]:
                show = _handle if field.startswith("player_") or field == "winner" else (lambda _h, value: value)
                yield Difference(f"{name} {key}", field, show(handles, was[index]), show(handles, should[index]))


def _ratings(handles: dict[int, str]) -> Checked:
    steps, final = ratings_from_scratch()
    expected = {(step.player, step.match): step for step in steps}
    stored = {(change.player_id, change.match_id): change for change in RatingChange.objects.all()}
    for player_id, match_id in sorted(expected.keys() | stored.keys()):
        record = f"rating change of {_handle(handles, player_id)} for match {match_id}"
        step, change = expected.get((player_id, match_id)), stored.get((player_id, match_id))
        if step is None or change is None:
            yield Difference(record, "row", change and "present", step and "present")
            continue
        pairs = (
            ("rating_before", change.rating_before, step.before.rating),
            ("deviation_before", change.deviation_before, step.before.deviation),
            ("volatility_before", change.volatility_before, step.before.volatility),
            ("rating_after", change.rating_after, step.after.rating),
            ("deviation_after", change.deviation_after, step.after.deviation),
            ("volatility_after", change.volatility_after, step.after.volatility),
            ("games", change.games, step.games),
        )
        for field, was, should in pairs:
            if was != should:  # exactly: the same results in the same order give the same floats
                yield Difference(record, field, was, should)
        yield None
    games: dict[int, int] = {}
    for step in steps:
        games[step.player] = games.get(step.player, 0) + step.games
    rows = {row.player_id: row for row in PlayerRating.objects.all()}
    for player_id in sorted(final.keys() | rows.keys()):
        record = f"rating of {_handle(handles, player_id)}"
        rating, row = final.get(player_id), rows.get(player_id)
        if rating is None or row is None:
            yield Difference(record, "row", row and "present", rating and "present")
            continue
        for field, was, should in (
            ("rating", row.rating, rating.rating),
            ("deviation", row.deviation, rating.deviation),
            ("volatility", row.volatility, rating.volatility),
            ("games", row.games, games[player_id]),
        ):
            if was != should:
                yield Difference(record, field, was, should)
        yield None
