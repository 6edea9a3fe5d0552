"""A match's history in words: what a change did to a game's (or the match's) result, without state names."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: A game's states as the history says them.
GAME_STATES = {
    "open": "being played",
    "awaiting_confirmation": "waiting for confirmation",
    "decided": "decided",
    "void": "void",
    "disputed": "disputed",
}
#: A match's states (a correction or an annulment changes the match, not a game).
MATCH_STATES = {"in_progress": "in progress", "finished": "finished", "annulled": "annulled"}


def change_words(before: Mapping[str, Any], after: Mapping[str, Any], *, of_game: bool) -> str:
    """ "being played → waiting for confirmation; the claim: ann won", "disputed → decided; ann won", or ""."""
    if before.get("status") == after.get("status") and before.get("winner") == after.get("winner"):
        return ""
    states = GAME_STATES if of_game else MATCH_STATES
    # A game with no state before it was never played: a correction added it.
    was = "not played" if of_game and "status" not in before else states.get(str(before.get("status")), "")
    words = [was, states.get(str(after.get("status")), "")]
    line = " → ".join(word for word in words if word) if before.get("status") != after.get("status") else ""
    if after.get("winner"):
        result = f"{after['winner']} won"
    elif after.get("claimed_winner"):
        result = f"the claim: {after['claimed_winner']} won"
    elif of_game and after.get("status") == "awaiting_confirmation" and not after.get("claimed_places"):
        result = "the claim: void"
    else:
        result = ""
    return "; ".join(part for part in (line, result) if part)
