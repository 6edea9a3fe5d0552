"""A service's refusal in words for people on the site's pages.

The services word their errors for the API's clients, who send bodies and read
settings names ("The body is not a JSON document", "The log's players are
['alice', 'ben']"). Where such an error carries what it is about in its
`extra` (a `problem`, a `field`, a `quota`), the site's pages say it as a
player would; any other error keeps the service's own message.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .seats import names_in_words, players_title


def log_problem(message: str, extra: Mapping[str, Any]) -> str:
    """What is wrong with a log someone tried to submit, as the submission page says it."""
    problem = extra.get("problem")
    if problem == "not_json":
        return (
            "This is not a speed-log/1 log: it is not JSON at all (a file cut short, or another kind of file). "
            "Choose the .json file your scorer app or table saved, or paste the whole of it."
        )
    if problem == "not_object":
        return 'This is JSON but not a speed-log/1 log, which starts with {"format": "speed-log/1", …}.'
    if problem == "not_a_player":
        return f"Only {names_in_words(list(extra.get('players') or []))} or an organiser can submit this game's logs."
    if extra.get("field") == "players" and extra.get("expected"):
        found = extra.get("found")
        of = f" between {names_in_words(found)}" if found else ""
        return (
            f"This log is of a game{of}, but the match is {players_title(list(extra['expected']))}: "
            "choose the log of this match's game."
        )
    if extra.get("quota") == "logs_per_game":
        return (
            f"You have sent {extra.get('used')} logs for this game, the most one player may. "
            "Ask an organiser if one more is needed."
        )
    if extra.get("quota") == "bytes_per_day":
        return "You have sent as many logs in the last day as one player may. Try again tomorrow."
    if extra.get("field") == "events" and "limit" in extra:
        return f"This log has {extra.get('events')} events, more than the {extra['limit']} a log may have."
    return message
