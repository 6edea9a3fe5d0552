"""Games verified per second on one core, against an older engine: `python -m speedrules bench`.

Simulated games are serialised once; each timed round then verifies all of
them, from bytes (JSON parsing included) and from parsed documents (parsing
excluded). The best round is reported, as `timeit` does, because slower
rounds measure the machine's other work rather than the verifier.

`parse+verify+steps` is `verify_bytes(data, steps=True)`: the verdict, ready
to build its steps. The `Step` objects are built the first time
`verdict.steps` is read; `+Step objects` reads them too, which is what a
caller that draws or stores the replay pays.

With `against` (a commit, by default `b54e23b`, the engine before the speed
work) the engine of that commit is extracted from the git repository this
package lives in (`git archive` of its `replays/engine`, imported as a package
of its own) and verifies the same games, each line interleaved with this
engine's on the same core, so the machine's other work falls on both alike.
Each line prints both rates and their ratio, next to the goal where there is
one. Without git or that commit (an installed copy, a tarball) it says so and
prints this engine's figures only.
"""

from __future__ import annotations

import importlib.util
import io
import os
import platform
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import orjson

from .simulate import simulate
from .verify import verify_bytes, verify_document

#: The engine before the speed work, which the goals are measured against.
BASELINE = "b54e23b"
#: Where the engine lived in that commit.
BASELINE_PATH = "replays/engine"
#: The least ratio to the baseline each line aims at (lines without one only inform).
GOALS = {"parse+verify": 1.0, "parse+verify+steps": 3.0}

Engine = tuple[Callable[..., object], Callable[..., object]]  # (verify_bytes, verify_document)
Round = Callable[[], object]


def _pin_to_one_core() -> str:
    if hasattr(os, "sched_setaffinity"):
        core = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {core})
        return f"pinned to core {core}"
    return "not pinned"


def load_engine_at(commit: str, into: Path) -> ModuleType:
    """The engine of `commit`, extracted from this package's git repository into `into` and imported.

    Raises `LookupError` with the reason when git, the repository or the commit is not there.
    """
    repository = Path(__file__).resolve().parent.parent
    git = shutil.which("git")
    if git is None:
        raise LookupError("git is not installed")
    if commit.startswith("-"):
        raise LookupError(f"{commit!r} is not a commit")
    try:
        archive = subprocess.run(  # noqa: S603 - a list of arguments, no shell; git reads the commit as a name
            [git, "-C", str(repository), "archive", "--format=tar", commit, BASELINE_PATH],
            capture_output=True,
            check=True,
        ).stdout
    except subprocess.CalledProcessError as error:
        reason = error.stderr.decode(errors="replace").strip().splitlines()
        raise LookupError(reason[0] if reason else f"git archive exited {error.returncode}") from None
    name = f"speedrules_at_{commit}"
    package = into / name
    prefix = f"{BASELINE_PATH}/"
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        for member in tar.getmembers():
            if member.isfile() and member.name.startswith(prefix):
                target = package / member.name[len(prefix) :]
                target.parent.mkdir(parents=True, exist_ok=True)
                extracted = tar.extractfile(member)
                assert extracted is not None
                target.write_bytes(extracted.read())
    spec = importlib.util.spec_from_file_location(
        name, package / "__init__.py", submodule_search_locations=[str(package)]
    )
    if spec is None or spec.loader is None:
        raise LookupError(f"{BASELINE_PATH} at {commit} is not a package")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its relative imports find their package here
    spec.loader.exec_module(module)
    return module


def _rounds(engine: Engine, blobs: list[bytes], documents: list[Any]) -> dict[str, Round]:
    """One timed round per bench line: each verifies every game once."""
    from_bytes, from_document = engine

    def with_parse() -> None:
        for blob in blobs:
            from_bytes(blob)

    def without_parse() -> None:
        for document in documents:
            from_document(document)

    def with_steps() -> None:
        for blob in blobs:
            from_bytes(blob, steps=True)

    def with_step_objects() -> None:
        for blob in blobs:
            from_bytes(blob, steps=True).steps  # type: ignore[attr-defined]  # noqa: B018 - reading builds them

    return {
        "parse+verify": with_parse,
        "verify only": without_parse,
        "parse+verify+steps": with_steps,
        "+Step objects": with_step_objects,
    }


def _best_times(engines: list[dict[str, Round]], rounds: int) -> list[dict[str, float]]:
    """Each engine's best time per line, the engines taking turns within every round."""
    best = [dict.fromkeys(lines, float("inf")) for lines in engines]
    for round_number in range(rounds):
        for line in engines[0]:
            # Alternate who goes first, so neither always runs on a warmed (or a cooled) core.
            order = range(len(engines)) if round_number % 2 == 0 else reversed(range(len(engines)))
            for engine in order:
                started = time.perf_counter()
                engines[engine][line]()
                best[engine][line] = min(best[engine][line], time.perf_counter() - started)
    return best


def run_bench(
    *, games: int = 2000, ruleset: str = "speed", rounds: int = 5, against: str | None = BASELINE
) -> dict[str, tuple[float, float | None]]:
    """Print, and return, each line's games/s for this engine and for the engine at `against` (or None)."""
    pinned = _pin_to_one_core()
    documents = [simulate(ruleset, seed=seed) for seed in range(games)]
    blobs = [orjson.dumps(document) for document in documents]
    events = sum(len(document["events"]) for document in documents)
    if not all(verify_bytes(blob).valid for blob in blobs):
        raise SystemExit("bench: a simulated game failed verification; fix the engine first")

    with tempfile.TemporaryDirectory(prefix="speedrules-bench-") as folder:
        engines: list[Engine] = [(verify_bytes, verify_document)]
        note = "no older engine to compare with"
        if against:
            try:
                old = load_engine_at(against, Path(folder))
            except LookupError as error:
                note = f"the engine at {against} cannot be extracted ({error}): this engine's figures only"
            else:
                if all(old.verify_bytes(blob).valid for blob in blobs):
                    engines.append((old.verify_bytes, old.verify_document))
                    note = f"against the engine at {against} (git archive), interleaved on the same games"
                else:
                    note = f"the engine at {against} cannot verify {ruleset!r} games: this engine's figures only"
        best = _best_times([_rounds(engine, blobs, documents) for engine in engines], rounds)

    size = sum(map(len, blobs)) / games
    print(
        f"speed engine bench: {games} simulated {ruleset!r} games, {events / games:.1f} events "
        f"and {size / 1024:.1f} KiB each; best of {rounds} rounds; {pinned}; "
        f"Python {platform.python_version()}"
    )
    print(f"  {note}")
    figures: dict[str, tuple[float, float | None]] = {}
    for line, seconds in best[0].items():
        rate = games / seconds
        text = f"  {line:<20} {rate:>10,.0f} games/s ({1e6 / rate:6.1f} µs/game)"
        old_rate = games / best[1][line] if len(best) > 1 else None
        if old_rate is not None:
            ratio = rate / old_rate
            text += f"   {against}: {old_rate:>8,.0f} games/s   ratio {ratio:5.2f}"
            if line in GOALS:
                verdict = "met" if ratio >= GOALS[line] else "NOT met"
                text += f"   goal >= {GOALS[line]:.1f}: {verdict}"
        print(text)
        figures[line] = (rate, old_rate)
    return figures
