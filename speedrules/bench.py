"""Games verified per second on one core: `python -m speedrules bench`.

Simulated games are serialised once; each timed round then verifies all of
them, from bytes (JSON parsing included) and from parsed documents (parsing
excluded). The best round is reported, as `timeit` does, because slower
rounds measure the machine's other work rather than the verifier.

`parse+verify+steps` is `verify_bytes(data, steps=True)`: the verdict, ready
to build its steps. The `Step` objects are built the first time
`verdict.steps` is read; `... +Step objects` reads them too, which is what a
caller that draws or stores the replay pays.
"""

from __future__ import annotations

import os
import platform
import time

import orjson

from .simulate import simulate
from .verify import verify_bytes, verify_document


def _pin_to_one_core() -> str:
    if hasattr(os, "sched_setaffinity"):
        core = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {core})
        return f"pinned to core {core}"
    return "not pinned"


def _best_rate(games: int, rounds: int, verify_all: object) -> float:
    assert callable(verify_all)
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        verify_all()
        best = min(best, time.perf_counter() - started)
    return games / best


def run_bench(*, games: int = 2000, ruleset: str = "speed", rounds: int = 5) -> dict[str, float]:
    pinned = _pin_to_one_core()
    documents = [simulate(ruleset, seed=seed) for seed in range(games)]
    blobs = [orjson.dumps(document) for document in documents]
    events = sum(len(document["events"]) for document in documents)
    if not all(verify_bytes(blob).valid for blob in blobs):
        raise SystemExit("bench: a simulated game failed verification; fix the engine first")

    def with_parse() -> None:
        for blob in blobs:
            verify_bytes(blob)

    def without_parse() -> None:
        for document in documents:
            verify_document(document)

    def with_steps() -> None:
        for blob in blobs:
            verify_bytes(blob, steps=True)

    def with_step_objects() -> None:
        for blob in blobs:
            verify_bytes(blob, steps=True).steps  # noqa: B018 - reading them builds them

    figures = {
        "parse+verify": _best_rate(games, rounds, with_parse),
        "verify only": _best_rate(games, rounds, without_parse),
        "parse+verify+steps": _best_rate(games, rounds, with_steps),
        "  +Step objects": _best_rate(games, rounds, with_step_objects),
    }
    size = sum(map(len, blobs)) / games
    print(
        f"speed engine bench: {games} simulated {ruleset!r} games, {events / games:.1f} events "
        f"and {size / 1024:.1f} KiB each; best of {rounds} rounds; {pinned}; "
        f"Python {platform.python_version()}"
    )
    for name, rate in figures.items():
        print(f"  {name:<20} {rate:>10,.0f} games/s  ({1e6 / rate:6.1f} µs/game)")
    return figures
