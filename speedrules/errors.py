"""The verdict codes of speed-log/1 and the exception that carries them."""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    """Every code a verdict can carry, in the spec's order (section 7)."""

    OK = "ok"
    BAD_FORMAT = "bad_format"
    BAD_RULESET = "bad_ruleset"
    BAD_DECK = "bad_deck"
    TIME_REVERSED = "time_reversed"
    GAME_OVER = "game_over"
    NOT_IN_HAND = "not_in_hand"
    NO_FIT = "no_fit"
    JOKER_LAST = "joker_last"
    BAD_COLLISION = "bad_collision"
    STALL_WITH_MOVE = "stall_with_move"
    STACKS_EMPTY = "stacks_empty"
    STACKS_NOT_EMPTY = "stacks_not_empty"
    BAD_SHUFFLE = "bad_shuffle"
    NOT_FINISHED = "not_finished"
    RESULT_MISMATCH = "result_mismatch"


class LogError(ValueError):
    """A log breaks the format or the rules.

    `code` is the verdict code, `event` the 0-based index of the event at
    fault (None for document-level errors and for `result_mismatch`), and
    `message` a sentence a player can act on.
    """

    def __init__(self, code: ErrorCode, message: str, event: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.event = event
