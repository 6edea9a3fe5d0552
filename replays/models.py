"""Submitted game logs, their verdicts, and the cached replay steps.

The rules engine lives in `speedrules` and knows nothing of these models;
`replays.services` joins the two.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class StoredLog(models.Model):
    """What every stored log document has: the bytes exactly as received, who sent them, and a verdict."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        VERIFIED = "verified", "Verified"
        REJECTED = "rejected", "Rejected"
        # The engine itself failed on this log (a bug, not a bad log): an
        # operator looks, fixes, and runs `manage.py reverify --code failed`.
        FAILED = "failed", "Failed"

    data = models.BinaryField()  # the request body exactly as received
    size = models.PositiveIntegerField()
    sha256 = models.CharField(max_length=64)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    submitted_at = models.DateTimeField(auto_now_add=True)

    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    code = models.CharField(max_length=32, blank=True)
    event = models.IntegerField(null=True, blank=True)
    message = models.TextField(blank=True)
    engine_version = models.CharField(max_length=32, blank=True)
    verified_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True
        ordering = ["-submitted_at", "-id"]


class MatchLog(StoredLog):
    """One speed-log/1 document submitted for one game, stored verbatim, and its verdict."""

    class Provenance(models.TextChoices):
        SUBMITTED = "submitted", "Submitted by a player or an organiser"
        # Recorded by one of the service's own tables (speed-table/1), which saw every card.
        TABLE = "table", "Recorded at the table"
        # Recorded at the table, whose game ended early (a resign or a claim, speed-table/1 amendment L4):
        # the evidence of the cards played; the forfeit, not this log, decided the game.
        FORFEIT = "forfeit", "Recorded at the table, ended early"
        # Recorded at a practice table (a player against the site's bots): no match game, no rating.
        PRACTICE = "practice", "Recorded at a practice table"

    # None only for a practice log (a check constraint keeps the two together).
    game = models.ForeignKey("matches.Game", null=True, blank=True, on_delete=models.PROTECT, related_name="logs")
    provenance = models.CharField(max_length=10, choices=Provenance.choices, default=Provenance.SUBMITTED)
    winner_seat = models.SmallIntegerField(null=True, blank=True)
    # The seat's player in this match, mapped through the log's `players` handles.
    winner = models.ForeignKey("matches.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    # Each seat's cards still held (hand and draw pile) at the end of a valid log, from
    # the engine's verdict: the card-margin tie-break reads it, never the engine.
    cards_left = models.JSONField(null=True, blank=True)
    # In a match whose games end in places (a table of 3-4 seats, a timed match), what a
    # valid log says per seat of the match (its seat order, not the log's): each seat's
    # place and, in a timed match, the cards it played by the limit. None otherwise.
    places = models.JSONField(null=True, blank=True)
    timed_scores = models.JSONField(null=True, blank=True)
    # How many times a worker judged it: 1 after a normal verification, more after `reverify`.
    judgements = models.PositiveIntegerField(default=0)

    class Meta(StoredLog.Meta):
        constraints = [
            # The same document from the same submitter for the same game is the same submission;
            # from another submitter it is their word too (a recorder gives both players one file).
            models.UniqueConstraint(
                fields=["game", "sha256", "submitted_by"], name="matchlog_unique_document_per_game_and_submitter"
            ),
            # A practice log has no game, and every other log has one: ratings and standings never see practice.
            models.CheckConstraint(
                condition=models.Q(game__isnull=True, provenance="practice")
                | (models.Q(game__isnull=False) & ~models.Q(provenance="practice")),
                name="matchlog_game_unless_practice",
            ),
        ]
        indexes = [
            models.Index(fields=["status"]),
            models.Index(fields=["code"]),
            models.Index(fields=["verified_at"]),
        ]

    def __str__(self) -> str:
        return f"Log {self.pk} ({self.status})"


class LogVerdict(models.Model):
    """Audit trail: one row per re-judgement of a log (`reverify`), by which engine version.

    A log's first verdict is on the log itself; each later one also leaves a row here.
    """

    log = models.ForeignKey(MatchLog, on_delete=models.CASCADE, related_name="verdicts")
    engine_version = models.CharField(max_length=32)
    status = models.CharField(max_length=10, choices=MatchLog.Status.choices)
    code = models.CharField(max_length=32)
    event = models.IntegerField(null=True, blank=True)
    winner_seat = models.SmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"Log {self.log_id}: {self.code} by engine {self.engine_version}"


class ReplaySteps(models.Model):
    """The per-step table state of a log, computed once per engine version on first view.

    Kept in the compact form of `replays.compact` (`speed-steps/1`): `steps`
    holds one integer row per step, `legend` the card names, the texts and the
    table's layout. A row kept in an older form (no legend) is recomputed.
    """

    log = models.OneToOneField(MatchLog, on_delete=models.CASCADE, related_name="replay_steps")
    engine_version = models.CharField(max_length=32)
    steps = models.JSONField()
    legend = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "replay steps"

    def __str__(self) -> str:
        return f"Steps of log {self.log_id} (engine {self.engine_version})"


class SolitaireRun(StoredLog):
    """A Speed Solitaire log: one player against the deck, outside any match (extension, section 2).

    Stored verbatim like a match log and verified the same way; a verified run
    counts on the leaderboard: cleared runs by the time of the Speed call, then
    stuck runs by the cards left.
    """

    player = models.ForeignKey("matches.Player", on_delete=models.PROTECT, related_name="+")
    # A verified run: cleared (the player called Speed at `finished_ms`) or stuck with `cards_left`.
    cleared = models.BooleanField(null=True, blank=True)
    finished_ms = models.PositiveIntegerField(null=True, blank=True)
    cards_left = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta(StoredLog.Meta):
        constraints = [
            models.UniqueConstraint(fields=["player", "sha256"], name="solitaire_unique_document_per_player"),
        ]
        indexes = [models.Index(fields=["status", "cleared", "finished_ms", "cards_left"])]

    def __str__(self) -> str:
        return f"Solitaire run {self.pk} of {self.player_id}"

    @property
    def code_or_none(self) -> str | None:
        return self.code or None
