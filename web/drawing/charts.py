"""Small line charts drawn as inline SVG by the templates: pure geometry, no Django.

Server-rendered so a chart shows without JavaScript and costs the phone
nothing; the replay viewer only moves a marker over it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Tick:
    pos: float
    label: str


@dataclass(frozen=True, slots=True)
class Series:
    label: str
    css: str  # "series-0".."series-3": the colour, shared with the legend and the seats
    path: str
    values: tuple[float, ...]
    points: tuple[tuple[float, float], ...]
    area: str = ""


@dataclass(frozen=True, slots=True)
class Chart:
    width: int
    height: int
    left: float
    top: float
    plot_width: float
    plot_height: float
    y_min: float
    y_max: float
    count: int
    series: tuple[Series, ...]
    y_ticks: tuple[Tick, ...]
    x_ticks: tuple[Tick, ...] = field(default=())

    @property
    def bottom(self) -> float:
        return self.top + self.plot_height

    @property
    def right(self) -> float:
        return self.left + self.plot_width

    def x(self, index: float) -> float:
        if self.count <= 1:
            return self.left
        return self.left + self.plot_width * index / (self.count - 1)

    def y(self, value: float) -> float:
        span = self.y_max - self.y_min or 1
        return self.top + self.plot_height * (1 - (value - self.y_min) / span)


def nice_step(span: float, target_ticks: int = 4) -> float:
    """A round tick interval (1, 2, 2.5 or 5 times a power of ten) giving about `target_ticks` ticks."""
    if span <= 0:
        return 1.0
    raw = span / target_ticks
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        if raw <= factor * power:
            return factor * power
    return 10 * power


def _fmt(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def line_chart(
    series: Sequence[tuple[str, Sequence[float]]],
    *,
    width: int = 640,
    height: int = 200,
    steps: bool = False,
    y_min: float | None = None,
    y_max: float | None = None,
    x_labels: Sequence[str] | None = None,
    area: bool = False,
) -> Chart:
    """Lay out one or more series over a shared x axis (point index).

    `steps` draws each series as a staircase (the value holds until the next
    point), which is honest for counts that change event by event.
    """
    left, right_pad, top, bottom_pad = 40.0, 12.0, 12.0, 26.0
    plot_w, plot_h = width - left - right_pad, height - top - bottom_pad
    values = [v for _, vs in series for v in vs]
    lo = min(values, default=0.0) if y_min is None else y_min
    hi = max(values, default=1.0) if y_max is None else y_max
    if hi <= lo:
        hi = lo + 1
    step = nice_step(hi - lo)
    lo = math.floor(lo / step) * step
    hi = math.ceil(hi / step) * step
    count = max((len(vs) for _, vs in series), default=0)
    chart = Chart(width, height, left, top, plot_w, plot_h, lo, hi, count, (), ())

    y_ticks = []
    tick = lo
    while tick <= hi + step / 2:
        y_ticks.append(Tick(round(chart.y(tick), 1), _fmt(tick)))
        tick += step

    x_ticks: list[Tick] = []
    if x_labels and count:
        every = max(1, math.ceil(count / 6))
        for index in range(0, count, every):
            x_ticks.append(Tick(round(chart.x(index), 1), x_labels[index]))

    built = []
    for number, (label, vs) in enumerate(series):
        points = tuple((round(chart.x(i), 1), round(chart.y(v), 1)) for i, v in enumerate(vs))
        commands = []
        for i, (px, py) in enumerate(points):
            if i == 0:
                commands.append(f"M{px} {py}")
            elif steps:
                commands.append(f"H{px} V{py}")
            else:
                commands.append(f"L{px} {py}")
        path = " ".join(commands)
        fill = ""
        if area and points:
            fill = f"{path} V{round(chart.bottom, 1)} H{points[0][0]} Z"
        built.append(Series(label, f"series-{number % 4}", path, tuple(vs), points, fill))
    return Chart(width, height, left, top, plot_w, plot_h, lo, hi, count, tuple(built), tuple(y_ticks), tuple(x_ticks))
