"""Output serializers for logs and replay steps (log input is the raw JSON body, not a serializer)."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.reverse import reverse

from replays.models import MatchLog, ReplaySteps


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
        source="winner", slug_field="handle", read_only=True, help_text="The winning seat's player."
    )
    engine_version = serializers.SerializerMethodField()

    class Meta:
        model = MatchLog
        fields = [
            "id",
            "game",
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

    @extend_schema_field(OpenApiTypes.STR)
    def get_code(self, log: MatchLog) -> str | None:
        return log.code or None

    @extend_schema_field(OpenApiTypes.STR)
    def get_engine_version(self, log: MatchLog) -> str | None:
        return log.engine_version or None


class StepsOutput(serializers.ModelSerializer):
    log = serializers.IntegerField(source="log_id")
    status = serializers.CharField(source="log.status")
    code = serializers.SerializerMethodField()
    event = serializers.IntegerField(source="log.event", allow_null=True)
    steps = serializers.ListField(
        child=serializers.DictField(),
        help_text="The table after the deal and after every event that passed: per seat the hand "
        "(cards and count), draw-pile count and cards left; per centre pile its count and top card; "
        "per replacement stack its count; the total (always the pack size); the event in words.",
    )

    class Meta:
        model = ReplaySteps
        fields = ["log", "status", "code", "event", "engine_version", "steps"]

    @extend_schema_field(OpenApiTypes.STR)
    def get_code(self, replay: ReplaySteps) -> str | None:
        return replay.log.code or None
