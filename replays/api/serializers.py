"""Output serializers for logs and replay steps (log input is the raw JSON body, not a serializer)."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.reverse import reverse

from replays.models import MatchLog


class LogSubmissionOutput(serializers.ModelSerializer):
    url = serializers.SerializerMethodField()

    class Meta:
        model = MatchLog
        fields = ["id", "status", "url"]

    @extend_schema_field(OpenApiTypes.URI)
    def get_url(self, log: MatchLog) -> str:
        return reverse("api:log-detail", kwargs={"log_id": log.pk}, request=self.context.get("request"))


class LogOutput(serializers.ModelSerializer):
    code = serializers.SerializerMethodField()
    winner = serializers.IntegerField(source="winner_seat", allow_null=True, help_text="The winning seat (0-based).")
    winner_player = serializers.SlugRelatedField(
        source="winner", slug_field="handle", read_only=True, allow_null=True, help_text="The winning seat's player."
    )
    engine_version = serializers.SerializerMethodField()
    provenance = serializers.ChoiceField(
        choices=MatchLog.Provenance.choices,
        read_only=True,
        help_text='Where the log comes from: "submitted" (by a player or an organiser), "table" (recorded by '
        'one of the service\'s own tables, which saw every card), "forfeit" (recorded at the table, whose '
        "game ended early: the forfeit decided the game, this log is the evidence of the cards played) or "
        '"practice" (recorded at a practice table against bots: no game, it counts for nothing).',
    )
    game = serializers.PrimaryKeyRelatedField(
        read_only=True, allow_null=True, help_text="The match's game; null for a practice log."
    )

    class Meta:
        model = MatchLog
        fields = [
            "id",
            "game",
            "provenance",
            "status",
            "code",
            "event",
            "message",
            "winner",
            "winner_player",
            "engine_version",
            "size",
            "sha256",
            "submitted_at",
            "verified_at",
        ]

    # Null until the log is verified: the schema says so (a string alone was what Schemathesis caught).
    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_code(self, log: MatchLog) -> str | None:
        return log.code or None

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_engine_version(self, log: MatchLog) -> str | None:
        return log.engine_version or None


class StepsOutput(serializers.Serializer):
    log = serializers.IntegerField()
    status = serializers.CharField()
    code = serializers.CharField(allow_null=True)
    event = serializers.IntegerField(allow_null=True)
    engine_version = serializers.CharField()
    count = serializers.IntegerField(
        help_text="How many steps the log has in all (the deal and each event that passed)."
    )
    offset = serializers.IntegerField(help_text="The index of this page's first step.")
    limit = serializers.IntegerField(help_text="At most this many steps per page (`?limit=`, 1 to 1,000).")
    next = serializers.URLField(allow_null=True, help_text="The next page, or null at the last.")
    previous = serializers.URLField(allow_null=True, help_text="The previous page, or null at the first.")
    steps = serializers.ListField(
        child=serializers.DictField(),
        help_text="The table after the deal and after every event that passed, from `offset`: per seat the "
        "hand (cards and count), draw-pile count and cards left; per centre pile its count and top card; "
        "per replacement stack its count; the total (always the pack size); the event in words.",
    )


class CompactStepsOutput(serializers.Serializer):
    """A chunk of steps in the compact form (`speed-steps/1`, documented in `replays/compact.py`)."""

    log = serializers.IntegerField()
    status = serializers.CharField()
    code = serializers.CharField(allow_null=True)
    event = serializers.IntegerField(allow_null=True)
    engine_version = serializers.CharField()
    format = serializers.CharField(help_text='Always "speed-steps/1".')
    total = serializers.IntegerField(help_text="How many steps the log has in all.")
    count = serializers.IntegerField(help_text="How many rows this chunk holds.")
    seats = serializers.IntegerField()
    piles = serializers.IntegerField()
    stacks = serializers.IntegerField()
    cards = serializers.ListField(
        child=serializers.CharField(), help_text="The card legend: a row's card id `n` is `cards[n]` (-1: none)."
    )
    texts = serializers.ListField(
        child=serializers.CharField(),
        help_text='The events in words: text id `k >= 0` reads `texts[k] + ", " + m:ss.s of t`; '
        "`k < 0` reads `texts[-k - 1]`.",
    )
    base = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="The table of step `from - 1` (null when `from` is 0): `[t, *fixed, n, *hand, ...]` with "
        "`fixed` = draws per seat, count per pile, top card id per pile (-1 empty), count per stack, then each "
        "seat's hand as its length and its card ids.",
    )
    rows = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text="One row per step from `from`: `[t, text, kind, *move, *changes]`. `t` is absolute in the "
        "log's first row, else the difference from the row before. `kind`: 0 deal, 1 play (then seat, pile, "
        "card), 2 collision (seat, pile, card taken back), 3 stall, 4 reshuffle, 5 speed (seat), -1 unknown. "
        "`changes`: pairs `position, value` into the fixed vector, and `F + seat, n, *cards` for a seat's "
        "whole hand (F = seats + 2 * piles + stacks). A step's event index is its own index minus one.",
    )

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        # `from` is a Python keyword: declared here rather than as a class attribute.
        fields["from"] = serializers.IntegerField(help_text="The index of this chunk's first step.")
        return fields
