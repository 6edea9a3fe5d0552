"""The one writer of games, of their history, and of a match's outcome (Zulip's `do_*` actions: one way each).

The other services work out a change (what the evidence decides, what an
organiser sets, what a correction makes of the games) on the instance they
hold under the match row's lock, and hand it here to be written:

- `game_record_change`: every change of a game's result (status, winner,
  places, timed scores, decided_by/at, the claim and its deadline) saves the
  fields the caller changed and keeps the change in the match's history, one
  `ResultChange` row (who, when, why, before, after); a game a correction adds
  is inserted here too. Nothing else saves a game's result or writes a
  `ResultChange` of a game.
- `game_evidence_write`: a player's report on a game (evidence, not a
  result: the result it leads to is a `game_record_change`).
- `games_open`: the games a match opens (its first; the next one the series
  asks for), open and without a result, so with no history row.
- `match_outcome_write`: a match's `status`, `winner` and `finished_at`
  (`match_finish`, a correction's new winner, an annulment, which keeps its
  own history row and stops the match's claims from standing).

`tests/matches/test_one_writer.py` reads the source tree and fails on a write
to `Game` or `ResultChange`, or to a match's outcome, anywhere else.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from core.site_cache import site_lists_changed

from ..models import Game, Match, ResultChange
from ..selectors import AnyUser, signed_in
from .notifications import notify_game_change

#: What a player's report on a game is kept in (evidence, not the game's result).
EVIDENCE_FIELDS = frozenset({"reports", "reported_by_one", "reported_by_two"})
#: A match's outcome, as the series (or a correction) leaves it.
OUTCOME_FIELDS = frozenset({"status", "winner", "finished_at"})


def game_state(game: Game) -> dict[str, Any]:
    """A game's result as history keeps it (handles, not ids, so it reads the same after renames of rows)."""
    match = game.match
    players = {player.pk: player.handle for player in match.players}
    state: dict[str, Any] = {
        "status": game.status,
        "winner": players.get(game.winner_id) if game.winner_id else None,
        "decided_by": game.decided_by or None,
        "claimed_winner": players.get(game.claimed_winner_id) if game.claimed_winner_id else None,
    }
    if match.ranks_games:
        handles = [player.handle for player in match.players]
        state["places"] = None if game.places is None else dict(zip(handles, game.places, strict=True))
        state["claimed_places"] = (
            None if game.claimed_places is None else dict(zip(handles, game.claimed_places, strict=True))
        )
    return state


def match_state(match: Match) -> dict[str, Any]:
    """A match's outcome as its own history rows keep it (an annulment)."""
    return {"status": match.status, "winner": match.winner.handle if match.winner is not None else None}


def game_record_change(
    *,
    game: Game,
    kind: str,
    before: dict[str, Any],
    fields: Sequence[str] = (),
    made_by: AnyUser = None,
    reason: str = "",
    source: dict[str, Any] | None = None,
) -> ResultChange:
    """THE change of a game's result: save the `fields` the caller changed on `game`, and keep the change.

    `before` is `game_state(game)` as it was (`{}` for a game a correction
    adds, which is inserted whole: it was never played as decided); no
    `fields` keeps a change that moved nothing on the game itself (a
    confirmation still waiting for other players, a disagreement kept after
    the match is over). The caller holds the match row's lock. A change that
    waits on someone (a new claim, a dispute) emails them (`notifications`),
    and the site's lists are outdated.
    """
    if game.pk is None:
        game.save(force_insert=True)
    elif fields:
        game.save(update_fields=list(fields))
    site_lists_changed()
    change = ResultChange.objects.create(
        match_id=game.match_id,
        game=game,
        kind=kind,
        made_by=signed_in(made_by),
        reason=reason,
        before=before,
        after=game_state(game),
        source=source or {},
    )
    notify_game_change(game=game, before=before, after=change.after, reason=reason)  # sent after the commit
    return change


def game_unplayed(*, match: Match, number: int) -> Game:
    """A game the match never had, unsaved: a correction sets its result and `game_record_change` inserts it."""
    return Game(match=match, number=number)


def game_evidence_write(*, game: Game, fields: Sequence[str]) -> None:
    """Save a player's report on `game` (its report fields only); what it decides is a `game_record_change`."""
    if not set(fields) <= EVIDENCE_FIELDS:
        raise ValueError(f"a report is kept in {sorted(EVIDENCE_FIELDS)}, not {sorted(set(fields) - EVIDENCE_FIELDS)}")
    game.save(update_fields=list(fields))


def games_open(*, games: Iterable[tuple[Match, int]]) -> list[Game]:
    """Open these games (match, number): no result yet, so no history. One INSERT however many."""
    return Game.objects.bulk_create(Game(match=match, number=number) for match, number in games)


def match_outcome_write(
    *,
    match: Match,
    fields: Sequence[str],
    kind: str = "",
    before: dict[str, Any] | None = None,
    made_by: AnyUser = None,
    reason: str = "",
    source: dict[str, Any] | None = None,
) -> None:
    """THE change of a match's outcome: save the `fields` (of `status`, `winner`, `finished_at`) set on `match`.

    A match is finished by its series (`match_finish`) and its winner changed
    by a correction of its games, whose own history rows say why. With a
    `kind` (an annulment) the change is kept as the match's own history row
    (`before` its state); an annulled match takes no more results, so a claim
    awaiting confirmation in it no longer stands when its window runs out.
    """
    if not set(fields) <= OUTCOME_FIELDS:
        raise ValueError(f"a match's outcome is {sorted(OUTCOME_FIELDS)}, not {sorted(set(fields) - OUTCOME_FIELDS)}")
    Match.objects.filter(pk=match.pk).update(**{field: getattr(match, field) for field in fields})
    if match.status == Match.Status.ANNULLED and "status" in fields:
        Game.objects.filter(match=match, status=Game.Status.AWAITING_CONFIRMATION).update(confirm_by=None)
    if kind:
        ResultChange.objects.create(
            match=match,
            game=None,
            kind=kind,
            made_by=signed_in(made_by),
            reason=reason,
            before=before or {},
            after=match_state(match),
            source=source or {},
        )
        site_lists_changed()
