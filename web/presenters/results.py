"""A game's result in words, for every page that states one (pure, no queries).

A verified log is one side's word, so what a page says of a result comes from
the game's state (decided, awaiting confirmation, disputed, void, open), with
what the log shows beside it, never from the log alone. And where a game ends
in places (a timed game: the cards played by the limit; Team Speed: a team)
the seat that called Speed need not be the winner. A game the service's
table ended early (a resign, a claim, a no-show: amendment L4) is won by
forfeit, in the words its decision stored (`Game.reason`, "ben resigned at
the table at 0:42.3."), and its log (provenance "forfeit") holds the cards
played until then, never a Speed call or a deadlock. The home page's latest
replays, a replay's banner, a log's page and a match page's games all word it
here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from matches.models import Game, Match
from replays.models import MatchLog
from speedrules.text import clock as game_clock
from web.presenters.seats import clock_limit, names_in_words, ordinal

#: How a decided game came about, after "hugo won the game".
_DECIDED_BY: dict[str, str] = {
    Game.DecidedBy.LOG: "decided by its verified logs",
    Game.DecidedBy.PLAYERS: "reported by both sides",
    Game.DecidedBy.ORGANISER: "set by an organiser",
    Game.DecidedBy.CORRECTION: "set by a tournament correction",
    Game.DecidedBy.LAPSE: "unconfirmed, it stood when its confirmation window ran out",
    Game.DecidedBy.TABLE: "recorded at the service's table",
}


def forfeit_words(game: Game) -> str:
    """Why a game decided by a forfeit at its table was ("alice resigned at the table at 0:42.3."), else ""."""
    if game.decided_by != Game.DecidedBy.FORFEIT:
        return ""
    reason = (game.reason or "").strip()
    return reason or "The table ended the game early."


def _forfeit_how(game: Game) -> str:
    """The parenthesis after "won the game by forfeit": the stored reason without its full stop."""
    return forfeit_words(game).rstrip(".")


@dataclass(frozen=True, slots=True)
class ResultWords:
    """What a page says of a game's result: `summary` for a list, `log_says` and `sentence` for a log's page."""

    status: str  # the game's status
    summary: str  # "hugo won", "Awaiting confirmation (emma says emma won)", "Disputed", "Void", "No result yet"
    sentence: str  # the game's state in a sentence
    log_says: str = ""  # what the log shows, when there is a verified log

    @property
    def decided(self) -> bool:
        return self.status == Game.Status.DECIDED


def _handles(match: Match) -> list[str]:
    return [player.handle for player in match.players]


def named(match: Match, player_id: int | None) -> str:
    """A player by handle, or in Team Speed the team they stand for ("ann and cy")."""
    by_id = dict(zip(match.player_ids, _handles(match), strict=True))
    if player_id not in by_id:
        return ""
    if match.is_team:
        team = match.team_of(player_id)
        return names_in_words([by_id[pk] for pk in match.player_ids if pk in team])
    return by_id[player_id]


def _first_place(match: Match, places: list[int] | None) -> list[str]:
    if not places:
        return []
    return [handle for handle, place in zip(_handles(match), places, strict=False) if place == 1]


def _won(match: Match, winner_id: int | None, places: list[int] | None) -> str:
    """ "hugo won", or "first place shared by ann and bo" (a timed game may share it)."""
    if winner_id is not None:
        return f"{named(match, winner_id)} won"
    first = _first_place(match, places)
    return f"first place shared by {names_in_words(first)}" if first else "void"


ENDED_EARLY_LOG = "The game ended early at the table: the log holds every card played until then."


def log_says(log: MatchLog, match: Match) -> str:
    """What a verified log shows: who called Speed (or the deadlock) and, in a timed game, the cards by the limit."""
    if log.status != MatchLog.Status.VERIFIED:
        return ""
    if log.provenance == MatchLog.Provenance.FORFEIT:
        # Its verdict names no winner on purpose (amendment L4): no Speed call, and no deadlock either.
        return ENDED_EARLY_LOG
    caller = log.winner.handle if log.winner_id is not None and log.winner is not None else None
    said = f"{caller} called Speed." if caller else "The game ended stuck for good: a deadlock."
    if match.time_limit_ms is not None and log.timed_scores is not None:
        scores = names_in_words(
            [
                f"{handle} {count} card{'s' if count != 1 else ''}"
                for handle, count in zip(_handles(match), log.timed_scores, strict=False)
            ]
        )
        said += f" Cards played by the limit ({clock_limit(match.time_limit_ms)}): {scores}."
    return said


def game_result_words(game: Game, *, log: MatchLog | None = None) -> ResultWords:
    """The game's result as its state says it; with `log`, what that log shows too."""
    match = game.match
    says = log_says(log, match) if log is not None else ""
    status = game.status
    if status == Game.Status.DECIDED and game.decided_by == Game.DecidedBy.FORFEIT:
        won = _won(match, game.winner_id, game.places)
        the_game = " the game" if game.winner_id is not None else ""
        sentence = f"Decided: {won}{the_game} by forfeit ({_forfeit_how(game)})."
        summary = won[0].upper() + won[1:] if won.startswith("first") else won
        return ResultWords(status, f"{summary} by forfeit", sentence, says)
    if status == Game.Status.DECIDED:
        won = _won(match, game.winner_id, game.places)
        how = _DECIDED_BY.get(game.decided_by, "")
        sentence = f"Decided: {won}{' the game' if game.winner_id is not None else ''}" + (f" ({how})." if how else ".")
        return ResultWords(status, won[0].upper() + won[1:] if won.startswith("first") else won, sentence, says)
    if status == Game.Status.VOID:
        how = _DECIDED_BY.get(game.decided_by, "")
        return ResultWords(status, "Void", "Void: the game counts for no one" + (f" ({how})." if how else "."), says)
    if status == Game.Status.AWAITING_CONFIRMATION:
        claim = _won(match, game.claimed_winner_id, game.claimed_places)
        claim = "the game is void" if claim == "void" else claim
        by = named(match, game.claimed_by_id) or "one side"
        others = "every other player confirms it" if match.is_table else "the other side confirms it"
        sentence = (
            f"Awaiting confirmation: {by} says {claim}. Nothing counts until {others} "
            "(or disputes it, for an organiser to settle)."
        )
        return ResultWords(status, f"Awaiting confirmation ({by} says {claim})", sentence, says)
    if status == Game.Status.DISPUTED:
        sentence = "Disputed: the evidence disagrees. Nothing counts until an organiser settles it."
        return ResultWords(status, "Disputed", sentence, says)
    return ResultWords(status, "No result yet", "The game has no result yet.", says)


def practice_result_words(
    *, result: Mapping[str, Any] | None, players: Sequence[str], ended: Mapping[str, Any] | None
) -> ResultWords | None:
    """A practice game its table ended early (a resign), for its replay's banner; None for a game played to
    its end, which the replay words itself (who called Speed, or the deadlock). A practice table's `result`
    and `ended` are the table's own (play.models.Table)."""
    by = (result or {}).get("by")
    if result is None or not by:
        return None
    ended = ended or {}
    seat, t = ended.get("seat"), ended.get("t")
    at = f" at {game_clock(int(t))}" if isinstance(t, int) else ""

    def name(index: object) -> str:
        return players[index] if isinstance(index, int) and 0 <= index < len(players) else "a player"

    who = name(seat)
    if by == "resign":
        how = f"{who} resigned{at}"
    elif by == "claim":
        gone = [name(index) for index in ended.get("against") or [] if isinstance(index, int)]
        how = f"{who} claimed the game{at}" + (f" after {names_in_words(gone)} left" if gone else "")
    else:
        how = f"The table ended the game early ({by})"
    places = result.get("places")
    if isinstance(places, list) and places:
        order = sorted(range(len(places)), key=lambda index: (places[index], index))
        won = "places: " + ", ".join(f"{ordinal(int(places[index]))} {name(index)}" for index in order)
        summary = f"{name(order[0])} first by forfeit"
    else:
        won = f"{name(result.get('winner'))} won by forfeit"
        summary = won
    sentence = f"{how}: {won}. A practice game counts for nothing."  # a handle stays as its owner wrote it
    return ResultWords(Game.Status.DECIDED, summary, sentence, ENDED_EARLY_LOG)
