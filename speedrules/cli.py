"""`python -m speedrules`: verify logs, simulate games, benchmark the verifier.

Other tools parse this output, so its shape is a contract:

- `verify [--steps] FILE...` prints one JSON object per line per file,
  `{"file", "valid", "code", "event", "message", "winner", "winner_team",
  "cards_left", "cards_left_by_seat"}`, each null where it does not apply:
  `winner` the seat that called Speed (in a team game too), `winner_team` the
  winning team of a team game (the index in its `teams`), `cards_left` what
  the log's own result key means, the one seat's remaining cards of a Speed
  Solitaire run (an integer), and `cards_left_by_seat` each seat's cards still
  to get rid of for a valid log, what a deadlock is scored by (and `"steps"`,
  the counts after the deal and after each event that passed). Exit 0 when
  every file is valid, 1 when any is not, 2 when a file cannot be read or is
  not JSON (that file is reported with code `bad_format`). `-` reads stdin.
- `simulate --ruleset NAME --seed N [--players a,b]` prints a valid log.
- `bench [--against COMMIT]` prints games verified per second on one core,
  and the same for the engine of an older commit (by default b54e23b).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any

import orjson

from .errors import ErrorCode, LogError
from .rulesets import PRESETS
from .simulate import simulate
from .verify import parse_log, verify_parsed

EXIT_VALID, EXIT_INVALID, EXIT_UNREADABLE = 0, 1, 2


def _read(name: str) -> bytes:
    if name == "-":
        return sys.stdin.buffer.read()
    # Plain system calls: `open()`'s buffered file object is a noticeable share of
    # verifying a small log, and `verify` may read thousands of files.
    descriptor = os.open(name, os.O_RDONLY)
    try:
        chunks = []
        while chunk := os.read(descriptor, _CHUNK):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(descriptor)


_CHUNK = 1 << 20


def _verify_file(name: str, *, steps: bool) -> tuple[dict[str, Any], bool]:
    """The output line for one file, and whether the file was unreadable or not JSON."""
    line: dict[str, Any] = {"file": name}
    try:
        data = _read(name)
        document = parse_log(data)
    except (OSError, LogError) as error:
        message = error.message if isinstance(error, LogError) else f"Cannot read the file: {error.strerror or error}."
        line.update(
            valid=False,
            code=ErrorCode.BAD_FORMAT.value,
            event=None,
            message=message,
            winner=None,
            winner_team=None,
            cards_left=None,
            cards_left_by_seat=None,
        )
        if steps:
            line["steps"] = []
        return line, True
    verdict = verify_parsed(data, document, steps=steps)
    line.update(
        valid=verdict.valid,
        code=verdict.code.value,
        event=verdict.event,
        message=verdict.message,
        winner=verdict.winner,
        winner_team=verdict.winner_team,
        # A one-seat run is scored by its cards left: the number its log's result names (a solitaire run's).
        cards_left=verdict.cards_left[0] if verdict.cards_left is not None and len(verdict.cards_left) == 1 else None,
        # A deadlock has no winner: the cards left are its result.
        cards_left_by_seat=None if verdict.cards_left is None else list(verdict.cards_left),
    )
    if steps:
        line["steps"] = [step.to_counts() for step in verdict.steps or ()]
    return line, False


def command_verify(args: argparse.Namespace) -> int:
    status = EXIT_VALID
    out = sys.stdout.buffer
    for name in args.files:
        line, unreadable = _verify_file(name, steps=args.steps)
        out.write(orjson.dumps(line) + b"\n")
        if unreadable:
            status = EXIT_UNREADABLE
        elif not line["valid"] and status == EXIT_VALID:
            status = EXIT_INVALID
    out.flush()
    return status


def command_simulate(args: argparse.Namespace) -> int:
    players = args.players.split(",") if args.players else None
    try:
        log = simulate(args.ruleset, seed=args.seed, players=players)
    except ValueError as error:
        print(f"simulate: {error}", file=sys.stderr)
        return EXIT_UNREADABLE
    sys.stdout.buffer.write(orjson.dumps(log) + b"\n")
    return EXIT_VALID


def command_bench(args: argparse.Namespace) -> int:
    from .bench import BASELINE, run_bench  # noqa: PLC0415 - keeps `verify` start-up lean

    against = BASELINE if args.against is None else args.against or None
    run_bench(games=args.games, ruleset=args.ruleset, rounds=args.rounds, against=against)
    return EXIT_VALID


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m speedrules", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)

    verify = commands.add_parser("verify", help="verify speed-log/1 files")
    verify.add_argument("--steps", action="store_true", help="also print the card counts after every step")
    verify.add_argument("files", nargs="+", metavar="FILE", help="log files; - reads standard input")
    verify.set_defaults(handler=command_verify)

    sim = commands.add_parser("simulate", help="print a valid log of a game between bots")
    sim.add_argument("--ruleset", required=True, choices=sorted(PRESETS))
    sim.add_argument("--seed", required=True, type=int)
    sim.add_argument("--players", help="comma-separated names, one per seat")
    sim.set_defaults(handler=command_simulate)

    bench = commands.add_parser("bench", help="games verified per second on one core")
    bench.add_argument("--games", type=int, default=2000, help="simulated games per round (default 2000)")
    bench.add_argument("--rounds", type=int, default=5, help="timed rounds; the best is reported (default 5)")
    bench.add_argument("--ruleset", default="speed", choices=sorted(PRESETS))
    bench.add_argument(
        "--against",
        metavar="COMMIT",
        help="also time the engine of this commit, from git, on the same games (default b54e23b; '' for none)",
    )
    bench.set_defaults(handler=command_bench)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    status: int = args.handler(args)
    return status
