"""Small input serializers (shape only; rules live in the services) and output serializers."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from matches.api.serializers import points_field, time_limit_field
from matches.models import Match
from speedsite.api_fields import NameOrObjectField, StrictCharField
from tournaments.formats import FORMATS
from tournaments.generators import Seeding
from tournaments.models import CorrectionRecord, Entrant, PlayerRating, RatingChange, Tournament, TournamentMatch
from tournaments.standings import METRICS

# The columns' ranges: a number beyond them is a 400 here, never a database error or a wrapped value.
SMALL_MAX = 32767  # PositiveSmallIntegerField
INT_MAX = 2**31 - 1  # PositiveIntegerField
BIG_MAX = 2**63 - 1  # BigIntegerField


class TournamentCreateInput(serializers.Serializer):
    name = StrictCharField(max_length=120)
    format = serializers.ChoiceField(
        choices=list(FORMATS), help_text="Each format reads its own options below and ignores the others."
    )
    best_of = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=1, max_value=SMALL_MAX)
    first_to = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=1, max_value=SMALL_MAX)
    ruleset = NameOrObjectField(
        required=False, default="speed", help_text='A preset name ("speed", ...) or a speed-log/1 ruleset object.'
    )
    tie_breaks = serializers.ListField(
        child=StrictCharField(), required=False, default=list, help_text=f"In order, from {sorted(METRICS)}."
    )
    seeding = serializers.ChoiceField(choices=[seeding.value for seeding in Seeding], default=Seeding.STANDARD.value)
    rng_seed = serializers.IntegerField(
        required=False, allow_null=True, default=None, min_value=-BIG_MAX - 1, max_value=BIG_MAX
    )
    third_place = serializers.BooleanField(required=False, default=False)
    grand_final_reset = serializers.BooleanField(required=False, default=True)
    double_round_robin = serializers.BooleanField(required=False, default=False)
    swiss_rounds = serializers.IntegerField(
        required=False, allow_null=True, default=None, min_value=1, max_value=SMALL_MAX
    )
    max_matches = serializers.IntegerField(
        required=False, allow_null=True, default=None, min_value=1, max_value=INT_MAX
    )
    table_size = serializers.IntegerField(
        required=False,
        default=2,
        min_value=2,
        max_value=4,
        help_text="winner_stays_on: players at the table (2; 3 or 4: the winner keeps their seat, the others go "
        "to the back of one queue in their finishing order).",
    )
    group_count = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=1,
        max_value=SMALL_MAX,
        help_text="groups_playoffs: how many round-robin groups (empty: groups of about four).",
    )
    advance_per_group = serializers.IntegerField(
        required=False,
        default=2,
        min_value=1,
        max_value=SMALL_MAX,
        help_text="groups_playoffs: how many of each group reach the playoff.",
    )
    confirmation = serializers.ChoiceField(
        choices=Match.Confirmation.values,
        default=Match.Confirmation.OPPONENT.value,
        help_text="\"opponent\": one side's result waits for the other side's confirmation; "
        '"none": verified logs decide at once (supervised play).',
    )
    confirm_within = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=900,
        min_value=1,
        max_value=INT_MAX,
        help_text="Seconds before an unconfirmed result stands (a lapse); null: it never does.",
    )
    table_rounds = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=1,
        max_value=SMALL_MAX,
        help_text="tables: rounds at tables before the final table (empty: 3).",
    )
    final_table_size = serializers.IntegerField(
        required=False,
        default=4,
        min_value=3,
        max_value=4,
        help_text="tables: how many of the top of the standings play the final table (3 or 4).",
    )
    points_three = points_field(
        places=(3, 3),
        help_text="tables: the points each place of a game at a table of three earns, best first (default [2, 1, 0]).",
    )
    points_four = points_field(
        places=(4, 4),
        help_text="tables: the points each place at a table of four earns, best first (default [3, 1, 0, 0]).",
    )
    ruleset_three = NameOrObjectField(
        required=False, default="three-way", help_text="tables: the ruleset of a table of three (3 seats)."
    )
    ruleset_four = NameOrObjectField(
        required=False, default="four-way", help_text="tables: the ruleset of a table of four (4 seats)."
    )
    time_limit_ms = time_limit_field(
        help_text="Any format: every match is a timed round (cards played by this many milliseconds), "
        "and the standings rank by cards played within the limits first.",
    )


class EntrantAddInput(serializers.Serializer):
    player = StrictCharField(max_length=40, help_text="The player's handle.")
    seed = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=1, max_value=INT_MAX)


class CorrectedGameInput(serializers.Serializer):
    game = serializers.IntegerField(min_value=1, max_value=INT_MAX, help_text="The game's number in its match.")
    places = serializers.DictField(
        child=serializers.IntegerField(min_value=1, max_value=4),
        help_text="Every player's place in that game by handle (1 is best; shared places share the number).",
    )


class CorrectionInput(serializers.Serializer):
    winner = StrictCharField(
        required=False,
        allow_null=True,
        default=None,
        max_length=40,
        help_text="Two players: the handle of the player who really won.",
    )
    games = CorrectedGameInput(
        many=True,
        required=False,
        default=None,
        allow_null=True,
        max_length=50,
        help_text="A table of three or four: the corrected places of some of its decided games; "
        "the series is run again over all its games and names the winner.",
    )
    reason = StrictCharField(
        required=False,
        default="",
        allow_blank=True,
        max_length=2000,
        help_text="Why: kept with the correction and in the history of every match it changes.",
    )
    dry_run = serializers.BooleanField(required=False, default=False, help_text="Only say what would change.")
    confirm = serializers.BooleanField(
        required=False, default=False, help_text="Go ahead even if matches already started or decided are reset."
    )


class EntrantOutput(serializers.ModelSerializer):
    player = serializers.CharField(source="player.handle")
    place = serializers.SerializerMethodField()

    class Meta:
        model = Entrant
        fields = ["player", "seed", "place"]

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_place(self, entrant: Entrant) -> str | None:
        if entrant.place is None:
            return None
        if entrant.place_to in (None, entrant.place):
            return str(entrant.place)
        return f"{entrant.place}-{entrant.place_to}"


class TournamentOutput(serializers.ModelSerializer):
    best_of = serializers.SerializerMethodField()
    first_to = serializers.SerializerMethodField()
    entrant_count = serializers.SerializerMethodField()

    class Meta:
        model = Tournament
        fields = [
            "id",
            "name",
            "format",
            "status",
            "best_of",
            "first_to",
            "ruleset_name",
            "ruleset",
            "tie_breaks",
            "seeding",
            "rng_seed",
            "third_place",
            "grand_final_reset",
            "double_round_robin",
            "swiss_rounds",
            "max_matches",
            "table_size",
            "group_count",
            "advance_per_group",
            "confirmation",
            "confirm_within",
            "table_rounds",
            "final_table_size",
            "points_three",
            "points_four",
            "ruleset_three",
            "ruleset_four",
            "time_limit_ms",
            "entrant_count",
            "created_at",
            "started_at",
            "finished_at",
        ]

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_best_of(self, tournament: Tournament) -> int | None:
        return tournament.series_length if tournament.series == "best_of" else None

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_first_to(self, tournament: Tournament) -> int | None:
        return tournament.series_length if tournament.series == "first_to" else None

    @extend_schema_field(OpenApiTypes.INT)
    def get_entrant_count(self, tournament: Tournament) -> int:
        annotated = getattr(tournament, "entrant_total", None)
        return annotated if annotated is not None else tournament.entrants.count()


class TournamentDetailOutput(TournamentOutput):
    entrants = EntrantOutput(many=True, read_only=True, source="entrant_rows")

    class Meta(TournamentOutput.Meta):
        fields = [*TournamentOutput.Meta.fields, "entrants"]


class PairingOutput(serializers.ModelSerializer):
    match = serializers.CharField(source="key")
    players = serializers.SerializerMethodField()
    winner = serializers.SlugRelatedField(slug_field="handle", read_only=True, allow_null=True)
    match_id = serializers.IntegerField(allow_null=True, read_only=True)
    places = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        read_only=True,
        help_text="A table: each seat's place in its match (1 is best), in the order of players; null otherwise.",
    )
    points = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        read_only=True,
        help_text="A table: each seat's points (points per place over its games), in the order of players.",
    )
    timed = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        read_only=True,
        help_text="A timed tournament: each seat's cards played within the limits, in the order of players.",
    )

    class Meta:
        model = TournamentMatch
        fields = [
            "match",
            "bracket",
            "round",
            "position",
            "status",
            "players",
            "winner",
            "result_source",
            "match_id",
            "places",
            "points",
            "timed",
        ]

    @extend_schema_field(serializers.ListField(child=serializers.CharField(allow_null=True)))
    def get_players(self, pairing: TournamentMatch) -> list[str | None]:
        """The seats in order: two (None while a bracket slot waits), or three or four at a table."""
        seats = [pairing.player_one, pairing.player_two]
        if pairing.player_three_id is not None:
            seats += [pairing.player_three, pairing.player_four] if pairing.player_four_id else [pairing.player_three]
        return [player.handle if player else None for player in seats]


class StandingsRowOutput(serializers.Serializer):
    rank = serializers.IntegerField(allow_null=True)
    place = serializers.CharField(source="label")
    player = serializers.CharField(source="player.handle")
    values = serializers.DictField(child=serializers.FloatField())


class StandingsOutput(serializers.Serializer):
    kind = serializers.CharField(help_text='"table" (tie-breaks) or "placings" (elimination).')
    tie_breaks = serializers.ListField(child=serializers.CharField())
    finished = serializers.BooleanField()
    count = serializers.IntegerField(help_text="Rows in the whole table (entrants).")
    next = serializers.URLField(allow_null=True, help_text="The next page of rows, if any.")
    previous = serializers.URLField(allow_null=True, help_text="The previous page of rows, if any.")
    rows = StandingsRowOutput(many=True, help_text="This page's rows (`?limit=`, `?offset=`), in the `?sort=` order.")


class CorrectionRecordOutput(serializers.ModelSerializer):
    match = serializers.CharField(source="key")
    made_by = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)

    class Meta:
        model = CorrectionRecord
        fields = ["id", "match", "made_by", "made_at", "reason", "before", "after"]


class RatingOutput(serializers.ModelSerializer):
    player = serializers.CharField(source="player.handle")

    class Meta:
        model = PlayerRating
        fields = ["player", "rating", "deviation", "volatility", "games", "updated_at"]


class RatingChangeOutput(serializers.ModelSerializer):
    class Meta:
        model = RatingChange
        fields = [
            "match",
            "games",
            "rating_before",
            "deviation_before",
            "volatility_before",
            "rating_after",
            "deviation_after",
            "volatility_after",
            "created_at",
        ]


def correction_preview_schema() -> dict[str, Any]:
    """The shape of a correction preview, for the API docs."""
    return {
        "type": "object",
        "properties": {
            "match": {"type": "string"},
            "old_winner": {"type": "string", "nullable": True},
            "new_winner": {"type": "string"},
            "needs_confirmation": {"type": "boolean"},
            "applied": {"type": "boolean"},
            "changes": {"type": "array", "items": {"type": "object"}},
            "games": {
                "type": "array",
                "items": {"type": "object"},
                "description": "A table's correction: each changed game's places by handle, before and after.",
            },
            "standing": {
                "type": "object",
                "description": "A table's correction: each handle's series points and first places, before and after.",
            },
        },
    }
