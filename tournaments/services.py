"""Every change to tournaments (HackSoft services: `<entity>_<action>`, keyword-only).

Each service that touches a running tournament locks its row first
(`select_for_update`), so results arriving together for one tournament (for
one match, or for the two matches feeding the same next match) are applied
one after the other, each recomputing from every result so far: nothing is
advanced twice and nothing is lost.

`tournament_match_decided` is called explicitly by `matches.services.match_finish`
in the transaction that decides the match; there are no signals.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from matches.models import Game, Match
from matches.selectors import player_get, user_is_organiser
from matches.services import AnyUser, ruleset_resolve, series_resolve
from replays.engine import verify_bytes
from replays.models import MatchLog
from speedsite.errors import Conflict, Invalid, NotAllowed, NotFound
from tournaments.generators import Seeding
from tournaments.ratings.glicko2 import RatedGame, Rating, rate_period
from tournaments.standings import metric_for

from .corrections import CorrectionContext, CorrectionPreview, MatchBusyError, correction_apply, correction_plan
from .models import CorrectionRecord, Entrant, PlayerRating, RatingChange, Tournament, TournamentMatch
from .progress import default_max_matches, default_swiss_rounds, pairings_advance, pairings_open

MAX_ENTRANTS = 4096


def _require_organiser(user: AnyUser) -> None:
    if not user_is_organiser(user=user):
        raise NotAllowed("Only organisers can run tournaments.")


def _tournament_lock(tournament_id: int) -> Tournament:
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFound(f"There is no tournament {tournament_id}.")
    return tournament


# --- Creating a tournament ------------------------------------------------------------


def _tie_breaks_resolve(tie_breaks: Sequence[str]) -> list[str]:
    keys = list(tie_breaks)
    if len(set(keys)) != len(keys):
        raise Invalid(f"A tie-break is listed twice: {keys}.", extra={"field": "tie_breaks"})
    for key in keys:
        try:
            metric_for(key)
        except ValueError as exc:
            raise Invalid(str(exc), extra={"field": "tie_breaks"}) from exc
    return keys


@transaction.atomic
def tournament_create(
    *,
    name: str,
    format: str,
    user: AnyUser,
    best_of: int | None = None,
    first_to: int | None = None,
    ruleset: object = "speed",
    tie_breaks: Sequence[str] = (),
    seeding: str = Seeding.STANDARD,
    rng_seed: int | None = None,
    third_place: bool = False,
    grand_final_reset: bool = True,
    double_round_robin: bool = False,
    swiss_rounds: int | None = None,
    max_matches: int | None = None,
) -> Tournament:
    """A tournament taking entrants. Organisers only."""
    _require_organiser(user)
    if format not in Tournament.Format.values:
        raise Invalid(
            f"Unknown format {format!r}; use one of {', '.join(Tournament.Format.values)}.", extra={"field": "format"}
        )
    if seeding not in Seeding.__members__.values():
        raise Invalid(f"Unknown seeding {seeding!r}; use one of {', '.join(Seeding)}.")
    if seeding == Seeding.RANDOM and rng_seed is None:
        raise Invalid("Random seeding needs an rng_seed, so the draw can be reproduced.")
    if swiss_rounds is not None and swiss_rounds < 1:
        raise Invalid("A Swiss tournament has at least one round.")
    if max_matches is not None and max_matches < 1:
        raise Invalid("Winner stays on needs at least one match.")
    series, length = series_resolve(best_of=best_of, first_to=first_to)
    resolved, ruleset_name = ruleset_resolve(ruleset)
    return Tournament.objects.create(
        name=name.strip() or "Tournament",
        format=format,
        series=series,
        series_length=length,
        ruleset=resolved.to_json(),
        ruleset_name=ruleset_name,
        tie_breaks=_tie_breaks_resolve(tie_breaks),
        seeding=seeding,
        rng_seed=rng_seed,
        third_place=third_place,
        grand_final_reset=grand_final_reset,
        double_round_robin=double_round_robin,
        swiss_rounds=swiss_rounds,
        max_matches=max_matches,
        created_by=user if user is not None and user.is_authenticated else None,
    )


# --- Entrants -----------------------------------------------------------------------------


def _require_setup(tournament: Tournament) -> None:
    if tournament.status != Tournament.Status.SETUP:
        raise Conflict(f"{tournament.name!r} has started; entrants can only change before the start.")


@transaction.atomic
def entrant_add(*, tournament_id: int, handle: str, user: AnyUser, seed: int | None = None) -> Entrant:
    """Enter a player, with a seed (1 is the best) or after the last seed."""
    _require_organiser(user)
    tournament = _tournament_lock(tournament_id)
    _require_setup(tournament)
    player = player_get(handle=handle)
    if player is None:
        raise Invalid(f"There is no player with handle {handle!r}.", extra={"field": "player"})
    entrants = Entrant.objects.filter(tournament=tournament)
    if entrants.filter(player=player).exists():
        raise Invalid(f"{player.handle!r} is already entered.", extra={"field": "player"})
    if entrants.count() >= MAX_ENTRANTS:
        raise Invalid(f"A tournament takes at most {MAX_ENTRANTS} entrants.")
    if seed is None:
        seed = (entrants.aggregate(last=Max("seed"))["last"] or 0) + 1
    elif seed < 1:
        raise Invalid("Seeds start at 1.", extra={"field": "seed"})
    else:
        holder = entrants.filter(seed=seed).select_related("player").first()
        if holder is not None:
            raise Invalid(f"Seed {seed} is taken by {holder.player.handle!r}; choose another.", extra={"field": "seed"})
    try:
        with transaction.atomic():
            return Entrant.objects.create(tournament=tournament, player=player, seed=seed)
    except IntegrityError as exc:  # unreachable while the tournament row is locked; kept for safety
        raise Invalid("That player or seed was just taken; try again.") from exc


@transaction.atomic
def entrant_remove(*, tournament_id: int, handle: str, user: AnyUser) -> None:
    """Withdraw a player before the start."""
    _require_organiser(user)
    tournament = _tournament_lock(tournament_id)
    _require_setup(tournament)
    deleted, _ = Entrant.objects.filter(tournament=tournament, player__handle__iexact=handle).delete()
    if not deleted:
        raise NotFound(f"{handle!r} is not entered in {tournament.name!r}.")


# --- Starting --------------------------------------------------------------------------------


@transaction.atomic
def tournament_start(*, tournament_id: int, user: AnyUser) -> Tournament:
    """Close the entry, make the first pairings (and their matches), and run."""
    _require_organiser(user)
    tournament = _tournament_lock(tournament_id)
    _require_setup(tournament)
    count = Entrant.objects.filter(tournament=tournament).count()
    if count < 2:
        raise Invalid(f"A tournament needs at least 2 entrants; {tournament.name!r} has {count}.")
    if tournament.format == Tournament.Format.SINGLE_ELIMINATION and tournament.third_place and count < 3:
        raise Invalid("A third-place match needs semi-finals: at least 3 entrants.")
    if tournament.format == Tournament.Format.SWISS:
        most = count - 1 if count % 2 == 0 else count
        tournament.swiss_rounds = tournament.swiss_rounds or min(default_swiss_rounds(count), most)
        if tournament.swiss_rounds > most:
            raise Invalid(
                f"{count} players can play at most {most} Swiss rounds without rematches; "
                f"{tournament.swiss_rounds} were asked for."
            )
    if tournament.format == Tournament.Format.WINNER_STAYS_ON:
        tournament.max_matches = tournament.max_matches or default_max_matches(count)
    tournament.status = Tournament.Status.RUNNING
    tournament.started_at = timezone.now()
    tournament.save(update_fields=["status", "started_at", "swiss_rounds", "max_matches"])
    pairings_open(tournament)
    tournament.refresh_from_db()
    return tournament


# --- Results --------------------------------------------------------------------------------


# savepoint=False: this runs inside the transaction that decides the match; alone, it is atomic.
@transaction.atomic(savepoint=False)
def tournament_match_decided(*, match: Match) -> None:
    """A match was just decided (called by `matches.services.match_finish`, in its transaction).

    Rates the players, then, if the match is a tournament pairing, records
    the result and advances the tournament: winners (and losers in double
    elimination) move on, the next round is paired, or the tournament finishes.
    """
    ratings_record_match(match=match)
    linked = TournamentMatch.objects.filter(match_id=match.pk).values_list("tournament_id", flat=True).first()
    if linked is None:
        return
    tournament = _tournament_lock(linked)
    # Re-read under the lock: a correction may have detached this match meanwhile.
    pairing = TournamentMatch.objects.filter(match_id=match.pk).first()
    if pairing is None or pairing.status != TournamentMatch.Status.READY or match.winner_id is None:
        return
    games_one, games_two, cards_one, cards_two = _match_snapshot(match, pairing)
    pairing.winner_id = match.winner_id
    pairing.status = TournamentMatch.Status.DECIDED
    pairing.result_source = TournamentMatch.Source.MATCH
    pairing.games_one, pairing.games_two = games_one, games_two
    pairing.cards_left_one, pairing.cards_left_two = cards_one, cards_two
    pairing.decided_at = timezone.now()
    pairing.save(
        update_fields=[
            "winner",
            "status",
            "result_source",
            "games_one",
            "games_two",
            "cards_left_one",
            "cards_left_two",
            "decided_at",
        ]
    )
    pairings_advance(tournament)


def _match_snapshot(match: Match, pairing: TournamentMatch) -> tuple[int, int, int, int]:
    """Games each player won, and cards each still held when the games they lost ended (verified logs)."""
    games = list(Game.objects.filter(match=match, status=Game.Status.DECIDED).values_list("pk", "winner_id"))
    logs: dict[int, bytes] = {}
    for game_id, data in (
        MatchLog.objects.filter(game__match=match, status=MatchLog.Status.VERIFIED)
        .order_by("id")
        .values_list("game_id", "data")
    ):
        logs.setdefault(game_id, bytes(data))
    won = {pairing.player_one_id: 0, pairing.player_two_id: 0}
    held = {pairing.player_one_id: 0, pairing.player_two_id: 0}
    for game_id, winner_id in games:
        if winner_id not in won:
            continue
        won[winner_id] += 1
        loser_id = pairing.player_two_id if winner_id == pairing.player_one_id else pairing.player_one_id
        if game_id in logs:
            held[loser_id] += _loser_cards_left(logs[game_id])
    return (
        won[pairing.player_one_id],
        won[pairing.player_two_id],
        held[pairing.player_one_id],
        held[pairing.player_two_id],
    )


def _loser_cards_left(data: bytes) -> int:
    """Cards (hand and draw pile) the losing seat still held at the end of a verified, won game."""
    verdict = verify_bytes(data, steps=True)
    if not verdict.valid or verdict.winner is None or not verdict.steps:
        return 0
    final = verdict.steps[-1].cards_left
    return sum(left for seat, left in enumerate(final) if seat != verdict.winner)


# --- Ratings -----------------------------------------------------------------------------------


@transaction.atomic(savepoint=False)
def ratings_record_match(*, match: Match) -> None:
    """Update both players' Glicko-2 ratings from a decided match's games (one rating period).

    Idempotent per match; rating rows are locked in player order, so two
    matches of one player decided together are applied one after the other.
    """
    winners = list(
        Game.objects.filter(match=match, status=Game.Status.DECIDED)
        .order_by("number")
        .values_list("winner_id", flat=True)
    )
    if not winners or RatingChange.objects.filter(match=match).exists():
        return
    one, two = match.player_one_id, match.player_two_id
    default = Rating()
    PlayerRating.objects.bulk_create(
        [
            PlayerRating(
                player_id=player_id, rating=default.rating, deviation=default.deviation, volatility=default.volatility
            )
            for player_id in (one, two)
        ],
        ignore_conflicts=True,
    )
    rows = {
        row.player_id: row
        for row in PlayerRating.objects.select_for_update().filter(player_id__in=[one, two]).order_by("player_id")
    }
    before = {player_id: Rating(row.rating, row.deviation, row.volatility) for player_id, row in rows.items()}
    games = [RatedGame(one, two, 1.0 if winner == one else 0.0) for winner in winners]
    after = rate_period(before, games)
    changes = []
    for player_id, row in rows.items():
        new = after[player_id]
        old = before[player_id]
        row.rating, row.deviation, row.volatility = new.rating, new.deviation, new.volatility
        row.games += len(games)
        changes.append(
            RatingChange(
                player_id=player_id,
                match=match,
                rating_before=old.rating,
                deviation_before=old.deviation,
                volatility_before=old.volatility,
                rating_after=new.rating,
                deviation_after=new.deviation,
                volatility_after=new.volatility,
                games=len(games),
            )
        )
    PlayerRating.objects.bulk_update(list(rows.values()), ["rating", "deviation", "volatility", "games", "updated_at"])
    RatingChange.objects.bulk_create(changes)


# --- Corrections ---------------------------------------------------------------------------------


@transaction.atomic
def pairing_correct(
    *, tournament_id: int, key: str, winner: str, user: AnyUser, dry_run: bool = False, confirm: bool = False
) -> CorrectionPreview:
    """Correct the result of a decided pairing, and re-fill or reset what follows from it.

    With `dry_run` nothing is saved: the preview lists every later pairing
    the change touches. Pairings whose match has not started are re-filled
    at once; those already started or decided are reset (their match set
    aside, kept in the records) only with `confirm`. Every applied correction
    is kept in the history: who, when, before and after.
    """
    _require_organiser(user)
    tournament = _tournament_lock(tournament_id)
    if tournament.status == Tournament.Status.SETUP:
        raise Conflict(f"{tournament.name!r} has not started; there is nothing to correct.")
    context = CorrectionContext.load(tournament)
    target = context.pairings.get(key)
    if target is None:
        raise NotFound(f"{tournament.name!r} has no match {key!r}.")
    if target.status != TournamentMatch.Status.DECIDED:
        raise Invalid(f"Match {key} is {target.get_status_display().lower()}; only decided results can be corrected.")
    new_winner = context.player_id(winner)
    if new_winner is None or new_winner not in (target.player_one_id, target.player_two_id):
        one, two = context.handle(target.player_one_id), context.handle(target.player_two_id)
        raise Invalid(f"{winner!r} did not play in match {key} ({one} v {two}).", extra={"field": "winner"})

    planned = correction_plan(context, target, new_winner)
    preview = CorrectionPreview(
        key=key,
        old_winner=context.handle(target.winner_id),
        new_winner=context.handle(new_winner),
        changes=[item.change for item in planned],
    )
    if dry_run or new_winner == target.winner_id:
        return preview
    if preview.needs_confirmation and not confirm:
        raise Conflict(
            "This correction resets matches already started or decided; confirm it to go ahead.",
            extra={"preview": preview.to_dict()},
        )
    try:
        correction_apply(context, target, new_winner, planned)
    except MatchBusyError as exc:
        raise Conflict(
            "A result for one of the affected matches is being recorded right now; try again in a moment.",
        ) from exc
    CorrectionRecord.objects.create(
        tournament=tournament,
        key=key,
        made_by=user if user is not None and user.is_authenticated else None,
        before={
            "winner": preview.old_winner,
            "pairings": [{"key": change.key, **change.before} for change in preview.changes],
        },
        after={
            "winner": preview.new_winner,
            "pairings": [{"key": change.key, "action": change.action, **change.after} for change in preview.changes],
        },
    )
    pairings_advance(tournament)
    return dataclasses.replace(preview, applied=True)
