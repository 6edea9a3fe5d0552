"""Tournaments, their entrants and pairings, correction history, and player ratings.

Models hold data and constraints only; every change goes through
`tournaments.services`, every read through `tournaments.selectors`. Pairings
and brackets are computed by the pure `tournaments.generators`.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from matches.models import Match, Player
from tournaments.generators import Section


def format_choices() -> list[tuple[str, str]]:
    """Every registered format (`tournaments.formats`): adding a format needs no migration."""
    from tournaments.formats import format_choices as registered  # noqa: PLC0415 - the formats import the models

    return registered()


class Tournament(models.Model):
    """An event: a format, a series length and ruleset for every pairing, and tie-breaks."""

    # Names for the keys of the formats code and tests refer to; the registry
    # (`tournaments.formats`) is what lists and runs formats.
    class Format(models.TextChoices):
        SINGLE_ELIMINATION = "single_elimination", "Single elimination"
        DOUBLE_ELIMINATION = "double_elimination", "Double elimination"
        ROUND_ROBIN = "round_robin", "Round robin"
        SWISS = "swiss", "Swiss"
        WINNER_STAYS_ON = "winner_stays_on", "Winner stays on"
        GROUPS_PLAYOFFS = "groups_playoffs", "Groups then playoffs"
        TABLES = "tables", "Tables of three and four"

    class Status(models.TextChoices):
        SETUP = "setup", "Not started"  # registration open or closed is said beside it, never "taking entrants"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"

    name = models.CharField(max_length=120)
    # What the public page says of the event, and when play is due to begin (both optional).
    description = models.TextField(blank=True)
    starts_at = models.DateTimeField(null=True, blank=True)
    format = models.CharField(max_length=24, choices=format_choices)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SETUP)
    # Every pairing becomes a matches.Match with this series and ruleset (as Match stores them).
    series = models.CharField(max_length=10, choices=[("best_of", "Best of N"), ("first_to", "First to N")])
    series_length = models.PositiveSmallIntegerField()
    ruleset = models.JSONField()
    ruleset_name = models.CharField(max_length=40, blank=True)
    # Ordered keys of tournaments.standings.METRICS.
    tie_breaks = models.JSONField(default=list, blank=True)

    # The format's own options, as its schema declares them (`tournaments.formats.options`):
    # `{"swiss_rounds": 5}`, `{"seeding": "random", "rng_seed": 7, "third_place": true}`.
    options = models.JSONField(default=dict, blank=True)
    # The options as they were before the start filled the defaulted ones (a Swiss event's
    # rounds from its entrants): an undone start puts them back. None until it starts.
    setup_options = models.JSONField(null=True, blank=True)
    # A timed tournament (any format): every match it makes counts the cards each seat
    # plays by this many milliseconds, and the standings rank by them first.
    time_limit_ms = models.PositiveIntegerField(null=True, blank=True)
    # Whose word decides a game of its matches (copied onto each match it makes):
    # "opponent" waits for the other side's confirmation, "none" lets verified logs
    # decide at once (supervised play); an unconfirmed result stands after
    # `confirm_within` seconds (None: never).
    confirmation = models.CharField(
        max_length=10, choices=Match.Confirmation.choices, default=Match.Confirmation.OPPONENT
    )
    confirm_within = models.PositiveIntegerField(null=True, blank=True, default=900)
    # Its own times at the tables (speed-table/1 amendment L5), only those the organiser set, in whole
    # seconds: {"claim_seconds", "abandon_seconds", "no_show_seconds" (null: a no-show counts for
    # nothing)}; the rest are the site's (`tournaments.table_settings`).
    table_settings = models.JSONField(default=dict, blank=True)
    # Played at the site's tables: a called match's table opens by itself, both players told, and the
    # next game's when a game ends (`play.services.called`); a no-show forfeits per `no_show_seconds`.
    played_at_tables = models.BooleanField(default=False)
    # Every match is called as soon as it is paired (a round's, once the round before is decided), so the
    # event runs with nobody at the desk; an organiser may still take a call back or enter a result.
    advance_automatically = models.BooleanField(default=False)
    # Before the start: players may register themselves (an organiser approves each, or `auto_approve` does),
    # and, once check-in opens, entrants who have not checked in are dropped at the start.
    registration_open = models.BooleanField(default=False)
    checkin_open = models.BooleanField(default=False)
    # Each registration is approved as it arrives (the organiser's approval, by the service), up to the cap.
    auto_approve = models.BooleanField(default=False)
    # Entry rules (`tournaments.services.entry`): at most `max_entrants` entrants (None: no cap),
    # approved registrations beyond it wait in order; self-registration ends at `registration_closes_at`.
    max_entrants = models.PositiveIntegerField(null=True, blank=True)
    registration_closes_at = models.DateTimeField(null=True, blank=True)
    # What a start with check-in open changed in the entry, for an undone start to put back
    # (`tournaments.services.entry.no_shows_drop`): {"order": [player ids by seed before the start],
    # "dropped": [player ids of the no-shows], "moved_up": [registration ids moved up into their places]}.
    # None when the start dropped no one (or before any start).
    start_entry = models.JSONField(null=True, blank=True)
    # The start the beat's sweep made at `starts_at` and the format refused (`tournaments_start_due`): when,
    # and why, for the page to say. The sweep tries it again an hour on (the entry may have changed), or at
    # once when the organiser changes its settings or start time; it never holds up another event's start.
    start_refused_at = models.DateTimeField(
        null=True, blank=True, help_text="When the start at starts_at was refused by the format (null: it was not)."
    )
    start_refusal = models.CharField(
        max_length=300, blank=True, help_text="Why the start at starts_at was refused (empty: it was not)."
    )

    class SeedBy(models.TextChoices):
        MANUAL = "manual", "By hand (the entrants' order)"
        RATING = "rating", "By rating (highest first, unrated last)"
        RANDOM = "random", "Random draw"

    # How the seeds are set at the start (not `options.seeding`, how a bracket places the seeds) (`tournaments.services.seeding`), and the order it gave:
    # {"method", "draw" (random), "order": [{"seed", "handle", "rating" (None: unrated)}]}.
    seed_by = models.CharField(max_length=10, choices=SeedBy.choices, default=SeedBy.MANUAL)
    seeding_record = models.JSONField(null=True, blank=True)

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=models.Q(series_length__gte=1), name="tournament_series_length_positive"),
        ]

    def __str__(self) -> str:
        return self.name


class Entrant(models.Model):
    """A player in a tournament, with a seed (1 is the best) and, at the end, a final place."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    player = models.ForeignKey("matches.Player", on_delete=models.PROTECT, related_name="+")
    seed = models.PositiveIntegerField()
    # Set when the tournament finishes: places `place`..`place_to` are shared.
    place = models.PositiveIntegerField(null=True, blank=True)
    place_to = models.PositiveIntegerField(null=True, blank=True)
    # When the player checked in (or an organiser checked them in); read only while check-in is open.
    checked_in_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament_id", "seed"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="entrant_player_once_per_tournament"),
            models.UniqueConstraint(fields=["tournament", "seed"], name="entrant_seed_unique_in_tournament"),
            models.CheckConstraint(condition=models.Q(seed__gte=1), name="entrant_seed_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} (seed {self.seed}) in {self.tournament_id}"


class TournamentMatch(models.Model):
    """One pairing of a tournament: a bracket slot, a round-robin or Swiss board, or a winner-stays-on match.

    `key` names it within the tournament ("W1-3", "L2-1", "GF1", "RR2-1",
    "S3-4", "S3-bye", "M7", "G2-1-3" for group 2's round 1, board 3, "T2-3" for
    round 2's table 3, "F" for the final table). The matches.Match is created once both players
    are known; byes and void bracket matches never get one. `winner` is the
    tournament's result: the match's winner, or an organiser's correction.
    """

    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting for earlier matches"
        READY = "ready", "Ready to play"
        DECIDED = "decided", "Decided"
        BYE = "bye", "Bye"
        VOID = "void", "Not played"

    class Bracket(models.TextChoices):
        MAIN = Section.MAIN.value, "Main bracket"
        WINNERS = Section.WINNERS.value, "Winners' bracket"
        LOSERS = Section.LOSERS.value, "Losers' bracket"
        GRAND_FINAL = Section.GRAND_FINAL.value, "Grand final"
        THIRD_PLACE = Section.THIRD_PLACE.value, "Third place"
        ROUND_ROBIN = "round_robin", "Round robin"
        SWISS = "swiss", "Swiss"
        WINNER_STAYS_ON = "winner_stays_on", "Winner stays on"
        GROUP = "group", "Group stage"
        TABLES = "tables", "Tables"
        FINAL_TABLE = "final_table", "Final table"

    class Source(models.TextChoices):
        MATCH = "match", "The match's result"
        BYE = "bye", "A bye"
        CORRECTION = "correction", "Corrected by an organiser"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="pairings")
    key = models.CharField(max_length=20)
    bracket = models.CharField(max_length=20, choices=Bracket.choices)
    round = models.PositiveIntegerField()
    position = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    player_one = models.ForeignKey("matches.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    player_two = models.ForeignKey("matches.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    # A table of three or four (a "tables" event) fills these seats too, in seat order.
    player_three = models.ForeignKey(
        "matches.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    player_four = models.ForeignKey("matches.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    match = models.OneToOneField(
        "matches.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="tournament_match"
    )
    winner = models.ForeignKey("matches.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    result_source = models.CharField(max_length=12, choices=Source.choices, blank=True)
    # A snapshot of the decided match for the standings, so they load in one query:
    # games each player won, and the cards each still held when the games they
    # lost ended (from verified logs; 0 for a game without one).
    games_one = models.PositiveSmallIntegerField(default=0)
    games_two = models.PositiveSmallIntegerField(default=0)
    cards_left_one = models.PositiveIntegerField(default=0)
    cards_left_two = models.PositiveIntegerField(default=0)
    # The same snapshot for a table (one entry per seat; None for two-player formats): the
    # match's places and series points, and, in a timed tournament (any format), each seat's
    # cards played within the limits over the counted games.
    places = models.JSONField(null=True, blank=True)
    points = models.JSONField(null=True, blank=True)
    timed = models.JSONField(null=True, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    # Called to a table: when an organiser marked it underway, and where ("Table 3"), if they said.
    underway_at = models.DateTimeField(null=True, blank=True)
    station = models.CharField(max_length=40, blank=True)

    class Meta:
        ordering = ["tournament_id", "id"]
        verbose_name_plural = "tournament matches"
        constraints = [
            models.UniqueConstraint(fields=["tournament", "key"], name="tournament_match_key_unique"),
        ]
        indexes = [models.Index(fields=["tournament", "round"])]

    def __str__(self) -> str:
        return f"{self.tournament_id}:{self.key}"

    @property
    def seat_ids(self) -> tuple[int, ...]:
        """The seated players' ids in seat order (two to four; fewer before a bracket fills)."""
        return tuple(
            pk
            for pk in (self.player_one_id, self.player_two_id, self.player_three_id, self.player_four_id)
            if pk is not None
        )

    @property
    def seats(self) -> list[Player]:
        """The seated players in seat order (load them with `select_related`), for pages."""
        return [
            player
            for player, pk in (
                (self.player_one, self.player_one_id),
                (self.player_two, self.player_two_id),
                (self.player_three, self.player_three_id),
                (self.player_four, self.player_four_id),
            )
            if pk is not None
        ]

    @property
    def seat_results(self) -> list[tuple[Player, int | None, int | None, int | None]]:
        """Each seat's player, place, points and timed cards (None until decided, or when not recorded)."""
        places, points, timed = self.places or [], self.points or [], self.timed or []
        return [
            (
                player,
                places[seat] if seat < len(places) else None,
                points[seat] if seat < len(points) else None,
                timed[seat] if seat < len(timed) else None,
            )
            for seat, player in enumerate(self.seats)
        ]


class Registration(models.Model):
    """A player asking to enter a tournament with open registration; an organiser approves (an entrant) or declines."""

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for approval"
        WAITING = "waiting", "On the waiting list"
        APPROVED = "approved", "Approved"
        DECLINED = "declined", "Declined"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="registrations")
    player = models.ForeignKey("matches.Player", on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    # When an approval found the event full: the waiting list is in this order, first in first up.
    waiting_since = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament_id", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="registration_once_per_tournament"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} asks to enter {self.tournament_id} ({self.status})"


class RoundSchedule(models.Model):
    """When a round may begin at the earliest ("not before"), as the organiser set it; shown and in the calendars."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="schedule")
    round = models.PositiveIntegerField()
    not_before = models.DateTimeField()

    class Meta:
        ordering = ["tournament_id", "round"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "round"], name="round_schedule_once_per_round"),
            models.CheckConstraint(condition=models.Q(round__gte=1), name="round_schedule_round_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} round {self.round} not before {self.not_before}"


class CalendarToken(models.Model):
    """A player's secret for their calendar feed's URL (no session needed); a new one revokes the old."""

    player = models.OneToOneField("matches.Player", on_delete=models.CASCADE, related_name="calendar_token")
    token = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"calendar of {self.player_id}"


class CorrectionRecord(models.Model):
    """History: one organiser correction, who made it, when and why, and everything before and after.

    The games it turned round and the matches it annulled name it in their
    own history (`matches.ResultChange.source == {"correction": id}`).
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="corrections")
    key = models.CharField(max_length=20)
    made_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    made_at = models.DateTimeField(auto_now_add=True)
    # Why, in the organiser's words (the changed games and annulled matches keep it too).
    reason = models.TextField(blank=True)
    # {"winner": handle, "pairings": [...]} as they were and as they became.
    before = models.JSONField()
    after = models.JSONField()

    class Meta:
        ordering = ["-made_at", "-id"]

    def __str__(self) -> str:
        return f"Correction of {self.tournament_id}:{self.key} at {self.made_at}"


class PlayerRating(models.Model):
    """A player's current Glicko-2 rating, from every decided game."""

    player = models.OneToOneField("matches.Player", on_delete=models.CASCADE, related_name="rating")
    rating = models.FloatField()
    deviation = models.FloatField()
    volatility = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-rating"]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.rating:.0f} ± {self.deviation:.0f}"


class RatingChange(models.Model):
    """History: a player's rating before and after one decided match (one rating period)."""

    player = models.ForeignKey("matches.Player", on_delete=models.CASCADE, related_name="rating_changes")
    match = models.ForeignKey("matches.Match", on_delete=models.CASCADE, related_name="+")
    rating_before = models.FloatField()
    deviation_before = models.FloatField()
    volatility_before = models.FloatField()
    rating_after = models.FloatField()
    deviation_after = models.FloatField()
    volatility_after = models.FloatField()
    games = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            # A match rates each of its players once, however often its decision is replayed.
            models.UniqueConstraint(fields=["player", "match"], name="rating_change_once_per_match"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} after match {self.match_id}: {self.rating_after:.0f}"
