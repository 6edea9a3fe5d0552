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
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from speedsite.errors import Conflict, Invalid, NotFound
from speedsite.site_cache import site_lists_changed

from ..models import Game, Match, ResultChange
from ..placings import DEFAULT_POINTS_PER_PLACE, places_from_winner, sole_winner
from ..selectors import AnyUser, signed_in
from ..series import TableGameRow, series_step, table_scores, table_series_step
from .games import game_record_change, game_state
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


def _match_state(match: Match) -> dict[str, Any]:
    return {"status": match.status, "winner": match.winner.handle if match.winner is not None else None}


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
    now = timezone.now()
    source = {"correction": correction_id}
    games = list(Game.objects.filter(match=match, status=Game.Status.DECIDED).order_by("number"))
    for game in games:
        if game.winner_id is None:
            continue  # a timed game whose first place is shared: no one won it either way
        game.match = match  # history names players by handle: the locked match has them
        before = game_state(game)
        game.winner_id = other[game.winner_id]
        if game.places is not None:  # a timed match's places name its winner (the audit checks it)
            game.places = list(places_from_winner(players.index(game.winner_id), 2) or ())
        _correction_save(game, made_by=made_by, reason=reason, now=now)
        game_record_change(
            game=game, kind=ResultChange.Kind.CORRECTION, before=before, made_by=made_by, reason=reason, source=source
        )
    step = series_step(
        games=Game.objects.filter(match=match).values_list("number", "status", "winner_id"),
        player_ids=players,
        wins_needed=match.wins_needed,
    )
    # Turning every decided game round turns the series round: the new winner has the wins the old one had.
    assert step.winner_id == winner_id, "a finished match's games, turned round, give the other player the series"
    match.winner = match.player_one if winner_id == match.player_one_id else match.player_two
    # finished_at stays: the match was decided then; the correction says how (ratings keep its place in time).
    Match.objects.filter(pk=match.pk).update(winner=match.winner)
    return match


def _correction_save(game: Game, *, made_by: AnyUser, reason: str, now: Any) -> None:
    game.decided_by = Game.DecidedBy.CORRECTION
    game.decided_at = now
    game.decided_by_user = signed_in(made_by)
    game.reason = reason
    game.save(update_fields=["winner", "places", "decided_by", "decided_at", "decided_by_user", "reason"])


@dataclass(frozen=True)
class PairCorrection:
    """What correcting some games' winners of a finished two-player match does, worked out before anything is written.

    `changed` maps each game number whose winner changes to its winner's id
    before and after; `winners` is every decided game's winner as the
    correction leaves it (None: a timed game whose first place was shared);
    `winner_id` is who then wins the series.
    """

    match: Match
    changed: dict[int, tuple[int | None, int]]
    winners: dict[int, int | None]
    winner_id: int

    def handle(self, player_id: int | None) -> str | None:
        return next((player.handle for player in self.match.players if player.pk == player_id), None)

    def score(self, *, corrected: bool) -> dict[str, int]:
        """Each handle's games won, before or after the correction."""
        winners = self.winners.values() if corrected else self._before().values()
        return {player.handle: sum(1 for pk in winners if pk == player.pk) for player in self.match.players}

    def _before(self) -> dict[int, int | None]:
        return {
            number: self.changed[number][0] if number in self.changed else pk for number, pk in self.winners.items()
        }


def pair_correction_plan(*, match: Match, winners: Mapping[int, str]) -> PairCorrection:
    """Check corrected winners for some decided games of a finished two-player match (game number to handle).

    The corrected series must end where the match ended: its winner reaches
    the wins needed in its last decided game and not before (a game played
    after the series was over could not have been played). A game cannot be
    added or taken away here. Raises `Invalid` saying what is wrong. Reads only.
    """
    if len(match.player_ids) != 2:
        raise Invalid(f"Match {match.pk} is not a match of two players; correct its games' places instead.")
    if match.status != Match.Status.FINISHED:
        raise Conflict(
            f"Match {match.pk} is {match.get_status_display().lower()}; only a finished result is corrected."
        )
    if not winners:
        raise Invalid("Give the corrected winner of at least one game.", extra={"field": "games"})
    by_handle = {player.handle.lower(): player.pk for player in match.players}
    decided: dict[int, int | None] = dict(
        Game.objects.filter(match=match, status=Game.Status.DECIDED)
        .order_by("number")
        .values_list("number", "winner_id")
    )
    corrected = dict(decided)
    changed: dict[int, tuple[int | None, int]] = {}
    for number, handle in winners.items():
        if number not in decided:
            raise Invalid(
                f"Game {number} of match {match.pk} is not a decided game; only decided games' winners are corrected.",
                extra={"field": "games"},
            )
        winner_id = by_handle.get(str(handle).lower())
        if winner_id is None:
            seated = " v ".join(player.handle for player in match.players)
            raise Invalid(f"{handle!r} did not play in match {match.pk} ({seated}).", extra={"field": "games"})
        corrected[number] = winner_id
        if decided[number] != winner_id:
            changed[number] = (decided[number], winner_id)
    wins = dict.fromkeys(match.player_ids, 0)
    numbers = sorted(corrected)
    series_winner: int | None = None
    for position, number in enumerate(numbers):
        pk = corrected[number]
        if pk is None:
            continue
        wins[pk] += 1
        if wins[pk] >= match.wins_needed:
            series_winner = pk
            if position != len(numbers) - 1:
                score = "\N{EN DASH}".join(str(wins[seat]) for seat in match.player_ids)
                raise Invalid(
                    f"With these winners the series is over after game {number} ({score}), but game "
                    f"{numbers[-1]} was played after it. Correct the games so the last one decides the match.",
                    extra={"field": "games"},
                )
            break
    if series_winner is None:
        score = "\N{EN DASH}".join(str(wins[seat]) for seat in match.player_ids)
        raise Invalid(
            f"With these winners no one reaches the {match.wins_needed} game{'s' if match.wins_needed != 1 else ''} "
            f"needed ({score}): the match would not be over. Correct the games so one player wins the series.",
            extra={"field": "games"},
        )
    return PairCorrection(match, changed, corrected, series_winner)


@transaction.atomic
def match_correct_games(
    *,
    match_id: int,
    winners: Mapping[int, str],
    correction_id: int,
    made_by: AnyUser = None,
    reason: str = "",
) -> PairCorrection:
    """Some games of a finished two-player match were really won by the other player: set them, and the winner.

    The real score (2-1 the other way, not 1-2) is entered game by game. Each
    changed game says `correction` and keeps a history row naming the
    correction; in a timed match its places follow its new winner. The
    match's winner follows from the series (`pair_correction_plan`);
    finished_at stays, so the ratings keep the match's place in time.
    """
    match = _match_lock(match_id)
    plan = pair_correction_plan(match=match, winners=winners)
    seats = match.player_ids

    def correct(game: Game) -> None:
        game.winner_id = plan.changed[game.number][1]
        if game.places is not None or match.time_limit_ms is not None:
            game.places = list(places_from_winner(seats.index(game.winner_id), 2) or ())

    _games_correct(
        match, plan.changed, plan.winner_id, correct, correction_id=correction_id, made_by=made_by, reason=reason
    )
    return plan


def _games_correct(
    match: Match,
    numbers: Iterable[int],
    winner_id: int | None,
    correct: Callable[[Game], None],
    *,
    correction_id: int,
    made_by: AnyUser,
    reason: str,
) -> None:
    """Apply `correct` to each of the match's games `numbers` (locked by the caller), each with its history row
    naming the correction, then set the match's winner. finished_at stays: the ratings keep the match's place
    in time."""
    now = timezone.now()
    for game in Game.objects.filter(match=match, number__in=list(numbers)).order_by("number"):
        game.match = match
        before = game_state(game)
        correct(game)
        _correction_save(game, made_by=made_by, reason=reason, now=now)
        game_record_change(
            game=game,
            kind=ResultChange.Kind.CORRECTION,
            before=before,
            made_by=made_by,
            reason=reason,
            source={"correction": correction_id},
        )
    if match.winner_id != winner_id:
        match.winner = next(player for player in match.players if player.pk == winner_id)
        Match.objects.filter(pk=match.pk).update(winner=match.winner)


@dataclass(frozen=True)
class TableCorrection:
    """What correcting some games' places of a finished table does, worked out before anything is written.

    `changed` maps each game number whose places change to its places before
    and after (per seat); `games` are all the match's games as the series rule
    reads them, with the corrected places; `winner_id` is who then wins the series.
    """

    match: Match
    changed: dict[int, tuple[tuple[int, ...], tuple[int, ...]]]
    games: list[TableGameRow]
    winner_id: int

    def handles_places(self, places: tuple[int, ...]) -> dict[str, int]:
        return {player.handle: place for player, place in zip(self.match.players, places, strict=True)}

    def standing(self, *, corrected: bool) -> dict[str, dict[str, int]]:
        """Each handle's series points and first places, before or after the correction."""
        rows = self.games
        if not corrected:
            rows = [
                (number, status, self.changed[number][0] if number in self.changed else places)
                for number, status, places in rows
            ]
        points = self.match.points_per_place or DEFAULT_POINTS_PER_PLACE[len(self.match.player_ids)]
        scores = table_scores(rows, seats=len(self.match.player_ids), points_per_place=points)
        return {
            player.handle: {"points": score.points, "firsts": score.firsts}
            for player, score in zip(self.match.players, scores, strict=True)
        }


def table_correction_plan(*, match: Match, games: Mapping[int, Mapping[str, int]]) -> TableCorrection:
    """Check corrected places for some decided games of a finished table (by game number, places by handle).

    Raises `Invalid` when the match is no finished table, a game is not one of
    its decided games, the places are not every player's finishing order, or
    the corrected series has no winner (equal at the top on every tie-break:
    correct another game so that one player wins it). Reads only.
    """
    if not match.is_table:
        raise Invalid(f"Match {match.pk} is not a table of three or four; correct its winner instead.")
    if match.status != Match.Status.FINISHED:
        raise Conflict(
            f"Match {match.pk} is {match.get_status_display().lower()}; only a finished result is corrected."
        )
    if not games:
        raise Invalid("Give the corrected places of at least one game.", extra={"field": "games"})
    rows = {
        number: (status, places)
        for number, status, places in Game.objects.filter(match=match)
        .order_by("number")
        .values_list("number", "status", "places")
    }
    changed: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}
    for number, by_handle in games.items():
        status, places = rows.get(number, (None, None))
        if status != Game.Status.DECIDED or places is None:
            shown = "not played" if status is None else Game.Status(status).label.lower()
            raise Invalid(
                f"Game {number} of match {match.pk} is {shown}; only decided games' places are corrected.",
                extra={"field": "games"},
            )
        after = places_from_handles(match, dict(by_handle))
        assert after is not None
        if after != tuple(places):
            changed[number] = (tuple(places), after)
    series: list[TableGameRow] = [
        (number, status, changed[number][1] if number in changed else places)
        for number, (status, places) in rows.items()
    ]
    step = table_series_step(
        games=series,
        player_ids=match.player_ids,
        points_per_place=match.points_per_place or DEFAULT_POINTS_PER_PLACE[len(match.player_ids)],
        series=match.series,
        length=match.series_length,
    )
    if step.winner_id is None:
        raise Invalid(
            "With these places no one wins the series: the top players are level on points, first places and "
            "their latest games. Correct the places so that one player wins it.",
            extra={"field": "games"},
        )
    return TableCorrection(match, changed, series, step.winner_id)


@transaction.atomic
def match_correct_places(
    *,
    match_id: int,
    games: Mapping[int, Mapping[str, int]],
    correction_id: int,
    made_by: AnyUser = None,
    reason: str = "",
) -> TableCorrection:
    """Some games of a finished table really ended in other places: set them, and the series' winner from them.

    Each changed game's winner is the one alone in first place (none when it is
    shared), it says `correction` and keeps a history row naming the
    correction; the series is run again (`table_series_step`) and names the
    match's winner. Games given with their places unchanged are left alone.
    """
    match = _match_lock(match_id)
    plan = table_correction_plan(match=match, games=games)

    def correct(game: Game) -> None:
        places = plan.changed[game.number][1]
        first = sole_winner(places)
        game.places = list(places)
        game.winner_id = None if first is None else match.player_ids[first]

    _games_correct(
        match, plan.changed, plan.winner_id, correct, correction_id=correction_id, made_by=made_by, reason=reason
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
    before = _match_state(match)
    match.status = Match.Status.ANNULLED
    Match.objects.filter(pk=match.pk).update(status=match.status)
    Game.objects.filter(match=match, status=Game.Status.AWAITING_CONFIRMATION).update(confirm_by=None)
    ResultChange.objects.create(
        match=match,
        game=None,
        kind=ResultChange.Kind.ANNULMENT,
        made_by=signed_in(made_by),
        reason=reason,
        before=before,
        after=_match_state(match),
        source={"correction": correction_id},
    )
    site_lists_changed()
    return match
