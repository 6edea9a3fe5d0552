"""How strong each practice level is: simulated games of every level against every other and a script.

Pure (the engine only): each pair of contenders plays the same number of
games on every ruleset given, through the simulator and the bots' one brain
(`speedrules.bots`), one contender at one seat (in a team game, one team) and
the other at every other seat, the first seat taken by each in turn. Game `i` of a pairing on a
ruleset is dealt by seed `seed + i`, so the table is the same every time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from speedrules import PRESETS
from speedrules.bots import LEVELS, TWO_CARDS_A_SECOND, Bot
from speedrules.simulate import simulate

SCRIPT = "2 cards/s"
#: Every level, slowest first, then the script that plays a card every half second.
CONTENDERS: dict[str, Bot] = {**{name: level.bot for name, level in LEVELS.items()}, SCRIPT: TWO_CARDS_A_SECOND}


@dataclass(frozen=True, slots=True)
class Pairing:
    """`one` against `other` over `games` games: the games each won (the rest were deadlocked)."""

    one: str
    other: str
    games: int
    one_won: int
    other_won: int


def pairing_play(one: str, other: str, *, rulesets: Sequence[str], games: int, seed: int) -> Pairing:
    """`games` games of `one` against `other` on each ruleset (the first seat taken by each in turn)."""
    one_won = other_won = 0
    for name in rulesets:
        ruleset = PRESETS[name]
        seats, teams = ruleset.players, ruleset.teams
        for index in range(games):
            # Where `one` sits: first, then last; in a team game, the whole first team, then the last.
            alone = 0 if index % 2 == 0 else len(teams or range(seats)) - 1
            ones = set(teams[alone]) if teams else {alone}
            bots = [CONTENDERS[one] if seat in ones else CONTENDERS[other] for seat in range(seats)]
            result = simulate(name, seed=seed + index, bots=bots)["result"]
            won = result.get("winner_team", result.get("winner"))
            if won is not None:
                if won == alone:
                    one_won += 1
                else:
                    other_won += 1
    return Pairing(one, other, games * len(rulesets), one_won, other_won)


def strength_table(*, rulesets: Sequence[str], games: int, seed: int) -> dict[tuple[str, str], Pairing]:
    """Every pairing of two different contenders, both ways round (`one` is the row)."""
    names = list(CONTENDERS)
    table: dict[tuple[str, str], Pairing] = {}
    for row, one in enumerate(names):
        for other in names[row + 1 :]:
            pairing = pairing_play(one, other, rulesets=rulesets, games=games, seed=seed)
            table[one, other] = pairing
            table[other, one] = Pairing(other, one, pairing.games, pairing.other_won, pairing.one_won)
    return table


def strength_lines(table: dict[tuple[str, str], Pairing]) -> list[str]:
    """A Markdown table: the row's share of the games won against the column."""
    names = list(CONTENDERS)
    lines = [
        "| wins of the row against | " + " | ".join(names) + " |",
        "|---|" + "---:|" * len(names),
    ]
    for one in names:
        cells = [
            "—" if other == one else f"{100 * table[one, other].one_won / table[one, other].games:.0f}%"
            for other in names
        ]
        lines.append(f"| {one} | " + " | ".join(cells) + " |")
    return lines
