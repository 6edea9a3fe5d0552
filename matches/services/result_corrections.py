"""Corrections from above: a match's result turned round, a table's places corrected, or the match set aside.

An app above matches (tournaments, when an organiser corrects a pairing)
decides that a finished match went the other way (two players), that some
games of a finished table ended in other places, or that a match should
never have been played. These services change the match itself, so every
page that reads the match agrees with the correction, and keep each change
in the match's history with the correction's id (a plain value: matches
never imports the app that made it). No listener runs: the caller brings
its own records (pairings, ratings) up to date in the same transaction.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from django.db import transaction
from django.utils import timezone

from core.errors import Conflict, Invalid, NotFound

from ..models import Game, Match, ResultChange
from ..placings import DEFAULT_POINTS_PER_PLACE, places_from_winner, sole_winner
from ..selectors import AnyUser, signed_in
from ..series import TableGameRow, TableScore, series_step, table_scores, table_series_step
from .corrected_games import GamesCorrection, games_corrected, series_end
from .result_writer import game_record_change, game_state, game_unplayed, match_outcome_write, match_state
from .results import places_from_handles


def _match_lock(match_id: int) -> Match:
    match = (
        Match.objects.select_for_update(of=("self",))
        .select_related("player_one", "player_two", "player_three", "player_four", "winner")
        .filter(pk=match_id)
        .first()
    )
    if match is None:
        raise NotFound(f"There is no match {match_id}.")
    return match


@transaction.atomic
def match_correct(
    *, match_id: int, winner_id: int, correction_id: int, made_by: AnyUser = None, reason: str = ""
) -> Match:
    """A finished match really went to `winner_id`: turn each decided game's result round.

    The series then reads the same the other way (the last game is still the
    one that ended it), every changed game says `correction` and keeps a
    history row naming the correction, and the match's winner follows from its
    games. In a timed match each turned game's places follow its new winner
    (a game whose first place was shared stays as it was: it counted for no
    one). A match already won by `winner_id` is left as it is. A table of
    three or four is corrected by its games' places (`match_correct_places`).
    """
    match = _match_lock(match_id)
    if len(match.player_ids) > 2:
        raise Invalid(
            f"Match {match.pk} seats {len(match.player_ids)} players: its result is corrected by its games' places."
        )
    players = (match.player_one_id, match.player_two_id)
    if winner_id not in players:
        raise Invalid(f"Player {winner_id} does not play in match {match.pk}.", extra={"field": "winner"})
    if match.status != Match.Status.FINISHED:
        raise Conflict(
            f"Match {match.pk} is {match.get_status_display().lower()}; only a finished result is corrected."
        )
    if match.winner_id == winner_id:
        return match
    other = {players[0]: players[1], players[1]: players[0]}
    # A timed game whose first place is shared has no winner: no one won it either way.
    games = list(Game.objects.filter(match=match, status=Game.Status.DECIDED, winner__isnull=False).order_by("number"))

    def turn(game: Game) -> None:
        assert game.winner_id is not None
        game.winner_id = other[game.winner_id]
        if game.places is not None:  # a timed match's places name its winner (the audit checks it)
            game.places = list(places_from_winner(players.index(game.winner_id), 2) or ())

    _games_correct(match, games, winner_id, turn, correction_id=correction_id, made_by=made_by, reason=reason)
    step = series_step(
        games=((game.number, game.status, game.winner_id) for game in games),
        player_ids=players,
        wins_needed=match.wins_needed,
    )
    # Turning every decided game round turns the series round: the new winner has the wins the old one had.
    assert step.winner_id == winner_id, "a finished match's games, turned round, give the other player the series"
    return match


class PairCorrection(GamesCorrection[int]):
    """Some games of a finished two-player match corrected: each game's result is its winner's id."""

    @property
    def winners(self) -> dict[int, int | None]:
        """Every decided game's winner as the correction leaves it (None: a timed game's shared first place)."""
        return {
            number: winner for number, (status, winner) in sorted(self.after.items()) if status == Game.Status.DECIDED
        }

    def handle(self, player_id: int | None) -> str | None:
        return next((player.handle for player in self.match.players if player.pk == player_id), None)

    def score(self, *, corrected: bool) -> dict[str, int]:
        """Each handle's games won, before or after the correction."""
        return _wins(self.match, self.after if corrected else self.before)


def _wins(match: Match, games: Mapping[int, tuple[str, int | None]]) -> dict[str, int]:
    return {
        player.handle: sum(1 for status, pk in games.values() if status == Game.Status.DECIDED and pk == player.pk)
        for player in match.players
    }


def _finished(match: Match) -> None:
    if match.status != Match.Status.FINISHED:
        raise Conflict(
            f"Match {match.pk} is {match.get_status_display().lower()}; only a finished result is corrected."
        )


def _series_words(match: Match) -> str:
    return f"{'a best of' if match.series == Match.Series.BEST_OF else 'a first to'} {match.series_length}"


def pair_correction_plan(*, match: Match, winners: Mapping[int, str | None]) -> PairCorrection:
    """Check the corrected games of a finished two-player match: game number to the real winner's handle, or None
    for a game that did not count (it becomes void).

    A game the match never had is added by giving its winner, numbered on from
    its last game (a 2-0 that was really 2-1). The corrected series must end
    where the match ended: its winner reaches the wins needed in the last game
    that counts, and only void games follow (a game that counted after the
    series was over could not have been played); so no more games count than
    the series can have (`corrected_games`). Raises `Invalid` saying what is wrong. Reads only.
    """
    if len(match.player_ids) != 2:
        raise Invalid(f"Match {match.pk} is not a match of two players; correct its games' places instead.")
    _finished(match)
    by_handle = {player.handle.lower(): player.pk for player in match.players}

    def winner_id(handle: str) -> int:
        found = by_handle.get(str(handle).lower())
        if found is None:
            seated = " v ".join(player.handle for player in match.players)
            raise Invalid(f"{handle!r} did not play in match {match.pk} ({seated}).", extra={"field": "games"})
        return found

    rows = list(Game.objects.filter(match=match).order_by("number").values_list("number", "status", "winner_id"))
    before, after = games_corrected(match, rows, winners, winner_id)
    most = 2 * match.wins_needed - 1
    won = sum(1 for status, winner in after.values() if status == Game.Status.DECIDED and winner is not None)
    if won > most:
        raise Invalid(
            f"{_series_words(match).capitalize()} has at most {most} games that someone wins; these games make {won}. "
            "Void the games that did not count.",
            extra={"field": "games"},
        )

    def series_winner(games: dict[int, tuple[str, int | None]]) -> int | None:
        wins = _wins(match, games)
        return next((player.pk for player in match.players if wins[player.handle] >= match.wins_needed), None)

    needed = f"{match.wins_needed} game{'s' if match.wins_needed != 1 else ''}"
    winner = series_end(
        after,
        winner_of=series_winner,
        score_words=lambda games: "\N{EN DASH}".join(map(str, _wins(match, games).values())),
        not_over=f"With these games no one reaches the {needed} needed ({{score}}): the match would not be over. "
        "Correct the games, or add the game that decided it, so one player wins the series.",
    )
    return PairCorrection(match, before, after, winner)


@transaction.atomic
def match_correct_games(
    *,
    match_id: int,
    winners: Mapping[int, str | None],
    correction_id: int,
    made_by: AnyUser = None,
    reason: str = "",
) -> PairCorrection:
    """Some games of a finished two-player match went otherwise: set them (a winner, void, or added), and the winner.

    The real score (2-1 the other way, not 1-2; 2-0 that was 2-1, or 2-1 that
    was 2-0) is entered game by game (`pair_correction_plan`: None voids a
    game). Each changed game says `correction` and keeps a history row naming
    the correction (an added game's history starts there); in a timed match
    its places follow its new winner. The match's winner follows from the
    series; finished_at stays, so the ratings keep the match's place in time.
    """
    match = _match_lock(match_id)
    plan = pair_correction_plan(match=match, winners=winners)
    seats = match.player_ids
    changed = plan.changed

    def correct(game: Game) -> None:
        status, winner_id = changed[game.number][1]
        game.status, game.winner_id = status, winner_id
        if status == Game.Status.VOID:
            game.places = None  # a void game has no places (the audit checks it)
        elif game.places is not None or match.time_limit_ms is not None:
            assert winner_id is not None
            game.places = list(places_from_winner(seats.index(winner_id), 2) or ())

    games = _changed_games(match, changed)
    _games_correct(match, games, plan.winner_id, correct, correction_id=correction_id, made_by=made_by, reason=reason)
    return plan


def _changed_games(match: Match, changed: Mapping[int, object]) -> list[Game]:
    """The match's games a correction changes, in order: those it has (locked with the match), and new unsaved
    ones for the games it adds."""
    games = list(Game.objects.filter(match=match, number__in=list(changed)).order_by("number"))
    played = {game.number for game in games}
    return games + [game_unplayed(match=match, number=number) for number in changed if number not in played]


#: What a correction sets on each game it changes.
_CORRECTED_FIELDS = ["status", "winner", "places", "decided_by", "decided_at", "decided_by_user", "reason"]


def _games_correct(
    match: Match,
    games: Iterable[Game],
    winner_id: int | None,
    correct: Callable[[Game], None],
    *,
    correction_id: int,
    made_by: AnyUser,
    reason: str,
) -> None:
    """Apply `correct` to each of the match's `games` (locked by the caller; unsaved: a game the correction adds),
    each written with its history row naming the correction, then set the match's winner. finished_at stays: the
    ratings keep the match's place in time."""
    now = timezone.now()
    for game in games:
        game.match = match  # history names players by handle: the locked match has them
        before = game_state(game) if game.pk is not None else {}
        correct(game)
        game.decided_by = Game.DecidedBy.CORRECTION
        game.decided_at = now
        game.decided_by_user = signed_in(made_by)
        game.reason = reason
        game_record_change(
            game=game,
            kind=ResultChange.Kind.CORRECTION,
            before=before,
            fields=_CORRECTED_FIELDS,
            made_by=made_by,
            reason=reason,
            source={"correction": correction_id},
        )
    if match.winner_id != winner_id:
        match.winner = next(player for player in match.players if player.pk == winner_id)
        match_outcome_write(match=match, fields=["winner"])


class TableCorrection(GamesCorrection[tuple[int, ...]]):
    """Some games of a finished table corrected: each game's result is every seat's place, in seat order."""

    @property
    def games(self) -> list[TableGameRow]:
        """Every game as the correction leaves it, as the series rule reads it."""
        return [(number, status, places) for number, (status, places) in sorted(self.after.items())]

    def handles_places(self, places: tuple[int, ...] | None) -> dict[str, int] | None:
        if places is None:
            return None
        return {player.handle: place for player, place in zip(self.match.players, places, strict=True)}

    def standing(self, *, corrected: bool) -> dict[str, dict[str, int]]:
        """Each handle's series points and first places, before or after the correction."""
        scores = _table_scores(self.match, self.after if corrected else self.before)
        return {
            player.handle: {"points": score.points, "firsts": score.firsts}
            for player, score in zip(self.match.players, scores, strict=True)
        }


def _points_per_place(match: Match) -> tuple[int, ...]:
    return tuple(match.points_per_place or DEFAULT_POINTS_PER_PLACE[len(match.player_ids)])


def _table_scores(match: Match, games: Mapping[int, tuple[str, tuple[int, ...] | None]]) -> list[TableScore]:
    rows = [(number, status, places) for number, (status, places) in sorted(games.items())]
    return table_scores(rows, seats=len(match.player_ids), points_per_place=_points_per_place(match))


def table_correction_plan(*, match: Match, games: Mapping[int, Mapping[str, int] | None]) -> TableCorrection:
    """Check the corrected games of a finished table: game number to every player's place by handle, or None for
    a game that did not count (it becomes void).

    A game the match never had is added by giving its places, numbered on from
    its last game. As for two players (`pair_correction_plan`), the series is
    run again over the corrected games and must end on the last game that
    counts (`corrected_games`). Raises `Invalid` when the match is no finished
    table, a game cannot be corrected, the places are not every player's
    finishing order, or the corrected series has no winner (equal at the top on
    every tie-break, or not over). Reads only.
    """
    if not match.is_table:
        raise Invalid(f"Match {match.pk} is not a table of three or four; correct its winner instead.")
    _finished(match)
    rows = [
        (number, status, None if places is None else tuple(places))
        for number, status, places in Game.objects.filter(match=match)
        .order_by("number")
        .values_list("number", "status", "places")
    ]

    def places_of(by_handle: Mapping[str, int]) -> tuple[int, ...]:
        places = places_from_handles(match, dict(by_handle))
        assert places is not None
        return places

    before, after = games_corrected(match, rows, games, places_of)

    def series_winner(so_far: dict[int, tuple[str, tuple[int, ...] | None]]) -> int | None:
        return table_series_step(
            games=[(number, status, places) for number, (status, places) in sorted(so_far.items())],
            player_ids=match.player_ids,
            points_per_place=_points_per_place(match),
            series=match.series,
            length=match.series_length,
        ).winner_id

    winner = series_end(
        after,
        winner_of=series_winner,
        score_words=lambda so_far: (
            "\N{EN DASH}".join(str(score.points) for score in _table_scores(match, so_far)) + " points"
        ),
        not_over="With these games no one wins the series ({score}): it is not over, or the top players are level "
        "on points, first places and their latest games. Correct the games, or add the game that decided it, so "
        "that one player wins it.",
    )
    return TableCorrection(match, before, after, winner)


@transaction.atomic
def match_correct_places(
    *,
    match_id: int,
    games: Mapping[int, Mapping[str, int] | None],
    correction_id: int,
    made_by: AnyUser = None,
    reason: str = "",
) -> TableCorrection:
    """Some games of a finished table really ended otherwise: set their places (None: void), add the games it never
    recorded, and the series' winner from them (`table_correction_plan`).

    Each changed game's winner is the one alone in first place (none when it is
    shared), it says `correction` and keeps a history row naming the
    correction (an added game's history starts there); the series is run
    again (`table_series_step`) and names the match's winner. Games given as
    they were recorded are left alone.
    """
    match = _match_lock(match_id)
    plan = table_correction_plan(match=match, games=games)
    changed = plan.changed

    def correct(game: Game) -> None:
        status, places = changed[game.number][1]
        game.status = status
        first = None if places is None else sole_winner(places)
        game.places = None if places is None else list(places)  # a void game has no places (the audit checks it)
        game.winner_id = None if first is None else match.player_ids[first]

    _games_correct(
        match,
        _changed_games(match, changed),
        plan.winner_id,
        correct,
        correction_id=correction_id,
        made_by=made_by,
        reason=reason,
    )
    return plan


@transaction.atomic
def match_annul(*, match_id: int, correction_id: int, made_by: AnyUser = None, reason: str = "") -> Match:
    """Set a match aside: it stays visible, labelled, with its games, and counts nowhere.

    Used when a correction above means the match should never have been
    played (its players were not the ones who should have met). Its winner,
    if it had one, stays as its games say; a claim still awaiting
    confirmation no longer lapses. Annulling twice changes nothing.
    """
    match = _match_lock(match_id)
    if match.status == Match.Status.ANNULLED:
        return match
    before = match_state(match)
    match.status = Match.Status.ANNULLED
    match_outcome_write(
        match=match,
        fields=["status"],
        kind=ResultChange.Kind.ANNULMENT,
        before=before,
        made_by=made_by,
        reason=reason,
        source={"correction": correction_id},
    )
    return match
