"""Helpers for the table tests: sockets through Channels' WebsocketCommunicator, tables with fixed decks."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.test import override_settings

from play.models import Table
from play.services import live_game_build
from speedrules import PRESETS
from speedrules.cards import build_pack
from speedsite.asgi import websocket_application

IN_MEMORY = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@pytest.fixture(autouse=True)
def _in_memory_layer() -> Any:
    with override_settings(CHANNEL_LAYERS=IN_MEMORY):
        from channels.layers import channel_layers

        channel_layers.backends.clear()
        yield
        channel_layers.backends.clear()


def fixed_deck(ruleset: str = "speed", seed: int = 1) -> list[str]:
    rules = PRESETS[ruleset]
    deck = build_pack(decks=rules.decks, jokers=rules.jokers)
    random.Random(seed).shuffle(deck)
    return deck


class Seat:
    """One socket to a table, with every message it received kept for the leak checks."""

    def __init__(self, table_id: int, user: Any = None, headers: list[tuple[bytes, bytes]] | None = None) -> None:
        self.communicator = WebsocketCommunicator(
            websocket_application, f"/ws/tables/{table_id}/", headers=headers or []
        )
        self.communicator.scope["user"] = user if user is not None else AnonymousUser()
        self.received: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None

    async def connect(self) -> dict[str, Any]:
        connected, _ = await self.communicator.connect()
        assert connected
        return await self.next_state()

    async def send(self, message: Any) -> None:
        await self.communicator.send_to(text_data=message if isinstance(message, str) else json.dumps(message))

    async def receive(self, timeout: float = 3) -> dict[str, Any]:
        message = json.loads(await self.communicator.receive_from(timeout=timeout))
        self.received.append(message)
        if message["type"] == "state":
            self.state = message
        return message

    async def next_state(self, timeout: float = 3) -> dict[str, Any]:
        while True:
            message = await self.receive(timeout)
            if message["type"] == "state":
                return message

    async def until(self, predicate: Any, timeout: float = 5) -> dict[str, Any]:
        """Receive until a state satisfies `predicate` (the last state counts)."""
        if self.state is not None and predicate(self.state):
            return self.state
        while True:
            state = await self.next_state(timeout)
            if predicate(state):
                return state

    async def refusal(self, timeout: float = 3) -> dict[str, Any]:
        while True:
            message = await self.receive(timeout)
            if message["type"] == "refused":
                return message

    async def drain(self) -> None:
        while not await self.communicator.receive_nothing(timeout=0.05):
            await self.receive()

    async def close(self) -> None:
        await self.communicator.disconnect()


def table_game(table_id: int) -> Any:
    return live_game_build(Table.objects.get(pk=table_id))
