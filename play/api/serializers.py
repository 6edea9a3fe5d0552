from __future__ import annotations

from rest_framework import serializers

from core.api_fields import StrictCharField
from core.api_strict import StrictInput

from ..bots import BOT_LEVELS


class TableOutput(serializers.Serializer):  # type: ignore[type-arg]  # generic in DRF's stubs only
    id = serializers.IntegerField()
    game = serializers.IntegerField(allow_null=True, help_text="The match's game; null for a practice table.")
    status = serializers.ChoiceField(choices=["waiting", "countdown", "playing", "stuck", "over", "abandoned"])
    players = serializers.ListField(child=serializers.CharField(), help_text="Handles in seat order.")
    ruleset = serializers.DictField(help_text="The speed-log/1 ruleset, every field spelled out.")
    socket = serializers.CharField(help_text="The WebSocket path (speed-table/1 section 2).")
    page = serializers.CharField(help_text="The table's page on the site.")
    deck_sha256 = serializers.CharField(help_text='Hex SHA-256 of `salt + ":" + ",".join(deck)`.')
    log = serializers.CharField(allow_null=True, help_text="The stored log's API URL once the game is over.")


class PracticeInput(StrictInput):
    ruleset = StrictCharField(max_length=40, help_text="A preset of two to four seats (speed, california, ...).")
    bots = serializers.ListField(
        child=serializers.ChoiceField(choices=list(BOT_LEVELS)),
        min_length=1,
        max_length=3,
        help_text="One level per other seat of the ruleset.",
    )
