"""Small input serializers (shape only; rules live in the services) and output serializers."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from matches.models import Game, Match, Player, ResultChange
from matches.selectors import match_score
from speedsite.api_fields import DistinctListField, NameOrObjectField, StrictCharField


class PlayerCreateInput(serializers.Serializer):
    handle = StrictCharField(max_length=40)
    display_name = StrictCharField(max_length=100, required=False, allow_blank=True, default="")
    password = StrictCharField(
        required=False,
        allow_blank=True,
        write_only=True,
        max_length=4096,
        trim_whitespace=False,
        help_text="Lets the player log in and get a token; must pass the password rules (8+ characters, "
        "not common, not all digits, not like the handle).",
    )


class PlayerOutput(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "handle", "display_name"]


#: The largest series a match or tournament stores (a PositiveSmallIntegerField column).
SERIES_MAX = 32767
_SERIES_ERRORS = {
    "min_value": "A series is a whole number from 1.",
    "max_value": f"A series is a whole number from 1 to {SERIES_MAX}.",
}


class MatchCreateInput(serializers.Serializer):
    players = DistinctListField(
        child=StrictCharField(max_length=40),
        min_length=2,
        max_length=2,
        error_messages={
            "min_length": "A match is between two different players: give two handles.",
            "max_length": "A match is between two different players: give two handles.",
            "repeated": "A match is between two different players: give two handles.",
        },
        help_text="Two different player handles.",
    )
    best_of = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=1,
        max_value=SERIES_MAX,
        error_messages=_SERIES_ERRORS,
    )
    first_to = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=1,
        max_value=SERIES_MAX,
        error_messages=_SERIES_ERRORS,
    )
    ruleset = NameOrObjectField(
        required=False,
        default="speed",
        help_text='A preset name ("speed", "doubles", ...) or a speed-log/1 ruleset object. Default "speed".',
    )


class GameOutput(serializers.ModelSerializer):
    winner = serializers.SlugRelatedField(slug_field="handle", read_only=True, allow_null=True)
    decided_by = serializers.SerializerMethodField()
    claimed_winner = serializers.SerializerMethodField(
        help_text="While awaiting confirmation: the winner one side claims (null with a claim: a void game)."
    )
    confirm_by = serializers.DateTimeField(
        read_only=True, allow_null=True, help_text="When an unconfirmed claim stands unless disputed (null: never)."
    )

    class Meta:
        model = Game
        fields = ["id", "number", "status", "winner", "decided_by", "claimed_winner", "confirm_by"]

    @extend_schema_field(serializers.ChoiceField(choices=Game.DecidedBy.choices, allow_null=True))
    def get_decided_by(self, game: Game) -> str | None:
        return game.decided_by or None

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_claimed_winner(self, game: Game) -> str | None:
        return game.claimed_winner.handle if game.claimed_winner_id else None


class GameDetailOutput(GameOutput):
    match = serializers.IntegerField(source="match_id")

    class Meta(GameOutput.Meta):
        fields = [*GameOutput.Meta.fields, "match", "decided_at"]


class MatchOutput(serializers.ModelSerializer):
    players = serializers.SerializerMethodField()
    best_of = serializers.SerializerMethodField()
    first_to = serializers.SerializerMethodField()
    ruleset_name = serializers.SerializerMethodField()
    score = serializers.SerializerMethodField()
    winner = serializers.SlugRelatedField(slug_field="handle", read_only=True, allow_null=True)
    games = GameOutput(many=True, read_only=True)
    # A match is either "best_of" or "first_to": only that key is present (see to_representation).
    schema_optional_fields = ("best_of", "first_to")

    class Meta:
        model = Match
        fields = [
            "id",
            "players",
            "best_of",
            "first_to",
            "wins_needed",
            "ruleset",
            "ruleset_name",
            "status",
            "score",
            "winner",
            "games",
            "created_at",
            "finished_at",
        ]

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_players(self, match: Match) -> list[str]:
        return [match.player_one.handle, match.player_two.handle]

    @extend_schema_field(OpenApiTypes.INT)
    def get_best_of(self, match: Match) -> int | None:
        return match.series_length if match.series == Match.Series.BEST_OF else None

    @extend_schema_field(OpenApiTypes.INT)
    def get_first_to(self, match: Match) -> int | None:
        return match.series_length if match.series == Match.Series.FIRST_TO else None

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_ruleset_name(self, match: Match) -> str | None:
        return match.ruleset_name or None

    @extend_schema_field(serializers.DictField(child=serializers.IntegerField()))
    def get_score(self, match: Match) -> dict[str, int]:
        return match_score(match=match)

    def to_representation(self, instance: Match) -> dict[str, Any]:
        data = super().to_representation(instance)
        data.pop("first_to" if instance.series == Match.Series.BEST_OF else "best_of")
        return data


class GameReportInput(serializers.Serializer):
    winner = StrictCharField(max_length=40, help_text="The handle of the player who won.")


class GameResultInput(serializers.Serializer):
    winner = StrictCharField(
        max_length=40, allow_null=True, help_text="The handle of the player who won, or null to void the game."
    )
    reason = StrictCharField(max_length=2000, required=False, allow_blank=True, default="")


class GameDisputeInput(serializers.Serializer):
    reason = StrictCharField(max_length=2000, help_text="Why the claimed result is wrong (for the organiser).")


class ResultChangeOutput(serializers.ModelSerializer):
    game = serializers.IntegerField(
        source="game.number", allow_null=True, read_only=True, help_text="The game's number."
    )
    made_by = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)

    class Meta:
        model = ResultChange
        fields = ["id", "kind", "game", "made_by", "made_at", "reason", "before", "after", "source"]
