"""Small input serializers (shape only; rules live in the services) and output serializers."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.api_fields import NameOrObjectField, StrictBooleanField, StrictCharField
from core.api_schema import exactly_one_of
from core.api_strict import StrictInput
from core.numbers import WholeNumberSerializerField
from matches.api.serializers import time_limit_field
from matches.models import Game, Match
from tournaments.formats import FORMATS
from tournaments.formats.options import OptionSpec
from tournaments.models import CorrectionRecord, Entrant, PlayerRating, RatingChange, Tournament, TournamentMatch
from tournaments.services.entry import MAX_CAP
from tournaments.standings import METRICS
from tournaments.table_settings import BOUNDS as TABLE_BOUNDS

# Numbers are bounded by their columns (`core.numbers`): beyond them is a 400, never a database
# error or a wrapped value.

_JSON_TYPES = {"int": "integer", "bool": "boolean"}


def option_schema(spec: OptionSpec, default: object) -> dict[str, Any]:
    """One option as JSON Schema, from its declaration (`tournaments.formats.options`)."""
    schema: dict[str, Any]
    if spec.kind == "ruleset":
        schema = {"oneOf": [{"type": "string"}, {"type": "object", "additionalProperties": {}}]}
    elif spec.kind == "points":
        item = {"type": "integer", "minimum": 0, "maximum": spec.maximum}
        schema = {"type": "array", "items": item, "minItems": spec.seats, "maxItems": spec.seats, "nullable": True}
    elif spec.kind == "choice":
        values = [value for value, _ in spec.choices]
        schema = {"type": "integer" if isinstance(values[0], int) else "string", "enum": values}
    else:
        schema = {"type": _JSON_TYPES[spec.kind]}
        if spec.kind == "int":
            schema |= {"minimum": spec.minimum, "maximum": spec.maximum, "nullable": spec.nullable}
    if not isinstance(default, dict):
        schema["default"] = default
    return schema | {"title": spec.label, "description": spec.help_text}


def format_options_schema() -> dict[str, Any]:
    """Any format's options object: one object per format, each with exactly its own options.

    `anyOf`, not `oneOf`: an empty object (every default) is every format's.
    """
    return {
        "anyOf": [
            {
                "type": "object",
                "title": f"{fmt.label} options",
                "description": f'With "format": "{key}".',
                "properties": {
                    name: option_schema(spec, default) for name, (spec, default) in fmt.options.specs().items()
                },
                "additionalProperties": False,
            }
            for key, fmt in FORMATS.items()
        ]
    }


@extend_schema_field(format_options_schema())
class FormatOptionsField(serializers.DictField):
    """A format's options as a JSON object; the format's schema (in the service) judges the names and values."""


_TABLE_WORDS = {
    "claim_seconds": "Seconds every other player must be away before a present player may claim the game.",
    "abandon_seconds": "Seconds everyone may be away before the table is abandoned; a table nobody readied "
    "is aborted after as long.",
    "no_show_seconds": "At a called match's table, seconds from its opening after which a player who never came "
    "forfeits to those who did; null: a no-show counts for nothing.",
}


def table_settings_schema() -> dict[str, Any]:
    """`table_settings` as JSON Schema, from its bounds (`tournaments.table_settings`)."""
    return {
        "type": "object",
        "properties": {
            name: {
                "type": "integer",
                "minimum": bound.minimum,
                "maximum": bound.maximum,
                "nullable": bound.nullable,
                "description": _TABLE_WORDS[name],
            }
            for name, bound in TABLE_BOUNDS.items()
        },
        "additionalProperties": False,
        "description": "The tournament's own times at the tables (speed-table/1 amendment L5), in seconds; a "
        "name left out takes the site's. claim_seconds and no_show_seconds must be shorter than abandon_seconds.",
    }


@extend_schema_field(table_settings_schema())
class TableSettingsField(serializers.DictField):
    """The table settings as a JSON object; `tournaments.table_settings` (in the service) judges the names and values."""


def option_homes() -> dict[str, str]:
    """Each format option sent beside the settings (where options once were): where it lives now."""
    formats: dict[str, list[str]] = {}
    for key, fmt in FORMATS.items():
        for name in fmt.options.specs():
            formats.setdefault(name, []).append(key)
    return {name: f"An option of the format ({', '.join(keys)}): send it in options." for name, keys in formats.items()}


_ENTRY_RULE = "An entry rule: set it with PUT /api/tournaments/{id}/entry-rules/."


class TournamentSettingsInput(StrictInput):
    """What `PUT /api/tournaments/{id}/` replaces: the settings every format shares, and its options."""

    moved_keys = option_homes() | dict.fromkeys(("max_entrants", "registration_closes_at"), _ENTRY_RULE)

    name = StrictCharField(max_length=120)
    format = serializers.ChoiceField(
        choices=Tournament.Format.choices, help_text="The format; its own options go in `options`."
    )
    best_of = WholeNumberSerializerField(
        column=(Tournament, "series_length"), min_value=1, required=False, allow_null=True, default=None
    )
    first_to = WholeNumberSerializerField(
        column=(Tournament, "series_length"), min_value=1, required=False, allow_null=True, default=None
    )
    ruleset = NameOrObjectField(
        required=False, default="speed", help_text='A preset name ("speed", ...) or a speed-log/1 ruleset object.'
    )
    tie_breaks = serializers.ListField(
        child=StrictCharField(), required=False, default=list, help_text=f"In order, from {sorted(METRICS)}."
    )
    confirmation = serializers.ChoiceField(
        choices=Match.Confirmation.choices,
        default=Match.Confirmation.OPPONENT.value,
        help_text="\"opponent\": one side's result waits for the other side's confirmation; "
        '"none": verified logs decide at once (supervised play).',
    )
    confirm_within = WholeNumberSerializerField(
        column=(Tournament, "confirm_within"),
        required=False,
        allow_null=True,
        default=900,
        min_value=1,
        help_text="Seconds before an unconfirmed result stands (a lapse); null: it never does.",
    )
    time_limit_ms = time_limit_field(
        help_text="Any format: every match is a timed round (cards played by this many milliseconds), "
        "and the standings rank by cards played within the limits first.",
    )
    options = FormatOptionsField(
        required=False,
        default=dict,
        help_text="The format's own options (each format's object below); a name left out takes its default.",
    )
    table_settings = TableSettingsField(
        required=False, default=dict, help_text="Its own times at the tables; left out: the site's."
    )
    auto_approve = StrictBooleanField(
        required=False,
        default=False,
        help_text="Approve each registration as it arrives (past the cap it goes on the waiting list), "
        "as an organiser's approval would, emails included; false: an organiser approves each.",
    )
    played_at_tables = StrictBooleanField(
        required=False,
        default=False,
        help_text="Played at the site's tables: a called match's table opens by itself and both players are "
        "emailed, the next game's when a game ends; a no-show forfeits after table_settings.no_show_seconds.",
    )
    advance_automatically = StrictBooleanField(
        required=False,
        default=False,
        help_text="Call every match as soon as it is paired (a round once the round before is decided), and "
        "start at starts_at if one is set, so the event runs by itself; false: an organiser starts it and calls "
        "each match.",
    )

    @classmethod
    def request_schema_refinement(cls) -> dict[str, Any]:
        """Exactly one of best_of and first_to (`series_resolve`); tie-breaks are known metrics, each once."""
        return exactly_one_of("best_of", "first_to") | {
            "properties": {"tie_breaks": {"items": {"type": "string", "enum": sorted(METRICS)}, "uniqueItems": True}}
        }


class TournamentCreateInput(TournamentSettingsInput):
    """A new tournament: its settings and its entry rules (changed later through `entry-rules/`)."""

    seed_by = serializers.ChoiceField(
        choices=Tournament.SeedBy.choices,
        default=Tournament.SeedBy.MANUAL.value,
        help_text='How the seeds are set at the start: "manual" (as entered), "rating" (Glicko-2, highest '
        'first, unrated last in entry order) or "random" (a draw; its number is recorded).',
    )
    max_entrants = WholeNumberSerializerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=2,
        max_value=MAX_CAP,
        help_text="The cap on entrants (null: none); approved registrations past it wait in order.",
    )
    registration_closes_at = serializers.DateTimeField(
        required=False, allow_null=True, default=None, help_text="After it, players can no longer register."
    )


class EntryRulesInput(StrictInput):
    max_entrants = WholeNumberSerializerField(
        allow_null=True, min_value=2, max_value=MAX_CAP, help_text="The cap on entrants (null: none)."
    )
    registration_closes_at = serializers.DateTimeField(
        allow_null=True, help_text="After it, players can no longer register (null: until the start)."
    )


class EntrantAddInput(StrictInput):
    player = StrictCharField(max_length=40, help_text="The player's handle.")
    seed = WholeNumberSerializerField(
        column=(Entrant, "seed"), min_value=1, required=False, allow_null=True, default=None
    )


class CorrectedGameInput(StrictInput):
    game = WholeNumberSerializerField(column=(Game, "number"), min_value=1, help_text="The game's number in its match.")
    places = serializers.DictField(
        child=WholeNumberSerializerField(min_value=1, max_value=4),
        required=False,
        help_text="A table: every player's place in that game by handle (1 is best; shared places share the number; "
        "a game number after the match's last game adds the game).",
    )
    winner = StrictCharField(
        required=False,
        max_length=40,
        help_text="Two players: the handle of the player who really won that game (a game number after the "
        "match's last game adds the game). "
        "Give `places` for a table's game, `winner` for two players' (the service says which is missing).",
    )
    void = StrictBooleanField(
        required=False,
        default=False,
        help_text="True when the game did not count (it becomes void); give no `winner` or `places` with it.",
    )


class CorrectionInput(StrictInput):
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
        help_text="The corrected result of some of its games: a table's places, or two players' winner of each "
        "(the real score; `void` for a game that did not count, a winner or places for a game the match never "
        "had); the series is run again over all its games and names the winner.",
    )
    reason = StrictCharField(
        required=False,
        default="",
        allow_blank=True,
        max_length=2000,
        help_text="Why: kept with the correction and in the history of every match it changes.",
    )
    dry_run = StrictBooleanField(required=False, default=False, help_text="Only say what would change.")
    confirm = StrictBooleanField(
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
    options = FormatOptionsField(read_only=True, help_text="The format's own options, as stored (defaults filled).")
    table_settings = TableSettingsField(
        read_only=True, help_text="Only what the organiser set; the rest are the site's."
    )
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
            "confirmation",
            "confirm_within",
            "time_limit_ms",
            "options",
            "table_settings",
            "auto_approve",
            "played_at_tables",
            "advance_automatically",
            "seed_by",
            "seeding_record",
            "max_entrants",
            "registration_closes_at",
            "starts_at",
            "start_refused_at",
            "start_refusal",
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
                "description": "Each changed game, before and after: a table's places by handle, or two players' "
                "winner, with `before_status` and `after_status` (decided, void; not_played for an added game).",
            },
            "score": {
                "type": "object",
                "description": "Two players' corrected games: each handle's games won, before and after.",
            },
            "standing": {
                "type": "object",
                "description": "A table's correction: each handle's series points and first places, before and after.",
            },
        },
    }
