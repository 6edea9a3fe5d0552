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

from django.db import transaction
from django.utils import timezone

from core.errors import Conflict, Invalid, NotFound

from ..models import Game, Match, ResultChange
from ..placings import DEFAULT_POINTS_PER_PLACE, places_from_winner, sole_winner
from ..selectors import AnyUser, signed_in
from ..series import TableGameRow, series_step, table_scores, table_series_step
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


#: A two-player game as a correction reads it: its status and its winner's id (None: void, or a timed game
#: whose first place was shared). `NOT_PLAYED` stands for a game the match never had.
PairGame = tuple[str, int | None]
NOT_PLAYED = "not_played"
_SETTLED = (Game.Status.DECIDED, Game.Status.VOID)


@dataclass(frozen=True)
class PairCorrection:
    """What correcting some games of a finished two-player match does, worked out before anything is written.

    `before` is every settled game (decided or void) as recorded, `after`
    every game as the correction leaves it (the games it adds too), each as a
    `PairGame`; `winner_id` is who then wins the series.
    """

    match: Match
    before: dict[int, PairGame]
    after: dict[int, PairGame]
    winner_id: int

    @property
    def changed(self) -> dict[int, tuple[PairGame, PairGame]]:
        """Each game the correction changes (or adds), before and after, by number."""
        return {
            number: (self.before.get(number, (NOT_PLAYED, None)), game)
            for number, game in sorted(self.after.items())
            if self.before.get(number) != game
        }

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
        games = (self.after if corrected else self.before).values()
        return {
            player.handle: sum(1 for status, pk in games if status == Game.Status.DECIDED and pk == player.pk)
            for player in self.match.players
        }


def _score_words(match: Match, wins: Mapping[int, int]) -> str:
    return "\N{EN DASH}".join(str(wins[seat]) for seat in match.player_ids)


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
    the series can have. Raises `Invalid` saying what is wrong. Reads only.
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
    rows = list(Game.objects.filter(match=match).order_by("number").values_list("number", "status", "winner_id"))
    before: dict[int, PairGame] = {number: (status, winner) for number, status, winner in rows if status in _SETTLED}
    last = max((number for number, _, _ in rows), default=0)
    after = dict(before)
    for number, handle in winners.items():
        status = next((status for played, status, _ in rows if played == number), None)
        if status is None and number <= last:  # games are numbered from 1 without gaps
            raise Invalid(f"Match {match.pk} has no game {number}.", extra={"field": "games"})
        if status is not None and status not in _SETTLED:
            raise Invalid(
                f"Game {number} of match {match.pk} is {Game.Status(status).label.lower()}: settle it before "
                "correcting the match.",
                extra={"field": "games"},
            )
        if handle is None:
            if number not in before:
                raise Invalid(
                    f"Game {number} of match {match.pk} was never played (its games end at game {last}): "
                    "there is nothing to void.",
                    extra={"field": "games"},
                )
            after[number] = (Game.Status.VOID, None)
            continue
        winner_id = by_handle.get(str(handle).lower())
        if winner_id is None:
            seated = " v ".join(player.handle for player in match.players)
            raise Invalid(f"{handle!r} did not play in match {match.pk} ({seated}).", extra={"field": "games"})
        after[number] = (Game.Status.DECIDED, winner_id)
    added = sorted(number for number in after if number > last)
    if added != list(range(last + 1, last + 1 + len(added))):
        missing = next(number for number in range(last + 1, added[-1]) if number not in after)
        raise Invalid(
            f"Game {added[-1]} cannot be added without game {missing}: the match's games end at game {last}, "
            "and a game a correction adds follows them.",
            extra={"field": "games"},
        )
    most = 2 * match.wins_needed - 1
    won = sum(1 for status, winner in after.values() if status == Game.Status.DECIDED and winner is not None)
    if won > most:
        raise Invalid(
            f"{_series_words(match).capitalize()} has at most {most} games that someone wins; these games make {won}. "
            "Void the games that did not count.",
            extra={"field": "games"},
        )
    return PairCorrection(match, before, after, _series_end(match, after))


def _series_end(match: Match, games: Mapping[int, PairGame]) -> int:
    """Who wins the series these games make, checking that it ends on the last game that counts."""
    wins = dict.fromkeys(match.player_ids, 0)
    ended: int | None = None
    for number in sorted(games):
        status, winner = games[number]
        if ended is not None:
            if status == Game.Status.VOID:
                continue  # did not count: the series stays over
            raise Invalid(
                f"With these games the series is over after game {ended} ({_score_words(match, wins)}), but game "
                f"{number} counts after it. Correct the games so the last one that counts decides the match, "
                "or void those after it.",
                extra={"field": "games"},
            )
        if status != Game.Status.DECIDED or winner is None:
            continue
        wins[winner] += 1
        if wins[winner] >= match.wins_needed:
            ended = number
    if ended is None:
        needed = f"{match.wins_needed} game{'s' if match.wins_needed != 1 else ''}"
        raise Invalid(
            f"With these games no one reaches the {needed} needed ({_score_words(match, wins)}): the match would "
            "not be over. Correct the games, or add the game that decided it, so one player wins the series.",
            extra={"field": "games"},
        )
    return max(wins, key=wins.__getitem__)


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
    games = list(Game.objects.filter(match=match, number__in=list(changed)).order_by("number"))
    played = {game.number for game in games}
    games += [game_unplayed(match=match, number=number) for number in changed if number not in played]

    def correct(game: Game) -> None:
        status, winner_id = changed[game.number][1]
        game.status, game.winner_id = status, winner_id
        if status == Game.Status.VOID:
            game.places = None  # a void game has no places (the audit checks it)
        elif game.places is not None or match.time_limit_ms is not None:
            assert winner_id is not None
            game.places = list(places_from_winner(seats.index(winner_id), 2) or ())

    _games_correct(match, games, plan.winner_id, correct, correction_id=correction_id, made_by=made_by, reason=reason)
    return plan


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

    corrected = Game.objects.filter(match=match, number__in=list(plan.changed)).order_by("number")
    _games_correct(
        match, corrected, plan.winner_id, correct, correction_id=correction_id, made_by=made_by, reason=reason
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
