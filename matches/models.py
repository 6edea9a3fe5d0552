"""Models for players, matches and games.

Models hold data and constraints only; every change goes through
`matches.services` (HackSoft style), every read through `matches.selectors`.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower


class Player(models.Model):
    """Someone who plays: a unique handle (case-insensitive), linked to the Django user they log in as."""

    handle = models.CharField(max_length=40)
    display_name = models.CharField(max_length=100)
    # What the handle and the display name read as (matches.names.name_skeleton), set with them by
    # player_create: a new name is compared with every player's by one indexed query.
    handle_key = models.CharField(max_length=400, blank=True, db_index=True)
    name_key = models.CharField(max_length=400, blank=True, db_index=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="player"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["handle"]
        constraints = [
            models.UniqueConstraint(Lower("handle"), name="player_handle_unique_ci"),
        ]

    def __str__(self) -> str:
        return self.handle


class Match(models.Model):
    """A series between two to four players (one per seat of its ruleset): best of N or first to N.

    Seats three and four are optional columns rather than a table of seats: a
    ruleset has at most four seats, and the two-player match (nearly every
    match) stays one row that every query reads without a join.
    """

    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", "In progress"
        FINISHED = "finished", "Finished"
        # Set aside by a tournament correction: kept and shown, counted nowhere.
        ANNULLED = "annulled", "Annulled"

    class Confirmation(models.TextChoices):
        OPPONENT = "opponent", "The opponent confirms one side's result"
        NONE = "none", "Verified logs decide at once (supervised play)"

    class Series(models.TextChoices):
        BEST_OF = "best_of", "Best of N"
        FIRST_TO = "first_to", "First to N"

    player_one = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    player_two = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    player_three = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    player_four = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    # Points each place of a game earns, best first (a table of three or four);
    # None in a two-player match, where a series counts games won.
    points_per_place = models.JSONField(null=True, blank=True)
    # A timed match: each game is scored by the cards each seat played at or
    # before this many milliseconds (None: an ordinary race to call Speed).
    time_limit_ms = models.PositiveIntegerField(null=True, blank=True)
    # The full ruleset as in speed-log/1 (every field spelled out) and, when it is
    # one of the engine's presets, that preset's name.
    ruleset = models.JSONField()
    ruleset_name = models.CharField(max_length=40, blank=True)
    series = models.CharField(max_length=10, choices=Series.choices)
    series_length = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.IN_PROGRESS)
    winner = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    # Whose word decides a game: one side's evidence waits for the other side's
    # confirmation ("opponent") unless the match's tournament is supervised ("none").
    confirmation = models.CharField(max_length=10, choices=Confirmation.choices, default=Confirmation.OPPONENT)
    # Seconds an unconfirmed result waits before it stands (a "lapse"); None: it never lapses.
    confirm_within = models.PositiveIntegerField(null=True, blank=True)
    # Whether its result moves ratings: every match does, but a casual game of the lobby.
    rated = models.BooleanField(default=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "matches"
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(player_one=models.F("player_two")), name="match_two_distinct_players"
            ),
            models.CheckConstraint(condition=models.Q(series_length__gte=1), name="match_series_length_positive"),
            # A NULL seat passes a CHECK, so these hold whenever both seats are filled.
            models.CheckConstraint(
                condition=~models.Q(player_three=models.F("player_one"))
                & ~models.Q(player_three=models.F("player_two")),
                name="match_seat_three_distinct",
            ),
            models.CheckConstraint(
                condition=~models.Q(player_four=models.F("player_one"))
                & ~models.Q(player_four=models.F("player_two"))
                & ~models.Q(player_four=models.F("player_three")),
                name="match_seat_four_distinct",
            ),
            models.CheckConstraint(
                condition=models.Q(player_four__isnull=True) | models.Q(player_three__isnull=False),
                name="match_seats_filled_in_order",
            ),
        ]
        indexes = [models.Index(fields=["status"])]

    def __str__(self) -> str:
        return f"Match {self.pk}: {self.player_one_id} v {self.player_two_id}"

    @property
    def wins_needed(self) -> int:
        if self.series == self.Series.FIRST_TO:
            return self.series_length
        return self.series_length // 2 + 1

    @property
    def players(self) -> tuple[Player, ...]:
        """The players in seat order (two to four)."""
        seats = (self.player_one, self.player_two)
        if self.player_three_id is not None:
            seats += (self.player_three,)
        if self.player_four_id is not None:
            seats += (self.player_four,)
        return seats

    @property
    def player_ids(self) -> tuple[int, ...]:
        """The players' ids in seat order, without loading the players."""
        return tuple(
            pk
            for pk in (self.player_one_id, self.player_two_id, self.player_three_id, self.player_four_id)
            if pk is not None
        )

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        """Team Speed: the seats of each team, from the ruleset (empty when everyone plays alone)."""
        if self.player_four_id is None:  # teams need four seats: no need to read the ruleset
            return ()
        return tuple(tuple(team) for team in self.ruleset.get("teams", ()))

    @property
    def is_team(self) -> bool:
        """Team Speed: a game is won by a team, and the series counts the teams' wins."""
        return bool(self.teams)

    @property
    def is_table(self) -> bool:
        """Three or four players each for themselves: games end in places, the series counts points per place."""
        return self.player_three_id is not None and not self.is_team

    @property
    def ranks_games(self) -> bool:
        """Its games' results are places (a table, a team game, a timed match), not just a winner."""
        return self.player_three_id is not None or self.time_limit_ms is not None

    def team_of(self, player_id: int) -> tuple[int, ...]:
        """In a team match, the ids of the player's team (the player included)."""
        ids = self.player_ids
        return next(tuple(ids[seat] for seat in team) for team in self.teams if player_id in (ids[s] for s in team))


class Game(models.Model):
    """One game of a match. The next one opens when this one is decided and the match is not."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        AWAITING_CONFIRMATION = "awaiting_confirmation", "Awaiting confirmation"
        DECIDED = "decided", "Decided"
        VOID = "void", "Void (deadlock)"
        DISPUTED = "disputed", "Disputed"

    class DecidedBy(models.TextChoices):
        LOG = "log", "Verified log"
        PLAYERS = "players", "Reported by both players"
        ORGANISER = "organiser", "Set by an organiser"
        CORRECTION = "correction", "A tournament correction"
        LAPSE = "lapse", "Unconfirmed, stood when its window ran out"
        TABLE = "table", "Recorded at the service's table"
        # Ended at the service's table before its end: a resign, or a claim against a seat that left.
        FORFEIT = "forfeit", "Forfeited at the service's table"

    class ClaimSource(models.TextChoices):
        LOG = "log", "A verified log"
        REPORT = "report", "A player's report"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=24, choices=Status.choices, default=Status.OPEN)
    winner = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    decided_by = models.CharField(max_length=12, choices=DecidedBy.choices, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    # Who decided it when a person did (the organiser who set it, the opponent who
    # confirmed it, the submitter of the log whose evidence decided it: the change's
    # `made_by`), and why, when they said.
    decided_by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reason = models.TextField(blank=True)
    # One side's claim while the game awaits the other side's confirmation: the
    # winner it names (None with a claim: a void game), whose side made it, from what,
    # and when it stands unless disputed (None: only a confirmation decides it).
    claimed_winner = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    claimed_by = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    claim_source = models.CharField(max_length=10, choices=ClaimSource.choices, blank=True)
    confirm_by = models.DateTimeField(null=True, blank=True)
    # What each player reported (for a result "reported by both players"); a
    # report is a winner, so both must name the same player.
    reported_by_one = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    reported_by_two = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    # In a match whose games end in places (a table of 3-4, a timed match):
    # the decided places per seat (1 is best; equal places are shared), each
    # seat's timed score (cards played by the limit, from a verified log), the
    # claim's places and timed scores, and each player's report
    # ({"<player id>": {"winner": id or None, "places": [...]}}): the two report
    # columns above serve two-player matches only.
    places = models.JSONField(null=True, blank=True)
    timed_scores = models.JSONField(null=True, blank=True)
    claimed_places = models.JSONField(null=True, blank=True)
    claimed_timed_scores = models.JSONField(null=True, blank=True)
    reports = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["match_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="game_number_unique_in_match"),
        ]
        indexes = [models.Index(fields=["status"]), models.Index(fields=["confirm_by"])]

    def __str__(self) -> str:
        return f"Match {self.match_id}, game {self.number}"

    @property
    def is_settled(self) -> bool:
        return self.status in (self.Status.DECIDED, self.Status.VOID)


class ResultChange(models.Model):
    """One change of a game's or a match's result, kept for good: who, when, why, before and after.

    Written by the services in the transaction that makes the change; nothing
    edits or deletes these rows (the admin shows them read-only).
    """

    class Kind(models.TextChoices):
        SUBMISSION = "submission", "Evidence submitted"
        CONFIRMATION = "confirmation", "Confirmed"
        DISPUTE = "dispute", "Disputed"
        DECISION = "decision", "Decided by the evidence"
        SETTLEMENT = "settlement", "Set by an organiser"
        LAPSE = "lapse", "Stood unconfirmed"
        CORRECTION = "correction", "Corrected"
        ANNULMENT = "annulment", "Annulled"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="changes")
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.CASCADE, related_name="changes")
    kind = models.CharField(max_length=14, choices=Kind.choices)
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    made_at = models.DateTimeField(auto_now_add=True)
    reason = models.TextField(blank=True)
    before = models.JSONField(default=dict)
    after = models.JSONField(default=dict)
    # What the change came from: {"log": id}, {"correction": id} (ids of other apps' rows,
    # kept as plain values: matches sits below them and never imports them).
    source = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["made_at", "id"]
        indexes = [models.Index(fields=["match", "id"])]

    def __str__(self) -> str:
        return f"{self.kind} of match {self.match_id}"


class NotificationPreference(models.Model):
    """Which emails a person gets; no row means every kind is on (the default).

    One flag per kind, named as `matches.services.notifications.Kind` names them.
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    claim_waiting = models.BooleanField(default=True, help_text="A result waits for my confirmation")
    match_called = models.BooleanField(default=True, help_text="My match is called to a station")
    registration_approved = models.BooleanField(default=True, help_text="My registration is approved")
    dispute = models.BooleanField(default=True, help_text="A game in my tournament is disputed (organisers)")
    waiting_list = models.BooleanField(
        default=True, help_text="My place on a waiting list changes (joined, moved up, left out at the start)"
    )
    challenge_received = models.BooleanField(default=True, help_text="A player challenges me to a match")
    challenge_answered = models.BooleanField(default=True, help_text="A player accepts or declines my challenge")
    table_waiting = models.BooleanField(default=True, help_text="A player is waiting for me at our match's table")

    def __str__(self) -> str:
        return f"Notifications of user {self.user_id}"


class TimeZonePreference(models.Model):
    """The time zone a person reads and enters times in, an IANA name (`matches.time_zones`).

    Its own row, not a column of `Player` (an organiser or an admin may have no player, and
    they are the ones who enter times) nor of `NotificationPreference` (which says which
    emails, and whose missing row means "all of them"). No row: the browser's zone, else UTC.
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="time_zone")
    name = models.CharField(max_length=64)

    def __str__(self) -> str:
        return f"Time zone of user {self.user_id}: {self.name}"


class OutboxEmail(models.Model):
    """One email to send, written in the transaction of the change it tells of (`matches.services.outbox`).

    A change rolled back leaves no row; a committed one leaves a row that stays
    pending (`sent_at` and `skipped` empty) until a worker's backend accepted
    the message, so a broker down at the commit loses nothing: the beat's
    sweep sends what is still pending. A notification names its `user`; whether
    they still have an address and want this `kind` is read when it is sent. A
    password reset names only the `address` asked for: the user, the token and
    the link are made when it is sent, and never stored (the body stays empty).
    """

    kind = models.CharField(max_length=24)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    address = models.EmailField(max_length=254, blank=True)
    subject = models.CharField(max_length=400, blank=True)
    body = models.TextField(blank=True)
    created_at = models.DateTimeField()
    sent_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True)
    # Why it was not sent, and never will be: "turned off", "no address", "unknown address", "gave up".
    skipped = models.CharField(max_length=40, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [
            # The sweep's look for rows still pending: small, as pending rows are few.
            models.Index(
                fields=["created_at"],
                name="outbox_pending_by_age",
                condition=models.Q(sent_at__isnull=True, skipped=""),
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(user__isnull=False) | ~models.Q(address=""), name="outbox_to_someone"
            ),
        ]

    def __str__(self) -> str:
        state = "sent" if self.sent_at else (f"skipped: {self.skipped}" if self.skipped else "pending")
        return f"{self.kind} email {self.pk} ({state})"


class Challenge(models.Model):
    """One player asks another to a casual two-player match; only an accepted challenge makes the match.

    The match's settings are stored as a match stores them (the ruleset spelled
    out, the series, an optional time limit), checked when the challenge is made
    by the same code that checks a match. An open challenge past `expires_at` is
    expired whatever its `status` says (the beat's sweep writes it down).
    """

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"
        WITHDRAWN = "withdrawn", "Withdrawn"
        EXPIRED = "expired", "Expired"

    challenger = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    challenged = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    ruleset = models.JSONField()
    ruleset_name = models.CharField(max_length=40, blank=True)
    series = models.CharField(max_length=10, choices=Match.Series.choices)
    series_length = models.PositiveSmallIntegerField()
    time_limit_ms = models.PositiveIntegerField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    answered_at = models.DateTimeField(null=True, blank=True)
    match = models.OneToOneField(Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="challenge")

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(challenger=models.F("challenged")), name="challenge_two_distinct_players"
            ),
            # One open challenge per challenger and challenged (`challenge_create` expires stale ones first).
            models.UniqueConstraint(
                fields=["challenger", "challenged"],
                condition=models.Q(status="open"),
                name="challenge_one_open_per_pair",
            ),
            models.CheckConstraint(
                condition=models.Q(match__isnull=True) | models.Q(status="accepted"), name="challenge_match_if_accepted"
            ),
        ]
        indexes = [models.Index(fields=["status", "expires_at"])]

    def __str__(self) -> str:
        return f"Challenge {self.pk}: {self.challenger_id} to {self.challenged_id} ({self.status})"
