"""Deciding games: evidence (verified logs, reports), confirmation, disputes, settlement, lapses.

Every change to a match, its games or their logs holds the match row's lock
(`game_lock`), so changes to one match run one after the other. These
services decide what changes; `result_writer.game_record_change` writes it,
the game's fields and its `ResultChange` row (who, when, why, before, after).
Which evidence decides what is the pure `matches.evidence.game_outcome`.

The entry points views, API views, tasks and commands call take a game's id
and take the lock themselves (`game_report_result`, `game_confirm`,
`game_dispute_claim`, `game_set_result`, `games_lapse`). The helpers other
services call under the lock they hold (`game_apply_evidence`, `game_decide`,
`game_dispute`) take the locked `Game` instance, and refuse to run outside a
transaction.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from core.errors import Conflict, Invalid, NotAllowed, NotFound
from speedrules.text import clock as game_clock

from ..evidence import Claim, Outcome, OutcomeKind, Source, game_outcome
from ..listeners import game_log_evidence
from ..models import Game, Match, Player, ResultChange
from ..selectors import AnyUser, signed_in, user_is_organiser, user_player
from .matches import match_progress
from .result_writer import game_evidence_write, game_record_change, game_state
from .results import (
    claimed_places,
    claimed_timed,
    game_result_places,
    report_entry,
    seat_player,
    table_result,
    team_result,
    two_player_places,
    winner_from_handle,
)

_DECIDED_BY_SOURCE = {
    Source.LOG: Game.DecidedBy.LOG,
    Source.REPORT: Game.DecidedBy.PLAYERS,
    Source.TABLE: Game.DecidedBy.TABLE,
}


def decided_by_source(source: Source) -> str:
    """How a game decided by evidence of this kind is labelled: "log", "players" or "table"."""
    return _DECIDED_BY_SOURCE[source]


_OPEN_FOR_EVIDENCE = (Game.Status.OPEN, Game.Status.AWAITING_CONFIRMATION)
#: What loading a game with its match and every seat's player takes.
GAME_MATCH_PLAYERS = ("match__player_one", "match__player_two", "match__player_three", "match__player_four")


def game_lock(*, game_id: int) -> Game:
    """Take the game's match row lock, then load the game with its match and players.

    The match row is the one lock every change to a match, its games or their
    logs takes, so those changes run one after the other per match and never
    deadlock. The game is read after the lock is held, in a statement of its
    own, so it shows what the lock's previous holder committed. Call inside a
    transaction; raises NotFound (no such game).
    """
    locked = Match.objects.select_for_update(of=("self",)).filter(games__id=game_id).values_list("id", flat=True)
    if not locked:
        raise NotFound(f"There is no game {game_id}.")
    return Game.objects.select_related(*GAME_MATCH_PLAYERS).get(pk=game_id)


def _require_lock_held() -> None:
    # These steps run inside the caller's transaction, under the match lock it took
    # with game_lock (they open no transaction or savepoint of their own).
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("call inside a transaction holding the match lock (game_lock)")


def _clear_claim(game: Game) -> None:
    game.claimed_winner, game.claimed_by, game.claim_source, game.confirm_by = None, None, "", None
    game.claimed_places, game.claimed_timed_scores = None, None


_DECISION_FIELDS = [
    "winner",
    "status",
    "decided_by",
    "decided_at",
    "decided_by_user",
    "reason",
    "claimed_winner",
    "claimed_by",
    "claim_source",
    "confirm_by",
    "places",
    "timed_scores",
    "claimed_places",
    "claimed_timed_scores",
]
_CLAIM_FIELDS = ["status", "claimed_winner", "claimed_by", "claim_source", "confirm_by"]
_CLAIM_FIELDS += ["claimed_places", "claimed_timed_scores"]


def game_decide(
    *,
    game: Game,
    winner: Player | None,
    decided_by: str,
    kind: str = ResultChange.Kind.DECISION,
    made_by: AnyUser = None,
    reason: str = "",
    source: dict[str, Any] | None = None,
    places: tuple[int, ...] | None = None,
    timed_scores: tuple[int, ...] | None = None,
) -> Game:
    """Record a game's result, keep the change, and move the match on (a helper under the lock).

    The result is the winner (None and no places: a void game) and, in a match
    whose games end in places, every seat's place (a timed game's first place
    may be shared: no winner, still decided) and its timed scores if a
    verified log gave them. The caller holds the match row's lock: `game`
    came from `game_lock` in this transaction.
    """
    _require_lock_held()
    match = game.match
    if winner is not None and winner.pk not in match.player_ids:
        raise Invalid(f"{winner.handle!r} does not play in this match.")
    places = game_result_places(match, winner, places)
    if match.is_table and winner is not None and places is None:
        raise Invalid("A game at a table of three or four is decided by every seat's place, not a winner alone.")
    before = game_state(game)
    game.winner = winner
    game.places = None if places is None else list(places)
    game.timed_scores = None if timed_scores is None else list(timed_scores)
    game.status = Game.Status.DECIDED if winner is not None or places is not None else Game.Status.VOID
    game.decided_by = decided_by
    game.decided_at = timezone.now()
    game.decided_by_user = signed_in(made_by)
    game.reason = reason
    _clear_claim(game)
    game_record_change(
        game=game,
        kind=kind,
        before=before,
        fields=_DECISION_FIELDS,
        made_by=made_by,
        reason=reason,
        source=source,
    )
    match_progress(match=match)
    return game


def game_forfeit(*, game_id: int, places: tuple[int, ...], by: str, seat: int, t: int, table_id: int) -> Game:
    """A game the service's table ended before its end (speed-table/1 amendment L4): decided by the forfeit.

    `by` is "resign" (`seat` gave up), "claim" (`seat` claimed the game from seats away past their
    claim time) or "no_show" (`seat` never sat down in the tournament's time); `places` are every seat's, in the match's seat order, as the table placed them. The
    table's own word, never one side's: it saw the seat leave or resign. Its history names who and when.
    """
    with transaction.atomic():
        game = game_lock(game_id=game_id)
        if game.status not in (*_OPEN_FOR_EVIDENCE, Game.Status.DISPUTED):
            raise Invalid(f"Game {game.number} of match {game.match_id} is already decided.")
        match = game.match
        handles = [player.handle for player in match.players]
        if by == "resign":
            reason = f"{handles[seat]} resigned at the table at {game_clock(t)}."
        elif by == "no_show":
            came = ", ".join(handle for index, handle in enumerate(handles) if places[index] == 1)
            reason = f"{handles[seat]} did not come to the table in time; {came} did."
        else:
            gone = ", ".join(handle for index, handle in enumerate(handles) if index != seat and places[index] != 1)
            reason = f"{handles[seat]} claimed the game at the table at {game_clock(t)}: {gone} had left."
        first = [index for index, place in enumerate(places) if place == 1]
        if match.is_team:  # a team's game is won in the name of its first seat, as a verified log's is
            won = next((team for team in match.teams if places[team[0]] == 1), None)
            first = [] if won is None else [won[0]]
        return game_decide(
            game=game,
            winner=match.players[first[0]] if len(first) == 1 else None,
            decided_by=Game.DecidedBy.FORFEIT,
            reason=reason,
            source={"table": table_id, "by": by, "seat": seat, "t": t},
            places=places if len(handles) > 2 and not match.is_team else None,
        )


def game_dispute(*, game: Game, made_by: AnyUser = None, reason: str = "") -> Game:
    """The game waits for an organiser; nothing already recorded is overwritten (a helper under the lock).

    The caller holds the match row's lock: `game` came from `game_lock` in this transaction.
    """
    _require_lock_held()
    if game.status != Game.Status.DISPUTED:
        before = game_state(game)
        game.status = Game.Status.DISPUTED
        game.confirm_by = None  # a disputed claim never lapses
        game_record_change(
            game=game,
            kind=ResultChange.Kind.DISPUTE,
            before=before,
            fields=["status", "confirm_by"],
            made_by=made_by,
            reason=reason,
        )
    return game


def claim_deadline(match: Match, now: datetime) -> datetime | None:
    """When one side's claim stands unless disputed (None: it never does, only a confirmation decides)."""
    return None if match.confirm_within is None else now + timedelta(seconds=match.confirm_within)


def game_report_claims(game: Game) -> list[Claim]:
    """The claims of the players' reports on the game."""
    match = game.match
    if len(match.player_ids) > 2:  # a table or a team game: each player's report in one map
        return [
            Claim(
                int(side),
                Source.REPORT,
                report["winner"],
                None if report["places"] is None else tuple(report["places"]),
            )
            for side, report in sorted(game.reports.items())
        ]
    reports = ((match.player_one_id, game.reported_by_one_id), (match.player_two_id, game.reported_by_two_id))
    return [
        Claim(side, Source.REPORT, winner, two_player_places(match, winner))
        for side, winner in reports
        if winner is not None
    ]


def game_claims(game: Game) -> tuple[list[Claim], bool]:
    """All of a game's evidence: its players' reports, and what the logs' app says of its logs (and if any is pending)."""
    log_claims, pending = game_log_evidence(game=game)
    return [*log_claims, *game_report_claims(game)], pending


def game_evidence_outcome(game: Game, claims: list[Claim], *, pending: bool) -> Outcome:
    """The outcome of these claims under the game's match's confirmation rule."""
    match = game.match
    return game_outcome(
        claims,
        players=match.player_ids,
        confirmation_required=match.confirmation == Match.Confirmation.OPPONENT,
        pending=pending,
        teams=tuple(tuple(match.player_ids[seat] for seat in team) for team in match.teams),
    )


def game_apply_evidence(*, game: Game, made_by: AnyUser = None, source: dict[str, Any] | None = None) -> Game:
    """After evidence came in (a verdict, a report): claim, decide or dispute the game as its evidence says.

    A helper under the lock: the caller holds the match row's lock and `game`
    came from `game_lock` (or, for a log's verification, the same lock taken
    through the log) in this transaction. The outcome is worked out from
    every piece of the game's evidence (one query for its logs).
    """
    _require_lock_held()
    match = game.match
    claims, pending = game_claims(game)
    outcome = game_evidence_outcome(game, claims, pending=pending)
    if game.status in _OPEN_FOR_EVIDENCE:
        if outcome.verdict is OutcomeKind.DECIDED:
            assert outcome.source is not None
            return game_decide(
                game=game,
                winner=seat_player(match, outcome.winner),
                decided_by=decided_by_source(outcome.source),
                made_by=made_by,
                source=source,
                places=outcome.places,
                timed_scores=outcome.timed,
            )
        if outcome.verdict is OutcomeKind.DISPUTED:
            return game_dispute(game=game, made_by=made_by, reason="The evidence names different results.")
        if outcome.verdict is OutcomeKind.AWAITING:
            return _game_claim(game=game, outcome=outcome, made_by=made_by, source=source)
        if game.status == Game.Status.AWAITING_CONFIRMATION:  # the claim's evidence is gone (a re-verified log)
            before = game_state(game)
            game.status = Game.Status.OPEN
            _clear_claim(game)
            game_record_change(
                game=game,
                kind=ResultChange.Kind.SUBMISSION,
                before=before,
                fields=_CLAIM_FIELDS,
                made_by=made_by,
                source=source,
            )
        return game
    # Decided by its logs before: a re-verification that no longer agrees puts it before an organiser.
    agrees = outcome.verdict is OutcomeKind.DECIDED and (outcome.winner, outcome.places) == (
        game.winner_id,
        None if game.places is None else tuple(game.places),
    )
    if game.decided_by in (Game.DecidedBy.LOG, Game.DecidedBy.TABLE) and game.is_settled and not agrees:
        if match.status != Match.Status.IN_PROGRESS:
            # The match is over (or annulled): its result stands until an organiser corrects
            # it, but the disagreement is kept where the organiser will see it.
            game_record_change(
                game=game,
                kind=ResultChange.Kind.DISPUTE,
                before=game_state(game),
                made_by=made_by,
                reason="Its verified logs no longer agree; the match is over, so an organiser must correct it.",
                source=source,
            )
            return game
        return game_dispute(game=game, made_by=made_by, reason="Its verified logs no longer agree.")
    return game


def _game_claim(*, game: Game, outcome: Outcome, made_by: AnyUser, source: dict[str, Any] | None) -> Game:
    claimed_places = None if game.claimed_places is None else tuple(game.claimed_places)
    unchanged = game.status == Game.Status.AWAITING_CONFIRMATION and (
        game.claimed_winner_id,
        game.claimed_by_id,
        game.claim_source,
        claimed_places,
    ) == (outcome.winner, outcome.claimed_by, outcome.source, outcome.places)
    if unchanged:
        return game
    assert outcome.source is not None
    before = game_state(game)
    game.status = Game.Status.AWAITING_CONFIRMATION
    game.claimed_winner_id, game.claimed_by_id, game.claim_source = outcome.winner, outcome.claimed_by, outcome.source
    game.claimed_places = None if outcome.places is None else list(outcome.places)
    game.claimed_timed_scores = None if outcome.timed is None else list(outcome.timed)
    game.confirm_by = claim_deadline(game.match, timezone.now())
    game_record_change(
        game=game,
        kind=ResultChange.Kind.SUBMISSION,
        before=before,
        fields=_CLAIM_FIELDS,
        made_by=made_by,
        source=source,
    )
    return game


def require_match_live(match: Match) -> None:
    """An annulled match takes no more results: a correction set it aside."""
    if match.status == Match.Status.ANNULLED:
        raise Conflict(f"Match {match.pk} was annulled by a tournament correction; its games take no more results.")


def _require_player(match: Match, user: AnyUser, doing: str) -> Player:
    me = user_player(user=user)
    if me is None or me.pk not in match.player_ids:
        raise NotAllowed(f"Only the players of this match can {doing}.")
    return me


@transaction.atomic
def game_report_result(
    *, game_id: int, user: AnyUser, winner: str | None = None, places: dict[str, int] | None = None
) -> Game:
    """A player reports the result: one report is a claim for the others to confirm; all that agree decide.

    Two players report the winner; a table of three or four reports every
    player's place (`places`, by handle), the winner being the one in first.
    """
    game = game_lock(game_id=game_id)
    require_match_live(game.match)
    match = game.match
    me = _require_player(match, user, "report its results")
    if game.status not in _OPEN_FOR_EVIDENCE:
        raise Invalid(
            f"Game {game.number} is {game.get_status_display().lower()}, not open; "
            "an organiser can settle it if it is wrong."
        )
    if match.is_table or match.is_team:
        if match.is_table:
            chosen, seat_places = table_result(match, winner=winner, places=places, allow_void=False)
        else:
            chosen, seat_places = team_result(match, winner)
        game.reports = {**game.reports, str(me.pk): report_entry(chosen, seat_places)}
        game_evidence_write(game=game, fields=["reports"])
        return game_apply_evidence(game=game, made_by=user, source={"report": me.handle})
    if winner is None:
        raise Invalid("Name the winner.", extra={"field": "winner"})
    reported = winner_from_handle(match, winner)
    assert reported is not None
    field = "reported_by_one" if me.pk == match.player_one_id else "reported_by_two"
    setattr(game, field, reported)
    game_evidence_write(game=game, fields=[field])
    return game_apply_evidence(game=game, made_by=user, source={"report": me.handle})


@transaction.atomic
def game_confirm(*, game_id: int, user: AnyUser) -> Game:
    """The opponent of the claiming side (or an organiser who does not play in it) confirms the claimed result.

    A player of the match confirms as a player, organiser or not: one side's
    word never decides against the other side, so the claiming side cannot
    confirm its own claim. An organiser outside the match decides it, and the
    history says an organiser did (`decided_by` "organiser"), not both sides.
    """
    game = game_lock(game_id=game_id)
    require_match_live(game.match)
    match = game.match
    if game.status != Game.Status.AWAITING_CONFIRMATION:
        raise Invalid(f"Game {game.number} is {game.get_status_display().lower()}; there is no result to confirm.")
    winner = seat_player(match, game.claimed_winner_id)
    me = user_player(user=user)
    plays = me is not None and me.pk in match.player_ids
    decided_by: str
    if not plays and user_is_organiser(user=user):
        decided_by = Game.DecidedBy.ORGANISER
    else:
        me = _require_player(match, user, "confirm its results")
        if me.pk == game.claimed_by_id:
            raise NotAllowed(
                "Your own result waits for your opponent's confirmation; you cannot confirm it"
                + (
                    " (as an organiser, settle the game instead, giving a reason)."
                    if user_is_organiser(user=user)
                    else "."
                )
            )
        if match.is_team and game.claimed_by_id in match.team_of(me.pk):
            raise NotAllowed("Your team's result waits for a player of the other team to confirm it.")
        if match.is_table or match.is_team:
            return _table_confirm(game=game, me=me, user=user, winner=winner)
        decided_by = decided_by_source(Source(game.claim_source))
    return game_decide(
        game=game,
        winner=winner,
        decided_by=decided_by,
        kind=ResultChange.Kind.CONFIRMATION,
        made_by=user,
        places=claimed_places(game),
        timed_scores=claimed_timed(game),
    )


def _table_confirm(*, game: Game, me: Player, user: AnyUser, winner: Player | None) -> Game:
    """At a table a claim needs every other player (in Team Speed, a player of the other team): one's
    confirmation is their report of the claimed result.

    The game is decided when the last of them confirms (the evidence then
    comes from every player); until then each confirmation is kept in history.
    """
    before = game_state(game)
    game.reports = {**game.reports, str(me.pk): report_entry(winner, claimed_places(game))}
    game_evidence_write(game=game, fields=["reports"])
    claims, pending = game_claims(game)
    outcome = game_evidence_outcome(game, claims, pending=pending)
    if outcome.verdict is OutcomeKind.DECIDED:
        assert outcome.source is not None
        return game_decide(
            game=game,
            winner=winner,
            decided_by=decided_by_source(outcome.source),
            kind=ResultChange.Kind.CONFIRMATION,
            made_by=user,
            places=outcome.places,
            timed_scores=outcome.timed,
        )
    game_record_change(game=game, kind=ResultChange.Kind.CONFIRMATION, before=before, made_by=user)
    return game


@transaction.atomic
def game_dispute_claim(*, game_id: int, user: AnyUser, reason: str) -> Game:
    """A player of the other side disputes a result awaiting confirmation, saying why; an organiser settles it.

    The claimant's side made the claim: it waits for the other side's word and
    cannot dispute its own (an organiser corrects a claim made in error).
    """
    game = game_lock(game_id=game_id)
    require_match_live(game.match)
    me = _require_player(game.match, user, "dispute its results")
    claimant = game.claimed_by_id
    if game.status == Game.Status.AWAITING_CONFIRMATION and claimant is not None:
        claimant_side = game.match.team_of(claimant) if game.match.is_team else (claimant,)
    else:
        claimant_side = ()
    if me.pk in claimant_side:
        raise NotAllowed(
            "This claim is your side's: it waits for the other side to confirm or dispute it. "
            "If it is wrong, ask an organiser to set the result."
        )
    reason = reason.strip()
    if not reason:
        raise Invalid(
            "Say why the result is wrong: the organiser who settles it reads this.", extra={"field": "reason"}
        )
    if game.status != Game.Status.AWAITING_CONFIRMATION:
        raise Invalid(
            f"Game {game.number} is {game.get_status_display().lower()}; only a result awaiting confirmation "
            "can be disputed (ask an organiser to correct a decided one)."
        )
    return game_dispute(game=game, made_by=user, reason=reason)


@transaction.atomic
def game_set_result(
    *, game_id: int, user: AnyUser, winner: str | None, reason: str = "", places: dict[str, int] | None = None
) -> Game:
    """An organiser sets (or settles) a game's result; `winner` None voids the game.

    At a table of three or four the organiser gives every player's place
    (`places`, by handle); no places and no winner voids the game.
    """
    if not user_is_organiser(user=user):
        raise NotAllowed("Only organisers can set a game's result.")
    game = game_lock(game_id=game_id)
    require_match_live(game.match)
    if game.status not in (*_OPEN_FOR_EVIDENCE, Game.Status.DISPUTED):
        raise Invalid(
            f"Game {game.number} is already {game.get_status_display().lower()}; "
            "only open, unconfirmed or disputed games can be set."
        )
    match = game.match
    if match.is_table:
        chosen, seat_places = table_result(match, winner=winner, places=places, allow_void=True)
    elif match.is_team:
        chosen, seat_places = team_result(match, winner) if winner is not None else (None, None)
    else:
        chosen, seat_places = winner_from_handle(match, winner), None
    return game_decide(
        game=game,
        winner=chosen,
        decided_by=Game.DecidedBy.ORGANISER,
        kind=ResultChange.Kind.SETTLEMENT,
        made_by=user,
        reason=reason.strip(),
        places=seat_places,
    )


def games_lapse(*, now: datetime | None = None, limit: int = 500) -> int:
    """Let unconfirmed results whose window ran out stand (`lapse`); returns how many did.

    Each game is taken under its match's lock in a transaction of its own and
    checked again there: a confirmation or dispute that came first wins.
    """
    now = now or timezone.now()
    due = list(
        Game.objects.filter(status=Game.Status.AWAITING_CONFIRMATION, confirm_by__lte=now)
        .order_by("confirm_by")
        .values_list("pk", flat=True)[:limit]
    )
    lapsed = 0
    for game_id in due:
        with transaction.atomic():
            game = game_lock(game_id=game_id)
            if game.status != Game.Status.AWAITING_CONFIRMATION or game.confirm_by is None or game.confirm_by > now:
                continue
            game_decide(
                game=game,
                winner=seat_player(game.match, game.claimed_winner_id),
                decided_by=Game.DecidedBy.LAPSE,
                kind=ResultChange.Kind.LAPSE,
                places=claimed_places(game),
                timed_scores=claimed_timed(game),
            )
            lapsed += 1
    return lapsed
