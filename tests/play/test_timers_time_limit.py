"""`next_timer` for a timed game's limit: pure, no database, no clock."""

from __future__ import annotations

from typing import Any

from play.timers import Clock, next_timer, time_limit_ends

SETTINGS: dict[str, Any] = {"abandon_ms": 60_000, "countdown_ms": 3_000, "stall_ms": 2_000, "time_limit_ms": 10_000}


def _clock(status: str, *, settings: dict[str, Any] = SETTINGS, stuck_at: int | None = None, **kw: Any) -> Clock:
    fields: dict[str, Any] = {
        "opened_at": 1_000,
        "countdown_at": 2_000,
        "started_at": 5_000,
        "bots": [None, None],
        "out": [],
        "away": [None, None],
    }
    fields.update(kw)
    return Clock(status=status, settings=settings, stuck_at=stuck_at, **fields)


def test_a_timed_game_being_played_ends_at_its_start_plus_the_limit() -> None:
    timer = next_timer(_clock("playing"))
    assert timer is not None and (timer.kind, timer.at) == ("time_limit", 15_000)


def test_a_race_has_no_time_limit_timer() -> None:
    race = {**SETTINGS, "time_limit_ms": None}
    assert next_timer(_clock("playing", settings=race)) is None
    assert (
        time_limit_ends(_clock("playing", settings={k: v for k, v in SETTINGS.items() if k != "time_limit_ms"})) is None
    )
    assert time_limit_ends(_clock("playing", settings=race)) is None


def test_the_limit_only_runs_once_the_game_has_started() -> None:
    assert next_timer(_clock("countdown", started_at=None)).kind == "start"  # type: ignore[union-attr]
    assert next_timer(_clock("waiting", started_at=None)).kind == "abort"  # type: ignore[union-attr]
    assert next_timer(_clock("over")) is None


def test_a_stall_due_before_the_limit_comes_first_and_the_limit_before_a_later_one() -> None:
    early = next_timer(_clock("stuck", stuck_at=1_000))  # stall at 5_000 + 1_000 + 2_000
    assert early is not None and (early.kind, early.at) == ("stall", 8_000)
    late = next_timer(_clock("stuck", stuck_at=9_000))  # the stall would come at 16_000
    assert late is not None and (late.kind, late.at) == ("time_limit", 15_000)


def test_abandonment_still_ends_a_timed_game_whose_seats_all_left_before_the_limit() -> None:
    timer = next_timer(_clock("playing", settings={**SETTINGS, "abandon_ms": 1_000}, away=[6_000, 7_000]))
    assert timer is not None and (timer.kind, timer.at) == ("abandon", 8_000)
