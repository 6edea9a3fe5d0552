"""The workload the engine's instruction counts are taken on (docs/benchmarks.md, callgrind).

    python benchmarks/count_verify.py make speed /tmp/speed.jsonl   # 200 simulated games, one a line
    python benchmarks/count_verify.py run /tmp/speed.jsonl 200 0    # verify the first 200 from bytes

`run FILE N STEPS` verifies the first N logs of FILE (a file of one log
verifies it N times), each from bytes; STEPS 0 verifies only, 1 asks for the
steps (not read), 2 reads them (the `Step` objects built, as a replay needs
them). Counted under callgrind once with N and once with 0, the difference
over N is a game's instructions, the start-up and the file's reading left out.
The games are written once with `make` so that the engines compared verify the
same bytes; `PYTHONPATH` picks the engine (a checkout, or a `git archive` of
an older commit's `speedrules`). No Django: only the engine runs.
"""

from __future__ import annotations

import sys
from pathlib import Path

import orjson

from speedrules import simulate, verify_bytes

GAMES = 200


def make(ruleset: str, path: Path) -> None:
    path.write_bytes(b"".join(orjson.dumps(simulate(ruleset, seed=seed)) + b"\n" for seed in range(GAMES)))


def run(path: Path, count: int, steps: int) -> None:
    blobs = path.read_bytes().splitlines()
    if len(blobs) == 1:
        blobs *= count
    for blob in blobs[:count]:
        verdict = verify_bytes(blob, steps=steps > 0)
        if not verdict.valid:
            raise SystemExit(f"count_verify: a log failed verification: {verdict.message}")
        if steps == 2:
            verdict.steps  # noqa: B018 - reading builds them


def main(argv: list[str]) -> None:
    if len(argv) == 3 and argv[0] == "make":
        make(argv[1], Path(argv[2]))
    elif len(argv) == 4 and argv[0] == "run" and argv[3] in ("0", "1", "2"):
        run(Path(argv[1]), int(argv[2]), int(argv[3]))
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
