"""The play services: opening tables, the referee's intents and timers, the end of a game and playing again, the lobby's seeks."""

from .again import Answered, again_accept, again_decline, again_expire
from .finish import table_document, table_finish
from .live import live_game_build, now_ms
from .referee import Refusal, Reply, table_intent, table_tick
from .seeks import seek_accept, seek_cancel, seek_create, seek_rulesets, seek_touch, seeks_expire
from .tables import deck_proof, practice_rulesets, table_open_for_game, table_practice_create
from .waiting import site_seen_touch, table_wait_notices_send, table_wait_notices_shown

__all__ = [
    "Answered",
    "Refusal",
    "Reply",
    "again_accept",
    "again_decline",
    "again_expire",
    "deck_proof",
    "live_game_build",
    "now_ms",
    "practice_rulesets",
    "seek_accept",
    "seek_cancel",
    "seek_create",
    "seek_rulesets",
    "seek_touch",
    "seeks_expire",
    "site_seen_touch",
    "table_document",
    "table_finish",
    "table_intent",
    "table_open_for_game",
    "table_practice_create",
    "table_tick",
    "table_wait_notices_send",
    "table_wait_notices_shown",
]
