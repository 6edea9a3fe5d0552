"""Practice bots at a live table: the brain's levels, its runs sent as one play, the levels people pick from."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async

from play.bots import BOT_LABELS, BOT_LEVELS, bot_aim, bot_delay_ms, bot_keeps_aim, bot_play_fields
from play.models import TableEvent
from play.services import table_practice_create
from speedrules import PRESETS
from speedrules.cards import CARD_ID
from speedrules.state import GameState
from tests.factories import make_player

from .conftest import Seat, fixed_deck


def test_the_levels_run_from_beginner_to_expert_and_keep_the_old_names() -> None:
    assert list(BOT_LEVELS) == ["beginner", "easy", "medium", "hard", "expert"]
    assert [BOT_LEVELS[name].reaction_ms for name in BOT_LEVELS] == sorted(
        (bot.reaction_ms for bot in BOT_LEVELS.values()), reverse=True
    )
    assert BOT_LEVELS["expert"].reaction_ms <= 250
    assert all(label.startswith(name.capitalize()) for name, label in BOT_LABELS.items())


def test_a_run_goes_as_cards_only_where_runs_are_allowed() -> None:
    aim = ((CARD_ID["9C"], CARD_ID["10H"]), 1)
    assert bot_play_fields(aim, multi_card=True) == {"cards": ["9C", "10H"], "pile": 1}
    assert bot_play_fields(((CARD_ID["9C"],), 0), multi_card=False) == {"card": "9C", "pile": 0}


def _a_deck_where_the_bot_opens_with_a_run() -> list[str]:
    """A runs-at-once deck where seat 0 has no play at the start and the expert's first choice is a run."""
    rules = PRESETS["runs-at-once"]
    for seed in range(5000):
        deck = fixed_deck("runs-at-once", seed)
        state = GameState(rules, [CARD_ID[card] for card in deck])
        if state.legal_single_plays(0):
            continue
        aims = [bot_aim(state, 1, "expert", random.Random(draw)) for draw in range(10)]
        if all(aim is not None and len(aim[0]) >= 3 for aim in aims):
            return deck
    raise AssertionError("no deck found")


@pytest.mark.django_db(transaction=True)
def test_an_expert_bot_plays_a_run_at_a_runs_at_once_table() -> None:
    me = make_player("pat")
    table = table_practice_create(
        user=me.user, ruleset="runs-at-once", bots=["expert"], deck=_a_deck_where_the_bot_opens_with_a_run()
    )

    def plays() -> list[Any]:
        return list(TableEvent.objects.filter(table=table, data__type="play").values_list("data", flat=True))

    async def scenario() -> list[Any]:
        seat = Seat(table.pk, me.user)
        await seat.connect()
        await seat.send({"type": "ready"})
        await seat.until(lambda state: state["status"] == "playing", timeout=5)
        for _ in range(200):  # seat 0 has no play: the bot's is the first
            found = await sync_to_async(plays)()
            if found:
                await seat.close()
                return found
            await asyncio.sleep(0.05)
        await seat.close()
        return []

    first = async_to_sync(scenario)()[0]
    assert first["player"] == 1 and len(first["cards"]) >= 3


def test_a_bot_keeps_its_reach_while_the_table_leaves_it_legal_and_follows_on_quicker() -> None:
    state = GameState(PRESETS["speed"], [CARD_ID[card] for card in fixed_deck("speed", 2)])
    aim = bot_aim(state, 1, "expert", random.Random(1))
    assert aim is not None
    assert bot_keeps_aim(state, 1, "expert", aim)
    cards, pile = aim
    state.tops[pile] = next(card for card in range(4, 56) if not state.fits_on[cards[0]][card])
    assert not bot_keeps_aim(state, 1, "expert", aim)  # another card covered its pile
    rng = random.Random(3)
    follow = [bot_delay_ms("expert", rng, follow_up=True) for _ in range(200)]
    fresh = [bot_delay_ms("expert", rng) for _ in range(200)]
    assert sum(follow) < sum(fresh)
