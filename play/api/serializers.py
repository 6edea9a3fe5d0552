from __future__ import annotations

import re
from typing import Any

from rest_framework import serializers

from core.api_fields import StrictBooleanField, StrictCharField
from core.api_strict import StrictInput
from speedrules import PRESETS

from ..bots import BOT_LEVELS
from ..models import Table
from ..services import practice_rulesets


class TableOutput(serializers.Serializer):  # type: ignore[type-arg]  # generic in DRF's stubs only
    id = serializers.IntegerField()
    game = serializers.IntegerField(allow_null=True, help_text="The match's game; null for a practice table.")
    status = serializers.ChoiceField(choices=Table.Status.choices)
    players = serializers.ListField(child=serializers.CharField(), help_text="Handles in seat order.")
    ruleset = serializers.DictField(help_text="The speed-log/1 ruleset, every field spelled out.")
    socket = serializers.CharField(help_text="The WebSocket path (speed-table/1 section 2).")
    page = serializers.CharField(help_text="The table's page on the site.")
    deck_sha256 = serializers.CharField(help_text='Hex SHA-256 of `salt + ":" + ",".join(deck)`.')
    log = serializers.CharField(allow_null=True, help_text="The stored log's API URL once the game is over.")
    solitaire_run = serializers.IntegerField(
        allow_null=True, help_text="A Speed Solitaire table's run on the leaderboard, once its game is over."
    )


class TableDetailOutput(TableOutput):
    watching = serializers.IntegerField(
        min_value=0,
        help_text="Spectators' connections open to the table now (a connection without a seat). Not part of "
        "the socket's state: a page polls this to show it, so a spectator coming or going re-renders no seat.",
    )


class PracticeInput(StrictInput):
    ruleset = StrictCharField(max_length=40, help_text="A preset (speed, california, spit, team, solitaire, ...).")
    bots = serializers.ListField(
        child=serializers.ChoiceField(choices=list(BOT_LEVELS)),
        min_length=0,
        max_length=3,
        help_text="One level per other seat of the ruleset (none for solitaire).",
    )

    @classmethod
    def request_schema_refinement(cls) -> dict[str, Any]:
        """The presets a practice table plays, and as many bots as each seats players but you.

        Each seat count's names are a pattern, not an `enum`: drf-spectacular's enum hook would make
        every `ruleset` enum of this input one component, the whole list.
        """
        names = practice_rulesets()
        by_seats: dict[int, list[str]] = {}
        for name in names:
            by_seats.setdefault(PRESETS[name].players, []).append(name)
        return {
            "properties": {"ruleset": {"enum": names}},
            "oneOf": [
                {
                    "properties": {
                        "ruleset": {"pattern": f"^(?:{'|'.join(re.escape(name) for name in seated)})$"},
                        "bots": {"minItems": seats - 1, "maxItems": seats - 1},
                    }
                }
                for seats, seated in sorted(by_seats.items())
            ],
        }


class SeekInput(StrictInput):
    ruleset = StrictCharField(
        max_length=40, help_text="A preset a table plays with two seats (speed, california, ...)."
    )
    rated = StrictBooleanField(help_text="A rated game's result moves both ratings; a casual one's does not.")


class SeekOutput(serializers.Serializer):  # type: ignore[type-arg]  # generic in DRF's stubs only
    id = serializers.IntegerField()
    seeker = serializers.CharField(help_text="The handle of the player who posted it.")
    ruleset = serializers.CharField(help_text="The preset it is played with.")
    rated = serializers.BooleanField()
    status = serializers.ChoiceField(choices=["open", "taken", "cancelled", "expired"])
    created_at = serializers.DateTimeField()
    match = serializers.IntegerField(allow_null=True, help_text="Once taken: the one-game match it made.")
    table = serializers.IntegerField(allow_null=True, help_text="Once taken: the table both players sit at.")
    page = serializers.CharField(allow_null=True, help_text="Once taken: the table's page on the site.")


class OpponentOutput(serializers.Serializer):  # type: ignore[type-arg]  # generic in DRF's stubs only
    """Another seat of the table, as its waiting player sees it."""

    seat = serializers.IntegerField()
    handle = serializers.CharField()
    seated = serializers.BooleanField(help_text="Their connection holds their seat now (a bot always does).")
    online = serializers.BooleanField(help_text="Seated, or a page of theirs polled the site within the last minute.")
    told = serializers.ChoiceField(
        choices=["page", "email"],
        allow_null=True,
        help_text="How they were told someone waits for them here: their page's banner, an email, or not (yet).",
    )


class AgainInput(StrictInput):
    answer = serializers.ChoiceField(
        choices=["accept", "decline"], help_text="Accept the offer, or decline it for all."
    )


class AgainOutput(serializers.Serializer):  # type: ignore[type-arg]  # generic in DRF's stubs only
    status = serializers.ChoiceField(choices=["open", "started", "declined", "expired"])
    offered_by = serializers.ListField(child=serializers.CharField(), help_text="The handles who accepted.")
    declined_by = serializers.CharField(allow_null=True)
    expires_at = serializers.IntegerField(help_text="When the offer lapses (server epoch ms).")
    table = serializers.IntegerField(allow_null=True, help_text="The new table, once everyone accepted.")
    page = serializers.CharField(allow_null=True, help_text="The new table's page, once everyone accepted.")
