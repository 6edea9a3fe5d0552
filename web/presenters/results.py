"""A game's result in words, for every page that states one (pure, no queries).

A verified log is one side's word, so what a page says of a result comes from
the game's state (decided, awaiting confirmation, disputed, void, open), with
what the log shows beside it, never from the log alone. And where a game ends
in places (a timed game: the cards played by the limit; Team Speed: a team)
the seat that called Speed need not be the winner. The home page's latest
replays, a replay's banner and a log's page all word it here.
"""

from __future__ import annotations

from dataclasses import dataclass

from matches.models import Game, Match
from replays.models import MatchLog
from web.presenters.seats import clock_limit, names_in_words

#: How a decided game came about, after "hugo won the game".
_DECIDED_BY = {
    Game.DecidedBy.LOG: "decided by its verified logs",
    Game.DecidedBy.PLAYERS: "reported by both sides",
    Game.DecidedBy.ORGANISER: "set by an organiser",
    Game.DecidedBy.CORRECTION: "set by a tournament correction",
    Game.DecidedBy.LAPSE: "unconfirmed, it stood when its confirmation window ran out",
}


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


def log_says(log: MatchLog, match: Match) -> str:
    """What a verified log shows: who called Speed (or the deadlock) and, in a timed game, the cards by the limit."""
    if log.status != MatchLog.Status.VERIFIED:
        return ""
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
