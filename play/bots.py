"""Practice bots: the engine's simulator bots (`speedrules.simulate.Bot`) with a reaction delay per level.

Pure: the levels and what a bot does next on a table as it stands. The bots
play through the same referee as people (`play.ticker` sends their intents).
"""

from __future__ import annotations

import random

from speedrules.cards import CARD_NAMES
from speedrules.simulate import Bot
from speedrules.state import GameState

#: A level's bot: its mean reaction time and appetite for runs, as the simulator's bots have.
BOT_LEVELS: dict[str, Bot] = {
    "easy": Bot(reaction_ms=1400, run_appetite=0.2),
    "medium": Bot(reaction_ms=850, run_appetite=0.5),
    "hard": Bot(reaction_ms=450, run_appetite=0.8),
}


def bot_name(seat: int, level: str) -> str:
    return f"bot-{level}-{seat}"


def bot_reaction_ms(level: str, rng: random.Random) -> int:
    """How long the bot takes to see and reach, drawn as the simulator draws it."""
    return BOT_LEVELS[level].reaction(rng)


def bot_choice(state: GameState, seat: int, rng: random.Random) -> tuple[str, int] | None:
    """The card (its name) and pile the bot goes for now, or None when it has no play."""
    plays = state.legal_single_plays(seat)
    if not plays:
        return None
    card, pile = rng.choice(plays)
    return CARD_NAMES[card], pile
