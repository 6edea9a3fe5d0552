"""The practice bots' strength: simulated games of every level against every other and a 2-cards/s script.

    python manage.py bench_bots [--games 40] [--seed 1] [--ruleset NAME ...]

Plays `--games` games of each pairing on each ruleset a practice table offers
with two seats or more (or those named), with the engine's simulator (`benchmarks.bot_strength`), and
prints the share of games each row won against each column (a deadlock is won
by neither), then the strongest level against the script ruleset by ruleset.
The same flags print the same table.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from benchmarks.bot_strength import CONTENDERS, SCRIPT, pairing_play, strength_lines, strength_table
from play.services import practice_rulesets
from speedrules import PRESETS

#: The rulesets where one bot plays against another: every practice table's but solitaire's single seat.
CONTESTED = [name for name in practice_rulesets() if PRESETS[name].players > 1]


class Command(BaseCommand):
    help = "Simulated games of every practice bot level against every other and a 2-cards/s script: who wins."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=40, help="games per pairing and ruleset (default 40)")
        parser.add_argument("--seed", type=int, default=1, help="the first game's seed (default 1)")
        parser.add_argument("--ruleset", action="append", choices=CONTESTED, help="a ruleset (repeat; default all)")

    def handle(self, *args: Any, **options: Any) -> None:
        rulesets = options["ruleset"] or CONTESTED
        games, seed = options["games"], options["seed"]
        self.stdout.write(f"{games} games per pairing on each of {len(rulesets)} rulesets ({', '.join(rulesets)}):")
        for line in strength_lines(strength_table(rulesets=rulesets, games=games, seed=seed)):
            self.stdout.write(line)
        strongest = [name for name in CONTENDERS if name != SCRIPT][-1]
        shares = []
        for name in rulesets:
            pairing = pairing_play(strongest, SCRIPT, rulesets=[name], games=games, seed=seed)
            shares.append(f"{name} {100 * pairing.one_won / pairing.games:.0f}%")
        self.stdout.write(f"{strongest} against {SCRIPT}, by ruleset: {', '.join(shares)}")
