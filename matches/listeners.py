"""What the apps above tell matches, and what matches tells them, without importing them.

`matches` sits at the bottom of the apps' layers (import-linter checks it):
it never imports tournaments or ratings. An app that must act when a match
finishes registers a listener in its `AppConfig.ready()`; `match_finish`
calls every listener, in registration order, inside the transaction that
decides the match, so a listener's failure undoes the whole result. This is
plain function calls, not Django signals: the flow is explicit and typed,
and a missing registration fails loudly in tests.
"""

from __future__ import annotations

from typing import Protocol

from .evidence import Claim
from .models import Game, Match


class MatchFinishedListener(Protocol):
    """Called with the match's id (its row locked, winner set) in the deciding transaction.

    An id, as every service an interface calls takes: the listener reads the
    row it needs (the deciding transaction's, so it sees the result).
    """

    def __call__(self, *, match_id: int) -> None: ...


_match_finished: list[MatchFinishedListener] = []


def on_match_finished(listener: MatchFinishedListener) -> None:
    """Register a listener (idempotent: `ready()` may run more than once in tests)."""
    if listener not in _match_finished:
        _match_finished.append(listener)


def match_finished_listeners() -> tuple[MatchFinishedListener, ...]:
    return tuple(_match_finished)


def match_finished_notify(*, match: Match) -> None:
    """Tell every registered listener that `match` was just decided."""
    for listener in _match_finished:
        listener(match_id=match.pk)


class GameLogEvidence(Protocol):
    """The evidence of a game's logs: a claim per verified log, and whether any log is still pending."""

    def __call__(self, *, game: Game) -> tuple[list[Claim], bool]: ...


_log_evidence: list[GameLogEvidence] = []


def provide_game_log_evidence(provider: GameLogEvidence) -> None:
    """Register the app that knows a game's logs (replays, in its `AppConfig.ready()`)."""
    if provider not in _log_evidence:
        _log_evidence.append(provider)


def game_log_evidence(*, game: Game) -> tuple[list[Claim], bool]:
    """Every registered provider's claims for the game, and whether any log is pending."""
    claims: list[Claim] = []
    pending = False
    for provider in _log_evidence:
        found, waiting = provider(game=game)
        claims.extend(found)
        pending = pending or waiting
    return claims, pending


class MatchOrganisers(Protocol):
    """The users who run the event a match belongs to (their ids), or None when the provider does not know it."""

    def __call__(self, *, match_id: int) -> list[int] | None: ...


_organisers: list[MatchOrganisers] = []


def provide_match_organisers(provider: MatchOrganisers) -> None:
    """Register the app that knows who runs a match's event (tournaments, in its `AppConfig.ready()`)."""
    if provider not in _organisers:
        _organisers.append(provider)


def match_organisers(*, match_id: int) -> list[int] | None:
    """Who runs the match's event, by the first provider that knows; None for a match of no event."""
    for provider in _organisers:
        found = provider(match_id=match_id)
        if found is not None:
            return found
    return None


class GamePlayableListener(Protocol):
    """Called with a game's id when it may be played now: its match was called, or the game before it ended.

    In the transaction that made it playable (the match row locked by it); an app above that plays games
    itself (`play`, at its tables) opens what it must. A listener's failure undoes the change.
    """

    def __call__(self, *, game_id: int) -> None: ...


_game_playable: list[GamePlayableListener] = []


def on_game_playable(listener: GamePlayableListener) -> None:
    """Register a listener (idempotent, as `on_match_finished`)."""
    if listener not in _game_playable:
        _game_playable.append(listener)


def game_playable_notify(*, game_id: int) -> None:
    """Tell every registered listener that the game may be played now."""
    for listener in _game_playable:
        listener(game_id=game_id)
