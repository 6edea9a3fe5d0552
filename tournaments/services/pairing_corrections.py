"""Correcting a decided result, with a dry run, confirmation for what was already played, and history."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import DatabaseError, transaction

from core.errors import Conflict, Invalid, NotFound
from matches.models import Match
from matches.services import (
    AnyUser,
    PairCorrection,
    TableCorrection,
    match_annul,
    match_correct,
    match_correct_games,
    match_correct_places,
    pair_correction_plan,
    table_correction_plan,
)
from tournaments.formats import format_for

from ..correction_plans import CorrectionContext, CorrectionPreview, PlannedChange, corrected_pairing
from ..models import CorrectionRecord, Entrant, Tournament, TournamentMatch
from ..selectors import entrant_list
from ..snapshots import SNAPSHOT_FIELDS, pairing_snapshot
from .common import organiser_fixable, require_organiser, tournament_lock
from .pairings import pairings_advance
from .ratings import ratings_recompute


class MatchBusyError(Exception):
    """An affected match is locked by a result being recorded right now."""


@transaction.atomic
def pairing_correct(
    *,
    tournament_id: int,
    key: str,
    user: AnyUser,
    winner: str | None = None,
    games: Sequence[Mapping[str, Any]] | None = None,
    reason: str = "",
    dry_run: bool = False,
    confirm: bool = False,
) -> CorrectionPreview:
    """Correct the result of a decided pairing, and re-fill or reset what follows from it.

    Two players: `winner` is the handle of who really won (every decided game
    turned round), or `games` gives the real result of some of its games: a
    winner (`[{"game": 3, "winner": "bob"}]`: the real score, 2-1 the other
    way rather than 1-2), a game that did not count (`{"game": 3, "void":
    true}`: a 2-1 that was 2-0), or a game the match never had, numbered on
    from its last (a 2-0 that was 2-1); the series then names the winner, and
    refuses a score it could not have ended on. A table of three or
    four: `games` gives the corrected places of some of its games
    (`[{"game": 2, "places": {"ann": 1, "bob": 3, "cy": 2}}]`), voids one or
    adds one as two players' games do (the same checks); the series is run
    again over all its games and names the winner, and the pairing's places
    and points follow.

    With `dry_run` nothing is saved: the preview lists every later pairing
    the change touches. Pairings whose match has not started are re-filled
    at once; those already started or decided are reset only with `confirm`:
    their match is annulled (kept and shown, counted nowhere) and the pairing
    is played again. The corrected match itself is turned round, so its page,
    the bracket and the standings agree; the ratings are replayed from the
    first result that changed. Every applied correction is kept in the
    history: who, when, why, before and after.
    """
    require_organiser(user)
    tournament = tournament_lock(tournament_id)
    if tournament.status == Tournament.Status.SETUP:
        raise Conflict(f"{tournament.name!r} has not started; there is nothing to correct.")
    pairings = TournamentMatch.objects.filter(tournament=tournament).order_by("id")
    context = CorrectionContext(
        tournament, entrant_list(tournament=tournament), {pairing.key: pairing for pairing in pairings}
    )
    target = context.pairings.get(key)
    if target is None:
        raise NotFound(f"{tournament.name!r} has no match {key!r}.")
    if target.status != TournamentMatch.Status.DECIDED:
        raise Invalid(f"Match {key} is {target.get_status_display().lower()}; only decided results can be corrected.")
    table = _table_correction(context, target, winner=winner, games=games)
    pair = _pair_correction(context, target, winner=winner, games=games) if table is None else None
    if table is not None:
        new_winner = table.winner_id
    elif pair is not None:
        new_winner = pair.winner_id
    else:
        new_winner = _winner_id(context, target, winner)
    tournament_format = format_for(tournament.format)
    points = tournament_format.table_points(tournament, len(target.seat_ids))
    corrected = corrected_pairing(target, new_winner=new_winner, table=table, pair=pair, points_per_place=points)
    context = dataclasses.replace(context, corrected=corrected)
    with organiser_fixable():
        planned = tournament_format.plan_correction(context, target, new_winner)
    preview = CorrectionPreview(
        key=key,
        old_winner=context.handle(target.winner_id),
        new_winner=context.handle(new_winner),
        changes=[item.change for item in planned],
        **(_table_preview(table) if table is not None else {}),
        **(_pair_preview(pair) if pair is not None else {}),
    )
    if dry_run or not preview.changes_anything:
        return preview
    if preview.needs_confirmation and not confirm:
        raise Conflict(
            "This correction resets matches already started or decided; confirm it to go ahead.",
            extra={"preview": preview.to_dict()},
        )
    reason = reason.strip()
    # The record first: every change the correction makes names it.
    record = CorrectionRecord.objects.create(
        tournament=tournament,
        key=key,
        made_by=user if user is not None and user.is_authenticated else None,
        reason=reason,
        before={
            "winner": preview.old_winner,
            "pairings": [{"key": change.key, **change.before} for change in preview.changes],
            **({"games": _record_games(preview, "before")} if preview.games else {}),
        },
        after={
            "winner": preview.new_winner,
            "pairings": [{"key": change.key, "action": change.action, **change.after} for change in preview.changes],
            **({"games": _record_games(preview, "after")} if preview.games else {}),
        },
    )
    annul_reason = (
        f"Set aside by the correction of {tournament.name} {key} "
        f"({preview.old_winner} to {preview.new_winner}): its players should not have met."
    )
    try:
        result = CorrectedResult(
            new_winner,
            None
            if table is None
            else {number: table.handles_places(after[1]) for number, (_, after) in table.changed.items()},
            points,
            None if pair is None else {number: pair.handle(after[1]) for number, (_, after) in pair.changed.items()},
        )
        changed = _correction_apply(
            context, target, result, planned, CorrectionMade(record.pk, user, reason, annul_reason)
        )
    except MatchBusyError as exc:
        raise Conflict(
            "A result for one of the affected matches is being recorded right now; try again in a moment.",
        ) from exc
    pairings_advance(tournament)
    ratings_recompute(match_ids=changed)
    return dataclasses.replace(preview, applied=True)


def _record_games(preview: CorrectionPreview, side: str) -> dict[str, Any]:
    """Each changed game as the correction's record keeps it: a table's places by handle or two players' winner,
    and the game's status (decided, void, not played)."""
    result = "places" if preview.standing else "winner"
    return {str(game["game"]): {result: game[side], "status": game[f"{side}_status"]} for game in preview.games}


def _winner_id(context: CorrectionContext, target: TournamentMatch, winner: str | None) -> int:
    """Two players' corrected result: the winner's id, checked against the pairing."""
    if winner is None:
        raise Invalid(f"Name the player who really won match {target.key}.", extra={"field": "winner"})
    new_winner = context.player_id(winner)
    if new_winner is None or new_winner not in target.seat_ids:
        seated = " v ".join(str(context.handle(pk)) for pk in target.seat_ids)
        raise Invalid(f"{winner!r} did not play in match {target.key} ({seated}).", extra={"field": "winner"})
    return new_winner


def _table_correction(
    context: CorrectionContext,
    target: TournamentMatch,
    *,
    winner: str | None,
    games: Sequence[Mapping[str, Any]] | None,
) -> TableCorrection | None:
    """A table's corrected games (None for two players), checked: games by number, each its places by handle or
    void (it did not count)."""
    seated = " v ".join(str(context.handle(pk)) for pk in target.seat_ids)
    if len(target.seat_ids) <= 2:
        return None
    if winner is not None:
        raise Invalid(
            f"Match {target.key} is a table ({seated}): give the corrected places of its games, "
            'e.g. {"games": [{"game": 1, "places": {"ann": 1, "bob": 2, "cy": 3}}]}; the series names the winner.',
            extra={"field": "winner"},
        )
    by_number = _games_given(
        target,
        games or (),
        result="places",
        wrong=f"Match {target.key} is a table ({seated}): give each game's places, "
        'e.g. {"game": 3, "places": {"ann": 1, "bob": 2, "cy": 3}}, or {"game": 3, "void": true} for a game that '
        "did not count; not its winner.",
    )
    assert target.match_id is not None, "a decided table has its match"
    match = Match.objects.select_related("player_one", "player_two", "player_three", "player_four").get(
        pk=target.match_id
    )
    return table_correction_plan(match=match, games=by_number)


def _pair_correction(
    context: CorrectionContext,
    target: TournamentMatch,
    *,
    winner: str | None,
    games: Sequence[Mapping[str, Any]] | None,
) -> PairCorrection | None:
    """Two players' corrected games (None when the winner alone is named), checked: games by number, each a winner
    or void (it did not count)."""
    if not games:
        return None
    seated = " v ".join(str(context.handle(pk)) for pk in target.seat_ids)
    if winner is not None:
        raise Invalid(
            f"Match {target.key} ({seated}): give either its winner or its corrected games, not both.",
            extra={"field": "winner"},
        )
    by_number = _games_given(
        target,
        games,
        result="winner",
        wrong=f"Match {target.key} ({seated}) has two players: give each game's winner, "
        'e.g. {"games": [{"game": 3, "winner": "ann"}]}, or {"game": 3, "void": true} for a game that '
        "did not count; not places.",
    )
    assert target.match_id is not None, "a decided pairing of two players has its match"
    match = Match.objects.select_related("player_one", "player_two").get(pk=target.match_id)
    return pair_correction_plan(
        match=match, winners={number: None if given is None else str(given) for number, given in by_number.items()}
    )


def _games_given(
    target: TournamentMatch, games: Sequence[Mapping[str, Any]], *, result: str, wrong: str
) -> dict[int, Any]:
    """The corrected games by number, each its `result` as given ("winner" or "places") or None for void (it did
    not count); `wrong` is the refusal of a game given the other kind of result, or none."""
    other = "places" if result == "winner" else "winner"
    by_number: dict[int, Any] = {}
    for game in games:
        number = int(game["game"])
        if number in by_number:
            raise Invalid(f"Game {number} is given twice.", extra={"field": "games"})
        void = game.get("void") is True
        if void and game.get(result):
            raise Invalid(
                f"Game {number} of match {target.key}: give its {result} or say it was void, not both.",
                extra={"field": "games"},
            )
        if game.get(other) is not None or not (void or game.get(result)):
            raise Invalid(wrong, extra={"field": "games"})
        by_number[number] = None if void else game[result]
    return by_number


def _pair_preview(pair: PairCorrection) -> dict[str, Any]:
    """What a pair's corrected games change in its own match: each changed game's winner and status (decided,
    void, or not played for a game the correction adds), and the score."""
    return {
        "games": pair.changed_words(pair.handle),
        "score": {"before": pair.score(corrected=False), "after": pair.score(corrected=True)},
    }


def _table_preview(table: TableCorrection) -> dict[str, Any]:
    """What a table's correction changes in its own match: each changed game's places by handle and status
    (decided, void, or not played for a game the correction adds), and the series' standing."""
    return {
        "games": table.changed_words(table.handles_places),
        "standing": {"before": table.standing(corrected=False), "after": table.standing(corrected=True)},
    }


@dataclass(frozen=True)
class CorrectionMade:
    """Who corrects, why, and the history row the changes name (`CorrectionRecord`)."""

    record_id: int
    user: AnyUser
    reason: str
    annul_reason: str


@dataclass(frozen=True)
class CorrectedResult:
    """The corrected result of the target: its new winner, and for a table the games' places by handle."""

    winner: int
    #: A table's corrected games: each changed game's places by handle, None for a game that did not count.
    table_games: Mapping[int, Mapping[str, int] | None] | None = None
    #: Points per place of the pairing's seats in its format (None: the format counts wins).
    points_per_place: tuple[int, ...] | None = None
    #: Two players' corrected games: each changed game's new winner by handle, None for a game that did not
    #: count (None as a whole: every game turned round).
    pair_games: Mapping[int, str | None] | None = None


def _correction_apply(
    context: CorrectionContext,
    target: TournamentMatch,
    result: CorrectedResult,
    planned: list[PlannedChange],
    made: CorrectionMade,
) -> list[int]:
    """Save the correction: the corrected match itself, re-filled and reset pairings; the caller then advances.

    The target's match is turned round (`match_correct`), or a table's games
    take their corrected places (`match_correct_places`), and the pairing
    records it as it now is (every snapshot field); the played matches of
    reset pairings are annulled (`match_annul`): kept and shown, counted
    nowhere. Returns the ids of the matches whose results changed or stopped
    counting, for the ratings.
    """
    new_winner = result.winner
    played = [target.match_id] if target.match_id is not None else []
    match_ids = played + [item.pairing.match_id for item in planned if item.pairing.match_id is not None]
    try:
        # Never wait for a match whose result is being recorded right now: that
        # transaction waits for this tournament's lock, which would deadlock.
        list(Match.objects.select_for_update(nowait=True).filter(pk__in=match_ids).values_list("pk", flat=True))
    except DatabaseError as exc:
        raise MatchBusyError from exc
    changed = list(played)
    target.winner_id = new_winner
    target.result_source = TournamentMatch.Source.CORRECTION
    if target.match_id is not None:
        if result.table_games is not None:
            match_correct_places(
                match_id=target.match_id,
                games=result.table_games,
                correction_id=made.record_id,
                made_by=made.user,
                reason=made.reason,
            )
        elif result.pair_games is not None:
            match_correct_games(
                match_id=target.match_id,
                winners=result.pair_games,
                correction_id=made.record_id,
                made_by=made.user,
                reason=made.reason,
            )
        else:
            match_correct(
                match_id=target.match_id,
                winner_id=new_winner,
                correction_id=made.record_id,
                made_by=made.user,
                reason=made.reason,
            )
        # The pairing records its match as the correction left it (the score turned round, a table's places).
        for name, value in pairing_snapshot(context.tournament, target, result.points_per_place).items():
            setattr(target, name, value)
    target.save(update_fields=["winner", "result_source", *SNAPSHOT_FIELDS])

    def set_aside(match_id: int) -> None:
        match_annul(match_id=match_id, correction_id=made.record_id, made_by=made.user, reason=made.annul_reason)
        changed.append(match_id)

    never_played: list[int] = []
    for item in planned:
        pairing = item.pairing
        if item.new_players is None:
            if pairing.match_id is not None:
                if item.change.action == "reset":
                    set_aside(pairing.match_id)
                else:
                    never_played.append(pairing.match_id)
            pairing.delete()
            continue
        if item.result_dropped:
            pairing.winner_id = None
            pairing.result_source = ""
            pairing.games_one = pairing.games_two = pairing.cards_left_one = pairing.cards_left_two = 0
            pairing.decided_at = None
        if pairing.match_id is not None:
            if item.change.action == "reset":
                set_aside(pairing.match_id)
                pairing.match = None  # the played match stays in the records, annulled, outside the tournament
            elif item.ready_after:
                one, two = item.new_players
                Match.objects.filter(pk=pairing.match_id).update(player_one_id=one, player_two_id=two)
            else:
                never_played.append(pairing.match_id)
                pairing.match = None
        pairing.save()
    # A match never played whose players are no longer known has nothing worth keeping.
    Match.objects.filter(pk__in=never_played).delete()
    tournament = context.tournament
    if tournament.status == Tournament.Status.FINISHED:
        tournament.status = Tournament.Status.RUNNING
        tournament.finished_at = None
        tournament.save(update_fields=["status", "finished_at"])
        Entrant.objects.filter(tournament=tournament).update(place=None, place_to=None)
    return changed
