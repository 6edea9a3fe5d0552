"""A table log ended early (amendment L4): its events are judged, its result is not, and it names no winner."""

from __future__ import annotations

import orjson

from speedrules import verify_bytes
from speedrules.cards import CARD_NAMES
from speedrules.rulesets import PRESETS
from speedrules.state import GameState
from tests.play.conftest import fixed_deck


def _document(events: list[dict[str, object]], *, ended: str | None) -> bytes:
    table: dict[str, object] = {"id": 1, "deck_sha256": "0" * 64, "salt": "0" * 32}
    if ended is not None:
        table["ended"] = {"by": ended, "seat": 0, "t": 10, "places": [2, 1]}
    return orjson.dumps(
        {
            "format": "speed-log/1",
            "ruleset": PRESETS["speed"].to_json(),
            "players": ["alice", "ben"],
            "deck": fixed_deck(),
            "events": events,
            "result": {"winner": 1, "by": "resign"},
            "table": table,
        }
    )


def _first_play() -> dict[str, object]:
    from speedrules.cards import CARD_ID

    state = GameState(PRESETS["speed"], [CARD_ID[name] for name in fixed_deck()])
    for seat in (0, 1):
        plays = state.legal_single_plays(seat)
        if plays:
            card, pile = plays[0]
            return {"t": 10, "type": "play", "player": seat, "card": CARD_NAMES[card], "pile": pile}
    raise AssertionError("nobody can play")


def test_a_resigned_log_verifies_with_no_winner() -> None:
    verdict = verify_bytes(_document([_first_play()], ended="resign"))
    assert verdict.valid and verdict.winner is None and "ended early" in verdict.message


def test_its_events_are_still_judged() -> None:
    bad = {**_first_play(), "card": "ZZ"}
    assert verify_bytes(_document([bad], ended="claim")).code == "bad_format"


def test_without_the_ending_the_same_result_is_a_mismatch() -> None:
    assert verify_bytes(_document([_first_play()], ended=None)).code == "result_mismatch"
    assert verify_bytes(_document([_first_play()], ended="gave up")).code == "result_mismatch"
