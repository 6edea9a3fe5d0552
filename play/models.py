"""A table the server referees, the events it recorded, and the refs each seat has used.

The table row is the one serialisation point of a game across server
processes: every change takes its `select_for_update` lock, re-reads the
state and bumps `v`. Events are rows of their own, appended in order and
stored before any state that shows them is sent. Presence (which connection
holds a seat, when it was last heard) and the bot lease live in rows of their
own, so a heartbeat never waits for, or holds up, a play.
"""

from __future__ import annotations

from django.db import models

from .timers import LIVE_STATUSES


class Table(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting for the players"
        COUNTDOWN = "countdown", "Counting down"
        PLAYING = "playing", "Playing"
        STUCK = "stuck", "Stuck"
        OVER = "over", "Over"
        ABANDONED = "abandoned", "Abandoned"
        ABORTED = "aborted", "Aborted"

    LIVE = LIVE_STATUSES

    # None for a practice table (no match, no rating).
    game = models.ForeignKey("matches.Game", null=True, blank=True, on_delete=models.PROTECT, related_name="tables")
    ruleset = models.JSONField()
    ruleset_name = models.CharField(max_length=40, blank=True)
    # Per seat: the handle shown, the user who may take the seat (None for a bot) and the bot's level (None for a person).
    players = models.JSONField()
    seat_users = models.JSONField()
    bots = models.JSONField()
    # The shuffled pack (first card dealt first), its salt and the hex SHA-256 of `salt:deck`.
    deck = models.JSONField()
    salt = models.CharField(max_length=32)
    deck_sha256 = models.CharField(max_length=64)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    # collision_ms, stall_ms, abandon_ms, claim_ms (speed-table/1 section 3, amendment L), countdown_ms,
    # and a tournament's no_show_ms (amendment L5; None or absent: a no-show counts for nothing).
    settings = models.JSONField()
    # Counts the changes: a state with a higher `v` shows everything a lower one did.
    v = models.PositiveIntegerField(default=0)
    # How many events are stored: a reader that reads the row, then the events, reads exactly these.
    event_count = models.PositiveIntegerField(default=0)
    ready = models.JSONField()
    # Per seat: since when (epoch ms) the seat is away as the game judges it (None: present, or a bot): a
    # seat never taken is away since the table opened; one whose connection closed, since then; one whose
    # connection fell silent, since the service noticed. Written under the row's lock, shown in every state.
    away = models.JSONField(default=list)
    # The seats that resigned (or were claimed against), in that order: they place last, in reverse order.
    out = models.JSONField(default=list)
    # How a game ended before its end (amendment L4): {"by": "resign" | "claim" | "abort" | "no_show", "seat",
    # "t", "at"}, and for a claim "against": the seats claimed against.
    ended = models.JSONField(null=True, blank=True)
    # Epoch ms of the table's next timer (countdown, stall, a seat falling silent, abandonment), or None:
    # stored so that something with no connection (a Celery task, the beat's sweep) fires it.
    due_at = models.BigIntegerField(null=True, blank=True, db_index=True)
    # Epoch milliseconds: when the countdown began, when the starters were turned (t = 0).
    countdown_at = models.BigIntegerField(null=True, blank=True)
    started_at = models.BigIntegerField(null=True, blank=True)
    # While stuck: the table's t when it became stuck, and the flips given (draw-pile rulesets).
    stuck_at = models.IntegerField(null=True, blank=True)
    flips = models.JSONField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)
    # The log the table stored when its game was over: its game's log, or a practice log (provenance "practice").
    log = models.ForeignKey("replays.MatchLog", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    # A Speed Solitaire table's run, stored from the same log when it was cleared or stuck (not resigned).
    solitaire_run = models.ForeignKey(
        "replays.SolitaireRun", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # What the players' states show of the "play again" offer (`TableAgain`), written with it under this row's
    # lock: a state is built from this row alone, with no read of the offer's.
    again = models.JSONField(null=True, blank=True)
    created_by = models.ForeignKey("auth.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]
        constraints = [
            # One live table per game: a second request returns the open one.
            models.UniqueConstraint(
                fields=["game"],
                condition=models.Q(status__in=["waiting", "countdown", "playing", "stuck"]),
                name="play_one_live_table_per_game",
            ),
        ]

    def __str__(self) -> str:
        return f"Table {self.pk} ({self.status})"


class TableEvent(models.Model):
    """One speed-log/1 event of a table's game, as its log holds it."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="events")
    index = models.PositiveIntegerField()
    data = models.JSONField()

    class Meta:
        ordering = ["table_id", "index"]
        constraints = [models.UniqueConstraint(fields=["table", "index"], name="play_event_index_unique")]

    def __str__(self) -> str:
        return f"Table {self.table_id}, event {self.index}"


class TableRef(models.Model):
    """A `ref` a seat used: never applied again, whatever became of the first."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="refs")
    seat = models.PositiveSmallIntegerField()
    ref = models.CharField(max_length=64)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "seat", "ref"], name="play_ref_unique_per_seat")]

    def __str__(self) -> str:
        return f"Table {self.table_id}, seat {self.seat}: {self.ref}"


class TableSeat(models.Model):
    """A seat's presence: the connection holding it and when it was last heard (amendment L2).

    Written by connections and heartbeats without the table row's lock; the
    referee reads it when it judges abandonment and claims. A seat is present
    while `channel` is set and `seen` is recent (three heartbeats). `away_since`
    is set when its connection closed, or when the referee noticed it silent
    (the moment it noticed, as `Table.away` says): the next heartbeat finds it
    and shows the seat present again.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    channel = models.CharField(max_length=200, blank=True)
    seen = models.BigIntegerField(null=True, blank=True)
    away_since = models.BigIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["table_id", "seat"]
        constraints = [models.UniqueConstraint(fields=["table", "seat"], name="play_one_row_per_seat")]

    def __str__(self) -> str:
        return f"Table {self.table_id}, seat {self.seat}"


class TableBotLease(models.Model):
    """Which server process runs a table's bots, and until when (epoch ms): bots play once however many serve.

    Taken or renewed by one conditional UPDATE of this row, never under the table row's lock.
    """

    table = models.OneToOneField(Table, on_delete=models.CASCADE, primary_key=True, related_name="bot_lease")
    owner = models.CharField(max_length=64, blank=True)
    until = models.BigIntegerField(default=0)

    def __str__(self) -> str:
        return f"Table {self.table_id}: bots run by {self.owner or 'nobody'}"


class Seek(models.Model):
    """A player's open game in the lobby: the first other player to accept it sits at a table with them.

    Listed while its seeker's lobby page keeps `last_seen` fresh; one left
    unrefreshed (the seeker left) is expired by the beat's sweep. Accepting
    locks the row, so two accepts at once make one match and one table.
    """

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        TAKEN = "taken", "Taken"
        CANCELLED = "cancelled", "Cancelled"
        EXPIRED = "expired", "Expired"

    seeker = models.ForeignKey("matches.Player", on_delete=models.CASCADE, related_name="seeks")
    # A preset of two seats, as a practice table names one.
    ruleset_name = models.CharField(max_length=40)
    # A rated game's result moves ratings; a casual one's does not (its match is not rated).
    rated = models.BooleanField(default=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    # When the seeker's lobby page last polled: a seek not seen for SPEED_SEEK_TTL_SECONDS is gone.
    last_seen = models.DateTimeField()
    # When it stopped being open, and what it made once taken.
    closed_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        "matches.Player", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    match = models.ForeignKey("matches.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["seeker"], condition=models.Q(status="open"), name="play_one_open_seek_per_player"
            ),
        ]
        indexes = [models.Index(fields=["status", "last_seen"], name="play_seek_open_seen")]

    def __str__(self) -> str:
        return f"Seek {self.pk} by {self.seeker_id} ({self.status})"


class SiteSeen(models.Model):
    """When a signed-in user last had a page of the site open: written by its live poll, at most every
    SPEED_SITE_SEEN_WRITE_SECONDS, so that a poll every few seconds costs one write in several.

    What decides whether a player waited for at a table is told on a page (they are seen: the banner
    reaches them) or by email (they are not).
    """

    user = models.OneToOneField("auth.User", primary_key=True, on_delete=models.CASCADE, related_name="+")
    seen_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"User {self.user_id} seen at {self.seen_at}"


class TableWaitNotice(models.Model):
    """Someone took a seat at a match's table: one row per other player of it, to tell them once.

    Written when the seat is taken (`play.services.waiting`), under the table's lock; the beat's
    `play.table_wait_notices_send` emails it after a grace if they still have not come and no page
    of theirs was seen meanwhile; their live poll marks it told on a page when it shows the banner.
    Unique per table and user: one email per table and opponent, however often seats are retaken.
    """

    class Told(models.TextChoices):
        PENDING = "", "Not yet"
        PAGE = "page", "On a page"
        EMAIL = "email", "By email"
        # They came first, the table ended, or they turned this email off: nothing more to tell.
        NONE = "none", "Not told"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey("auth.User", on_delete=models.CASCADE, related_name="+")
    # The user's own seat, and the handle of who took a seat first (what the email says).
    seat = models.PositiveSmallIntegerField()
    waiting_handle = models.CharField(max_length=64)
    due_at = models.DateTimeField()
    told = models.CharField(max_length=5, choices=Told.choices, default=Told.PENDING, blank=True)
    told_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "user"], name="play_one_wait_notice_per_user")]
        indexes = [
            models.Index(fields=["due_at"], condition=models.Q(told=""), name="play_wait_notice_pending"),
            models.Index(fields=["user", "-table"], name="play_wait_notice_user"),
        ]

    def __str__(self) -> str:
        return f"Table {self.table_id}: tell user {self.user_id} ({self.told or 'pending'})"


class TableAgain(models.Model):
    """The offer to play again made to a match table's players when its game is over (one per table).

    Made by the end of the game itself; every answer takes the table row's lock, then this row's. Once every
    seat has accepted, the next game of the match (or, the match over, a casual rematch) gets its table,
    `next_table`. A decline closes it for all; the beat's sweep expires it at `expires_at`.
    """

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        STARTED = "started", "Started"
        DECLINED = "declined", "Declined"
        EXPIRED = "expired", "Expired"

    table = models.OneToOneField(Table, on_delete=models.CASCADE, primary_key=True, related_name="again_offer")
    # The seats that accepted, in the order they did.
    accepted = models.JSONField(default=list)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    expires_at = models.DateTimeField()
    declined_by = models.PositiveSmallIntegerField(null=True, blank=True)
    next_table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "expires_at"], name="play_again_open_expiry")]

    def __str__(self) -> str:
        return f"Play again at table {self.table_id} ({self.status})"


class TableWatcher(models.Model):
    """A spectator's connection to a table, so that a table's page can say how many watch it.

    Inserted when the connection opens, its `last_seen` (epoch ms) refreshed at
    the heartbeats' cadence, deleted when it closes; a process that died leaves
    its rows to fall stale (not counted) and to the beat's `play.watchers_prune`.
    No database foreign key: inserting a row that references the table would take
    a KEY SHARE lock on the table's row, which waits behind every play's FOR UPDATE,
    and spectators take no lock on a table.
    """

    table = models.ForeignKey(
        Table, on_delete=models.DO_NOTHING, db_constraint=False, related_name="watchers", db_index=False
    )
    # The connection's channel name: one row per connection.
    key = models.CharField(max_length=200, unique=True)
    # A signed-in spectator, for the per-user cap (None: anonymous, capped per address at the edge).
    user_id = models.IntegerField(null=True, blank=True)
    last_seen = models.BigIntegerField()

    class Meta:
        indexes = [
            models.Index(fields=["table", "last_seen"], name="play_watcher_table_seen"),
            models.Index(fields=["last_seen"], name="play_watcher_seen"),
        ]

    def __str__(self) -> str:
        return f"Table {self.table_id}: watched by {self.key}"
