"""Practice bots: the levels of the bots' one brain (`speedrules.bots`) at a live table.

Pure: the levels and what a bot does next on a table as it stands. The bots
play through the same referee as people (`play.ticker` sends their intents).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from speedrules.bots import LEVELS, Aim, Bot, aim_holds, choose_flip, choose_play, choose_stock_play
from speedrules.cards import CARD_NAMES
from speedrules.state import GameState

#: A level's bot, by the name a practice table stores (from the slowest to the strongest).
BOT_LEVELS: dict[str, Bot] = {name: level.bot for name, level in LEVELS.items()}
#: Each level's name for people.
BOT_LABELS: dict[str, str] = {name: level.label for name, level in LEVELS.items()}


def bot_name(seat: int, level: str) -> str:
    return f"bot-{level}-{seat}"


def bot_delay_ms(level: str, rng: random.Random, *, follow_up: bool = False) -> int:
    """How long the bot takes to see and reach; `follow_up`: the table shows its own play and nothing since."""
    return BOT_LEVELS[level].delay(rng, follow_up=follow_up)


def bot_aim(state: GameState, seat: int, level: str, rng: random.Random) -> Aim | None:
    """The card or run and the pile the bot goes for now, or None when it has no play."""
    return choose_play(
        BOT_LEVELS[level],
        state.hands[seat],
        state.tops,
        left=state.remaining(seat),
        fits_on=state.fits_on,
        multi_card=state.ruleset.multi_card,
        rng=rng,
    )


def bot_keeps_aim(state: GameState, seat: int, level: str, aim: Aim) -> bool:
    """Whether the bot's reach under way survives the change: a steady level's does while it is still legal."""
    return BOT_LEVELS[level].steady and aim_holds(
        aim, state.hands[seat], state.tops, left=state.remaining(seat), fits_on=state.fits_on
    )


def bot_play_fields(aim: Aim, *, multi_card: bool) -> dict[str, Any]:
    """A play intent's fields for `aim`: `cards` with a multi_card ruleset, else `card`."""
    cards, pile = aim
    if multi_card:
        return {"cards": [CARD_NAMES[card] for card in cards], "pile": pile}
    return {"card": CARD_NAMES[cards[0]], "pile": pile}


def bot_tableau_move(state: GameState, seat: int, level: str, rng: random.Random) -> tuple[str, dict[str, Any]] | None:
    """Spit: the intent (`play` with `from`, or `move`) and its fields the bot goes for, or None when it has none."""
    play, move = choose_stock_play(
        BOT_LEVELS[level], state.legal_plays(seat), state.turning_moves(seat), state.stock[seat], rng
    )
    if play is not None:
        card, pile, source = play
        return "play", {"card": CARD_NAMES[card], "from": source, "pile": pile}
    if move is not None:
        source, target = move
        return "move", {"card": CARD_NAMES[state.stock[seat][source][-1]], "from": source, "to": target}
    return None


def bot_flip_pile(state: GameState, seat: int, level: str, flips: Sequence[int | None], rng: random.Random) -> int:
    """Where the bot's draw pile's top card goes in a draw-pile stall, given the flips the table holds.

    `flips` has one entry per draw pile (per team in a team game). A draw pile not flipped goes on its own
    pile (its index mod piles) when the stall comes, as the referee does.
    """
    piles = len(state.tops)
    side = state.ruleset.side_of(seat)
    taken = [
        flip if flip is not None else other % piles
        for other, flip in enumerate(flips)
        if other != side and state.draws[other]
    ]
    return choose_flip(BOT_LEVELS[level], state.hands[seat], state.tops, taken=taken, fits_on=state.fits_on, rng=rng)
