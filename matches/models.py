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
    """A two-player series: best of N or first to N games, under one ruleset."""

    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", "In progress"
        FINISHED = "finished", "Finished"

    class Series(models.TextChoices):
        BEST_OF = "best_of", "Best of N"
        FIRST_TO = "first_to", "First to N"

    player_one = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    player_two = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    # The full ruleset as in speed-log/1 (every field spelled out) and, when it is
    # one of the engine's presets, that preset's name.
    ruleset = models.JSONField()
    ruleset_name = models.CharField(max_length=40, blank=True)
    series = models.CharField(max_length=10, choices=Series.choices)
    series_length = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.IN_PROGRESS)
    winner = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
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
    def players(self) -> tuple[Player, Player]:
        return (self.player_one, self.player_two)


class Game(models.Model):
    """One game of a match. The next one opens when this one is decided and the match is not."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        DECIDED = "decided", "Decided"
        VOID = "void", "Void (deadlock)"
        DISPUTED = "disputed", "Disputed"

    class DecidedBy(models.TextChoices):
        LOG = "log", "Verified log"
        PLAYERS = "players", "Reported by both players"
        ORGANISER = "organiser", "Set by an organiser"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    winner = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    decided_by = models.CharField(max_length=10, choices=DecidedBy.choices, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    # What each player reported (for a result "reported by both players"); a
    # report is a winner, so both must name the same player.
    reported_by_one = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    reported_by_two = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["match_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="game_number_unique_in_match"),
        ]
        indexes = [models.Index(fields=["status"])]

    def __str__(self) -> str:
        return f"Match {self.match_id}, game {self.number}"

    @property
    def is_settled(self) -> bool:
        return self.status in (self.Status.DECIDED, self.Status.VOID)
