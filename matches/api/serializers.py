"""Small input serializers (shape only; rules live in the services) and output serializers."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.api_fields import DistinctListField, NameOrObjectField, StrictCharField
from core.api_schema import exactly_one_of
from core.api_strict import StrictInput
from core.numbers import WholeNumberSerializerField, column_range
from matches.models import Challenge, Game, Match, Player, ResultChange
from matches.selectors import challenge_status, match_score, match_table, match_teams, match_timed_totals
from matches.services.matches import MAX_POINTS_PER_PLACE, TIME_LIMIT_RANGE_MS


class PlayerCreateInput(StrictInput):
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


#: The largest series a match stores (what its column holds).
SERIES_MAX = column_range(Match, "series_length")[1]
_SERIES_ERRORS = {
    "min_value": "A series is a whole number from 1.",
    "max_value": f"A series is a whole number from 1 to {SERIES_MAX}.",
}


def points_field(*, places: tuple[int, int], help_text: str) -> serializers.ListField:
    """Optional points per place, best first, for tables of `places` (low, high) seats: matches and tournaments."""
    low, high = places
    return serializers.ListField(
        child=WholeNumberSerializerField(min_value=0, max_value=MAX_POINTS_PER_PLACE),
        required=False,
        allow_null=True,
        default=None,
        min_length=low,
        max_length=high,
        help_text=help_text,
    )


def time_limit_field(*, help_text: str) -> WholeNumberSerializerField:
    """An optional timed round's limit in milliseconds, in the range the services accept."""
    low, high = TIME_LIMIT_RANGE_MS
    return WholeNumberSerializerField(
        required=False, allow_null=True, default=None, min_value=low, max_value=high, help_text=help_text
    )


class SeriesInput(StrictInput):
    """What a match and a challenge to one both take: the ruleset, the series and an optional time limit."""

    best_of = WholeNumberSerializerField(
        column=(Match, "series_length"),
        required=False,
        allow_null=True,
        default=None,
        min_value=1,
        error_messages=_SERIES_ERRORS,
    )
    first_to = WholeNumberSerializerField(
        column=(Match, "series_length"),
        required=False,
        allow_null=True,
        default=None,
        min_value=1,
        error_messages=_SERIES_ERRORS,
    )
    ruleset = NameOrObjectField(
        required=False,
        default="speed",
        help_text='A preset name ("speed", "doubles", "three-way", "four-way", ...) or a speed-log/1 ruleset '
        'object; it seats as many players as play (a challenge: two). Default "speed".',
    )
    time_limit_ms = time_limit_field(
        help_text="Timed rounds: each game is won on the cards each seat played by this many milliseconds."
    )

    @classmethod
    def request_schema_refinement(cls) -> dict[str, Any]:
        """The series is a best of or a first to: exactly one of them (`series_resolve`)."""
        return exactly_one_of("best_of", "first_to")


class MatchCreateInput(SeriesInput):
    players = DistinctListField(
        child=StrictCharField(max_length=40),
        min_length=2,
        max_length=4,
        error_messages={
            "min_length": "A match is between two to four different players: give their handles.",
            "max_length": "A match is between two to four different players: give their handles.",
            "repeated": "A match is between two to four different players: give each handle once.",
        },
        help_text="Two to four different player handles, in seat order; the ruleset's `players` must match.",
    )
    points_per_place = points_field(
        places=(3, 4),
        help_text="A table of three or four: the points each place of a game earns, best first "
        "(default [2, 1, 0] for three, [3, 1, 0, 0] for four).",
    )


class ChallengeCreateInput(SeriesInput):
    challenged = StrictCharField(max_length=40, help_text="The handle of the player you challenge.")


class PlaceOutput(serializers.Serializer):
    place = serializers.IntegerField(help_text="1 is best; players who share a place share its number.")
    players = serializers.ListField(child=serializers.CharField(), help_text="Handles, in seat order.")


def places_output(match: Match, places: list[int] | None) -> list[dict[str, Any]] | None:
    """Places per seat as the API shows them: each place with its players, best first."""
    if places is None:
        return None
    by_place: dict[int, list[str]] = {}
    for player, place in zip(match.players, places, strict=True):
        by_place.setdefault(place, []).append(player.handle)
    return [{"place": place, "players": by_place[place]} for place in sorted(by_place)]


def team_handles(match: Match, winner_id: int | None) -> list[str] | None:
    """In Team Speed, the handles of the team a winner (named by its first seat) stands for; else None."""
    if not match.is_team or winner_id is None:
        return None
    ids = match.team_of(winner_id)
    return [player.handle for player in match.players if player.pk in ids]


def seat_values(match: Match, values: list[int] | None) -> dict[str, int] | None:
    return (
        None if values is None else {player.handle: value for player, value in zip(match.players, values, strict=True)}
    )


_ONE_WINNER = (
    "The player who won; null while undecided, for a void game, and in Team Speed, where a team wins "
    "(`winning_team`), never one of its players."
)


def one_winner(match: Match, player: Player | None) -> str | None:
    """A winner's handle, except in Team Speed: a team wins there, and naming one of its players would say
    that player won alone."""
    return None if player is None or match.is_team else player.handle


class GameOutput(serializers.ModelSerializer):
    winner = serializers.SerializerMethodField(help_text=_ONE_WINNER)
    decided_by = serializers.SerializerMethodField()
    claimed_winner = serializers.SerializerMethodField(
        help_text="While awaiting confirmation: the winner one side claims (null with a claim: a void game; "
        "in Team Speed see `claimed_team`)."
    )
    claimed_team = serializers.SerializerMethodField(
        help_text="Team Speed, while awaiting confirmation: the team one side claims won (null with a claim: a "
        "void game); null in other matches."
    )
    confirm_by = serializers.DateTimeField(
        read_only=True, allow_null=True, help_text="When an unconfirmed claim stands unless disputed (null: never)."
    )

    places = serializers.SerializerMethodField(
        help_text="Where games end in places (a table of 3-4, a timed match): the result per place, best first."
    )
    timed_scores = serializers.SerializerMethodField(
        help_text="A timed match: the cards each player played onto the centre by the limit (from a verified log)."
    )
    claimed_places = serializers.SerializerMethodField(
        help_text="While awaiting confirmation, where games end in places: the places one side claims."
    )
    winning_team = serializers.SerializerMethodField(
        help_text="Team Speed: the team that won the game, its players in seat order (`winner` is then null); "
        "null in other matches and while the game is not decided."
    )

    class Meta:
        model = Game
        fields = [
            "id",
            "number",
            "status",
            "winner",
            "winning_team",
            "decided_by",
            "places",
            "timed_scores",
            "claimed_winner",
            "claimed_team",
            "claimed_places",
            "confirm_by",
        ]

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_winner(self, game: Game) -> str | None:
        return one_winner(game.match, game.winner)

    @extend_schema_field(serializers.ListField(child=serializers.CharField(), allow_null=True))
    def get_claimed_team(self, game: Game) -> list[str] | None:
        return team_handles(game.match, game.claimed_winner_id)

    @extend_schema_field(PlaceOutput(many=True, allow_null=True))
    def get_places(self, game: Game) -> list[dict[str, Any]] | None:
        return places_output(game.match, game.places)

    @extend_schema_field(serializers.ListField(child=serializers.CharField(), allow_null=True))
    def get_winning_team(self, game: Game) -> list[str] | None:
        return team_handles(game.match, game.winner_id)

    @extend_schema_field(PlaceOutput(many=True, allow_null=True))
    def get_claimed_places(self, game: Game) -> list[dict[str, Any]] | None:
        return places_output(game.match, game.claimed_places)

    @extend_schema_field(serializers.DictField(child=serializers.IntegerField(), allow_null=True))
    def get_timed_scores(self, game: Game) -> dict[str, int] | None:
        return seat_values(game.match, game.timed_scores)

    @extend_schema_field(serializers.ChoiceField(choices=Game.DecidedBy.choices, allow_null=True))
    def get_decided_by(self, game: Game) -> str | None:
        return game.decided_by or None

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_claimed_winner(self, game: Game) -> str | None:
        return one_winner(game.match, game.claimed_winner) if game.claimed_winner_id else None


class GameDetailOutput(GameOutput):
    match = serializers.IntegerField(source="match_id")

    class Meta(GameOutput.Meta):
        fields = [*GameOutput.Meta.fields, "match", "decided_at"]


class TableRowOutput(serializers.Serializer):
    place = serializers.IntegerField()
    handle = serializers.CharField()
    points = serializers.IntegerField()
    firsts = serializers.IntegerField(help_text="Games in which the player was alone in first place.")


class TeamOutput(serializers.Serializer):
    players = serializers.ListField(child=serializers.CharField())
    wins = serializers.IntegerField()


class MatchOutput(serializers.ModelSerializer):
    players = serializers.SerializerMethodField()
    best_of = serializers.SerializerMethodField()
    first_to = serializers.SerializerMethodField()
    ruleset_name = serializers.SerializerMethodField()
    score = serializers.SerializerMethodField()
    winner = serializers.SerializerMethodField(help_text=_ONE_WINNER)
    games = GameOutput(many=True, read_only=True)
    table = serializers.SerializerMethodField(
        help_text="A table of three or four: the series standings, best first (points per place, then first "
        "places, then the latest game's places)."
    )
    timed_totals = serializers.SerializerMethodField(
        help_text="A timed match: each player's cards played within the limits over its decided games."
    )
    teams = serializers.SerializerMethodField(
        help_text="Team Speed: each team's players (seat order) and games won. In a team match `winner` and a "
        "game's `winner` are null: `winning_team` names the team that won."
    )
    winning_team = serializers.SerializerMethodField()
    tournament = serializers.IntegerField(
        source="tournament_id",  # annotated by selectors.match_list
        read_only=True,
        allow_null=True,
        help_text="The id of the tournament whose pairing this match is; null for a match outside any "
        "tournament, and for one a correction annulled (its history names the correction).",
    )
    # A match is either "best_of" or "first_to": only that key is present (see to_representation).
    schema_optional_fields = ("best_of", "first_to")

    class Meta:
        model = Match
        fields = [
            "id",
            "tournament",
            "players",
            "best_of",
            "first_to",
            "wins_needed",
            "points_per_place",
            "time_limit_ms",
            "ruleset",
            "ruleset_name",
            "status",
            "score",
            "table",
            "timed_totals",
            "teams",
            "winning_team",
            "winner",
            "games",
            "created_at",
            "finished_at",
        ]

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_players(self, match: Match) -> list[str]:
        return [player.handle for player in match.players]

    @extend_schema_field(TableRowOutput(many=True, allow_null=True))
    def get_table(self, match: Match) -> list[dict[str, Any]] | None:
        if not match.is_table:
            return None
        return [TableRowOutput(row).data for row in match_table(match=match)]

    @extend_schema_field(serializers.DictField(child=serializers.IntegerField(), allow_null=True))
    def get_timed_totals(self, match: Match) -> dict[str, int] | None:
        return match_timed_totals(match=match)

    @extend_schema_field(TeamOutput(many=True, allow_null=True))
    def get_teams(self, match: Match) -> list[dict[str, Any]] | None:
        if not match.is_team:
            return None
        return [TeamOutput(row).data for row in match_teams(match=match)]

    @extend_schema_field(serializers.ListField(child=serializers.CharField(), allow_null=True))
    def get_winning_team(self, match: Match) -> list[str] | None:
        return team_handles(match, match.winner_id)

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_winner(self, match: Match) -> str | None:
        return one_winner(match, match.winner)

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


_PLACES_HELP = (
    'A table of three or four: every player\'s place by handle, 1 for the winner, e.g. {"ann": 1, "bob": 2, '
    '"cy": 2} (players who share a place share its number).'
)


class GameReportInput(StrictInput):
    winner = StrictCharField(
        max_length=40, required=False, default=None, help_text="The handle of the player who won (two players)."
    )
    places = serializers.DictField(
        child=WholeNumberSerializerField(min_value=1, max_value=4),
        required=False,
        default=None,
        help_text=_PLACES_HELP,
    )


class GameResultInput(StrictInput):
    winner = StrictCharField(
        max_length=40, allow_null=True, help_text="The handle of the player who won, or null to void the game."
    )
    places = serializers.DictField(
        child=WholeNumberSerializerField(min_value=1, max_value=4),
        required=False,
        default=None,
        help_text=_PLACES_HELP + " Null with a null winner voids the game.",
    )
    reason = StrictCharField(max_length=2000, required=False, allow_blank=True, default="")


class GameDisputeInput(StrictInput):
    reason = StrictCharField(max_length=2000, help_text="Why the claimed result is wrong (for the organiser).")


class ResultChangeOutput(serializers.ModelSerializer):
    game = serializers.IntegerField(
        source="game.number", allow_null=True, read_only=True, help_text="The game's number."
    )
    made_by = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)

    class Meta:
        model = ResultChange
        fields = ["id", "kind", "game", "made_by", "made_at", "reason", "before", "after", "source"]


class ChallengeOutput(serializers.ModelSerializer):
    challenger = serializers.CharField(source="challenger.handle", help_text="The handle of who challenged.")
    challenged = serializers.CharField(source="challenged.handle", help_text="The handle of who was challenged.")
    status = serializers.SerializerMethodField(
        help_text="open (waiting for an answer), accepted (see `match`), declined, withdrawn, or expired "
        "(an open challenge past `expires_at` reads as expired)."
    )
    match = serializers.IntegerField(
        source="match_id", allow_null=True, read_only=True, help_text="The match an accepted challenge made."
    )

    class Meta:
        model = Challenge
        fields = [
            "id",
            "challenger",
            "challenged",
            "ruleset",
            "ruleset_name",
            "series",
            "series_length",
            "time_limit_ms",
            "status",
            "created_at",
            "expires_at",
            "answered_at",
            "match",
        ]

    @extend_schema_field(serializers.ChoiceField(choices=Challenge.Status.choices))
    def get_status(self, challenge: Challenge) -> str:
        return challenge_status(challenge, now=self.context.get("now") or timezone.now())
