"""What the replay viewer is given: the engine's steps, shaped for the template and the script.

Pure presentation over data the replays app already computed (`Step.to_dict()`
per step); nothing here judges a log.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .charts import Chart, line_chart


@dataclass(frozen=True, slots=True)
class TranscriptLine:
    step: int
    text: str
    failing: bool = False


@dataclass(frozen=True, slots=True)
class Replay:
    """Everything `web/_replay_viewer.html` needs."""

    data: dict[str, Any]  # embedded with json_script and read by static/js/replay.js
    chart: Chart | None
    transcript: tuple[TranscriptLine, ...]
    players: tuple[str, ...]
    status: str
    code: str
    event: int | None
    message: str
    fail_step: int | None

    @property
    def rejected(self) -> bool:
        return self.status in {"rejected", "failed"}

    @property
    def winner_name(self) -> str | None:
        seat = self.data["verdict"]["winner"]
        if seat is None or not 0 <= seat < len(self.players):
            return None
        return self.players[seat]

    @property
    def last_step(self) -> int:
        return max(len(self.data["steps"]) - 1, 0)


def build_replay(
    *,
    steps: Sequence[Mapping[str, Any]],
    players: Sequence[str],
    pack: int | None,
    status: str,
    code: str = "",
    event: int | None = None,
    message: str = "",
    winner_seat: int | None = None,
) -> Replay:
    """Shape one log's steps for the viewer.

    For a rejected log the steps stop at the table just before the failing
    event, so the last step is where the viewer shows what went wrong.
    """
    steps = [dict(step) for step in steps]
    if pack is None and steps:
        # Every card is dealt at step 0, so its total is the pack.
        pack = int(steps[0]["total"])
    rejected = status in {"rejected", "failed"}
    fail_step = len(steps) - 1 if rejected and steps else None
    names = tuple(players) or tuple(f"Seat {seat}" for seat in range(len(steps[0]["hands"]) if steps else 0))

    chart = None
    if steps:
        per_seat = [[step["cards_left"][seat] for step in steps] for seat in range(len(names))]
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
        for index, step in enumerate(steps)
    )
    data = {
        "players": list(names),
        "pack": pack,
        "steps": steps,
        "verdict": {
            "status": status,
            "code": code,
            "event": event,
            "message": message,
            "winner": winner_seat,
        },
        "failStep": fail_step,
    }
    if chart is not None:
        data["chart"] = {
            "left": chart.left,
            "top": chart.top,
            "width": chart.plot_width,
            "height": chart.plot_height,
            "yMin": chart.y_min,
            "yMax": chart.y_max,
            "count": chart.count,
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
    )
