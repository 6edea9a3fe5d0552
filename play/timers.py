"""What a table's clock makes due, and when: the one pure answer the referee, the tickers and Celery share.

speed-table/1 section 3 and amendment L give a table five timers: the
countdown's end, the stall of a stuck table, the abort of a table that was
never readied, the abandonment of a table whose every seat in play is away,
the moment a silent connection stops counting, and (a tournament's choice)
the forfeit of a player who never sat down, and (a timed match's) the time
limit, when the game ends on the cards played. `next_timer` says which
comes first; the referee fires it under the table row's lock, and whoever
fires it (a socket process, a Celery task, the beat's sweep) fires the same.
Nothing here reads a database or a clock: the caller passes the table's
fields and `now`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

TimerKind = Literal["start", "stall", "abort", "abandon", "no_show", "time_limit"]

#: Statuses whose clocks run.
LIVE_STATUSES = ("waiting", "countdown", "playing", "stuck")
#: Statuses where the game is on (abandonment and claims apply).
ON_STATUSES = ("countdown", "playing", "stuck")


@dataclass(frozen=True, slots=True)
class Timer:
    kind: TimerKind
    at: int  # epoch milliseconds


@dataclass(frozen=True, slots=True)
class Clock:
    """The fields of a table its timers depend on (epoch ms, except `stuck_at`: the game's `t`)."""

    status: str
    settings: dict[str, Any]
    opened_at: int
    countdown_at: int | None
    started_at: int | None
    stuck_at: int | None
    bots: Sequence[str | None]
    out: Sequence[int]
    away: Sequence[int | None]


def people_in_play(clock: Clock) -> list[int]:
    """The seats a person holds that have not resigned (bots are never away)."""
    return [seat for seat, level in enumerate(clock.bots) if level is None and seat not in clock.out]


def next_timer(clock: Clock) -> Timer | None:
    """The table's first timer to come (it may be overdue), or None when no clock runs."""
    timers: list[Timer] = []
    if clock.status == "waiting":
        timers.append(Timer("abort", clock.opened_at + clock.settings["abandon_ms"]))
        no_show = clock.settings.get("no_show_ms")
        if no_show is not None and no_show < clock.settings["abandon_ms"]:
            # A tournament's called match (amendment L5): who never sat down by then forfeits.
            timers.append(Timer("no_show", clock.opened_at + int(no_show)))
    elif clock.status == "countdown" and clock.countdown_at is not None:
        timers.append(Timer("start", clock.countdown_at + clock.settings["countdown_ms"]))
    elif clock.status == "stuck" and clock.started_at is not None and clock.stuck_at is not None:
        timers.append(Timer("stall", clock.started_at + clock.stuck_at + clock.settings["stall_ms"]))
    limit = time_limit_ends(clock)
    if limit is not None:
        timers.append(Timer("time_limit", limit))
    if clock.status in ON_STATUSES:
        since = [clock.away[seat] for seat in people_in_play(clock)]
        if since and all(value is not None for value in since):
            # Every seat in play away: abandoned once the last of them to leave has been gone abandon_ms.
            last = max(value for value in since if value is not None)
            timers.append(Timer("abandon", last + int(clock.settings["abandon_ms"])))
    return min(timers, key=lambda timer: timer.at) if timers else None


def time_limit_ms(settings: dict[str, Any]) -> int | None:
    """A timed match's limit (ms of the game's clock), or None for a race."""
    limit = settings.get("time_limit_ms")
    return None if limit is None else int(limit)


def time_limit_ends(clock: Clock) -> int | None:
    """When a running timed game's clock reaches its limit (epoch ms), else None."""
    limit = time_limit_ms(clock.settings)
    if limit is None or clock.started_at is None or clock.status not in ("playing", "stuck"):
        return None
    return clock.started_at + limit


def claim_ms(settings: dict[str, Any]) -> int:
    return int(settings.get("claim_ms", 30_000))


def claimable(clock: Clock, seat: int, now: int) -> bool:
    """Whether `seat` may claim the game now: present, and every other seat in play away past its claim_at."""
    if clock.status not in ON_STATUSES or seat in clock.out or clock.away[seat] is not None:
        return False
    others = [other for other in people_in_play(clock) if other != seat]
    wait = claim_ms(clock.settings)
    return bool(others) and all((since := clock.away[other]) is not None and now >= since + wait for other in others)


def away_entries(away: Sequence[int | None], settings: dict[str, Any]) -> list[dict[str, int] | None]:
    """The state's `away` (amendment L2): per seat None while present, else since when and its claim_at."""
    wait = claim_ms(settings)
    return [None if since is None else {"since": since, "claim_at": since + wait} for since in away]
