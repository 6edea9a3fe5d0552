"""The rules engine for Speed: verify speed-log/1 logs card by card, and simulate games.

Framework-free by contract (import-linter): nothing here imports Django,
Celery or any app. Apps call the engine; it never calls them.
"""

from .errors import ErrorCode, LogError
from .events import Collision, Event, Move, Play, Reshuffle, SpeedCall, Stall
from .judge import Judge
from .rulesets import PRESETS, Ruleset, ruleset_from_json
from .simulate import simulate
from .verdict import ExtensionStep, Step, Verdict
from .verify import verify_bytes, verify_document

#: Stored with every verdict so `reverify` can tell which logs an upgrade may judge differently.
#: 1.2.0: verdicts carry `cards_left`, so logs verified before it are refreshed to store it.
#: 1.3.0: the speed-log/1 extension. A log that was rejected for using one of its values
#: (`players: 1`, a `teams` or `tableau` key, "spit_cards", a `move`) may now verify.
#: 1.4.0: verdicts carry `plays_by_seat`, so logs verified before it are refreshed to store it.
#: 1.5.0: events in words number the piles from 1, as people count (the log's own numbers stay 0-based),
#: so kept replay steps are made again.
ENGINE_VERSION = "1.5.0"

__all__ = [
    "ENGINE_VERSION",
    "PRESETS",
    "Collision",
    "ErrorCode",
    "Event",
    "ExtensionStep",
    "Judge",
    "LogError",
    "Move",
    "Play",
    "Reshuffle",
    "Ruleset",
    "SpeedCall",
    "Stall",
    "Step",
    "Verdict",
    "ruleset_from_json",
    "simulate",
    "verify_bytes",
    "verify_document",
]
