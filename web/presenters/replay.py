"""What the replay viewer is given: the log's steps in their compact form, shaped for the template and the script.

Pure presentation over data the replays app already computed (the compact
steps of `replays.compact`); nothing here judges a log. The page carries the
first chunk of steps (and the transcript of that chunk); the script fetches
the others from `/api/logs/{id}/steps/compact/` as the viewer reaches them, so
a long log's page stays small whatever its length.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from replays.compact import CompactSteps, cards_left_series, chunk, decode, encode, played_steps, step_times
from web.drawing.charts import Chart, line_chart

#: Steps in the page and in each chunk the script fetches: a long game's whole replay (~50
#: events) is in the page; a 5,000-event log comes in 25 chunks of a few KB each.
CHUNK_STEPS = 200
#: The chart is an overview: beyond this many steps it draws an evenly spaced sample of them.
CHART_POINTS = 300


@dataclass(frozen=True, slots=True)
class TranscriptLine:
    step: int
    text: str
    failing: bool = False


@dataclass(frozen=True, slots=True)
class TimeLimit:
    """A timed match's limit on the replay: where it falls among the steps, and each seat's cards played by it."""

    ms: int
    position: (
        float | None
    )  # in steps (fractional, between the last step at or before it and the next); None: never reached
    played: tuple[int, ...] | None  # per seat of the log, from the verified log; None when not known
    x: float | None = None  # where the chart marks it
    names: tuple[str, ...] = ()
    # Per seat, the step of each card it played by the limit: the score so far follows the step.
    played_at: tuple[tuple[int, ...], ...] = ()

    @property
    def reached(self) -> bool:
        return self.position is not None

    def played_by_step(self, step: int) -> tuple[int, ...]:
        """Each seat's cards played by the limit, counted up to `step`."""
        return tuple(bisect_right(steps, step) for steps in self.played_at)

    @property
    def played_by_name(self) -> list[tuple[str, int]]:
        """Each seat's cards played at the first step, as the page opens (the script follows the step)."""
        return list(zip(self.names, self.played_by_step(0) if self.played_at else self.played or (), strict=False))


@dataclass(frozen=True, slots=True)
class Replay:
    """Everything `web/_replay_viewer.html` needs."""

    data: dict[str, Any]  # embedded with json_script and read by static/js/replay.js
    chart: Chart | None
    transcript: tuple[TranscriptLine, ...]  # the first chunk's lines; the script shows the others
    players: tuple[str, ...]
    status: str
    code: str
    event: int | None
    message: str
    fail_step: int | None
    total_steps: int
    first: Mapping[str, Any] | None  # the deal, as the engine's `Step.to_dict()`
    time_limit: TimeLimit | None = None

    @property
    def rejected(self) -> bool:
        return self.status in {"rejected", "failed"}

    @property
    def result_mismatch(self) -> bool:
        """Every event passed, and the result the log claims does not follow from them."""
        return self.code == "result_mismatch"

    @property
    def winner_name(self) -> str | None:
        seat = self.data["verdict"]["winner"]
        if seat is None or not 0 <= seat < len(self.players):
            return None
        return self.players[seat]

    @property
    def last_step(self) -> int:
        return max(self.total_steps - 1, 0)

    @property
    def more_lines(self) -> bool:
        """Whether the transcript in the page stops before the last step (the script shows the rest)."""
        return len(self.transcript) < self.total_steps


def timed_by_log_seat(
    log_names: Sequence[str], match_handles: Sequence[str], timed_scores: Sequence[int] | None
) -> tuple[int, ...] | None:
    """A log's timed scores (kept in the match's seat order) in the log's own seat order, matched by handle."""
    if timed_scores is None or len(timed_scores) != len(match_handles):
        return None
    seat_of = {handle.lower(): seat for seat, handle in enumerate(match_handles)}
    seats = [seat_of.get(name.lower()) for name in log_names]
    if any(seat is None for seat in seats):
        return None
    return tuple(timed_scores[seat] for seat in seats if seat is not None)


def limit_position(times: Sequence[int], limit: int) -> float | None:
    """Where `limit` ms falls among the steps' clocks, in steps: between the last step at or before it and the next,
    in proportion to the time between them. None when the game ended within the limit.
    """
    within = bisect_right(times, limit)  # the steps at or before the limit
    if within == len(times) or within == 0:
        return None if within == len(times) else 0.0
    before, after = times[within - 1], times[within]
    return within - 1 + (limit - before) / (after - before) if after > before else float(within - 1)


def _sample(values: Sequence[int], points: int) -> list[int]:
    if len(values) <= points:
        return list(values)
    last = len(values) - 1
    return [values[round(k * last / (points - 1))] for k in range(points)]


def build_replay(
    *,
    steps: CompactSteps | Sequence[Mapping[str, Any]],
    players: Sequence[str],
    pack: int | None,
    status: str,
    code: str = "",
    event: int | None = None,
    message: str = "",
    winner_seat: int | None = None,
    time_limit_ms: int | None = None,
    timed_played: Sequence[int] | None = None,
) -> Replay:
    """Shape one log's steps for the viewer: the compact steps kept for it (or the engine's step dicts).

    For a rejected log the steps stop at the table just before the failing
    event, so the last step is where the viewer shows what went wrong. In a
    timed match (`time_limit_ms`) the viewer marks the limit on the scrubber and
    the chart, and shows each seat's cards played by it (`timed_played`, per
    seat of the log).
    """
    compact = steps if isinstance(steps, CompactSteps) else encode([dict(step) for step in steps])
    total = len(compact)
    first_chunk = chunk(compact, start=0, count=CHUNK_STEPS)
    shown = decode(compact, 0, CHUNK_STEPS)
    first = shown[0] if shown else None
    if pack is None and first is not None:
        # Every card is dealt at step 0, so its total is the pack.
        pack = int(first["total"])
    rejected = status in {"rejected", "failed"}
    fail_step = total - 1 if rejected and total else None
    seats = compact.legend["seats"]
    names = tuple(players) or tuple(f"Seat {seat}" for seat in range(seats))

    chart = None
    if total:
        per_seat = [_sample(values, CHART_POINTS) for values in cards_left_series(compact)]
        chart = line_chart(
            list(zip(names, per_seat, strict=True)),
            width=640,
            height=190,
            steps=True,
            y_min=0,
            area=True,
        )

    transcript = tuple(
        TranscriptLine(index, str(step["description"]), failing=index == fail_step and event is not None)
        for index, step in enumerate(shown)
    )
    data: dict[str, Any] = {
        "players": list(names),
        "pack": pack,
        "total": total,
        "chunkSize": CHUNK_STEPS,
        "chunk": first_chunk,
        "verdict": {
            "status": status,
            "code": code,
            "event": event,
            "message": message,
            "winner": winner_seat,
        },
        "failStep": fail_step,
    }
    limit = None
    if time_limit_ms is not None:
        position = limit_position(step_times(compact), time_limit_ms) if total else None
        x = None
        if chart is not None and position is not None:
            x = chart.left + (chart.plot_width * position / (total - 1) if total > 1 else 0)
        played = tuple(timed_played) if timed_played is not None and len(timed_played) == len(names) else None
        within = bisect_right(step_times(compact), time_limit_ms)  # the steps at or before the limit
        played_at = tuple(tuple(step for step in steps if step < within) for steps in played_steps(compact))
        if played is None or len(played_at) != len(names):
            played_at = ()
        limit = TimeLimit(time_limit_ms, position, played, x, names, played_at)
        data["timeLimit"] = {
            "ms": time_limit_ms,
            "position": position,
            "played": None if played is None else list(played),
            "playedAt": [list(steps) for steps in played_at] if played_at else None,
        }
    if chart is not None:
        data["chart"] = {
            "left": chart.left,
            "top": chart.top,
            "width": chart.plot_width,
            "height": chart.plot_height,
            "yMin": chart.y_min,
            "yMax": chart.y_max,
            # The marker moves over every step, whatever the sample the lines are drawn from.
            "count": total,
        }
    return Replay(
        data=data,
        chart=chart,
        transcript=transcript,
        players=names,
        status=status,
        code=code,
        event=event,
        message=message,
        fail_step=fail_step,
        total_steps=total,
        first=first,
        time_limit=limit,
    )
