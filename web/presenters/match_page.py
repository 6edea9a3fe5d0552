"""A match's page shaped for its template: each game's row, the scoreboard's sides (pure, no queries)."""

from __future__ import annotations

from dataclasses import dataclass

from django import forms

from matches.models import Game, Match
from replays.models import MatchLog
from web.presenters.results import forfeit_words
from web.presenters.seats import PlaceLine, names_in_words, place_lines


@dataclass(frozen=True, slots=True)
class GameRow:
    """One game of a match page with its logs: how its result came about, and what the viewer may do with it."""

    game: Game
    logs: list[MatchLog]
    may_confirm: bool = False
    may_dispute: bool = False
    handles: tuple[str, ...] = ()
    player_ids: tuple[int, ...] = ()
    report_form: forms.Form | None = None  # the viewer's report of this game, when they may report it
    teams: tuple[tuple[str, ...], ...] = ()  # Team Speed: a game is won by a team
    live_table: int | None = None  # the id of the service's table this open game is being played at, if any

    def _named(self, player_id: int | None) -> str:
        handle = next((h for h, pk in zip(self.handles, self.player_ids, strict=True) if pk == player_id), "")
        team = next((team for team in self.teams if handle in team), None)
        return names_in_words(team) if team else handle

    @property
    def winner_words(self) -> str:
        """Who won: a player, or a team of Team Speed ("ann and cy")."""
        return self._named(self.game.winner_id)

    @property
    def forfeit_words(self) -> str:
        """A game won by forfeit at its table: who resigned, was claimed against or never came, and when."""
        return forfeit_words(self.game)

    @property
    def claimed_words(self) -> str:
        return self._named(self.game.claimed_winner_id)

    @property
    def verified_log(self) -> MatchLog | None:
        return next((log for log in self.logs if log.status == MatchLog.Status.VERIFIED), None)

    @property
    def rejected_logs(self) -> list[MatchLog]:
        return [log for log in self.logs if log.status in (MatchLog.Status.REJECTED, MatchLog.Status.FAILED)]

    @property
    def pending_logs(self) -> list[MatchLog]:
        return [log for log in self.logs if log.status == MatchLog.Status.PENDING]

    @property
    def places(self) -> list[PlaceLine]:
        """The decided places, best first, with each player's timed score in a timed match (a team just wins)."""
        return [] if self.teams else place_lines(self.game.places, self.handles, self.game.timed_scores)

    @property
    def claimed_places(self) -> list[PlaceLine]:
        if self.teams:
            return []
        return place_lines(self.game.claimed_places, self.handles, self.game.claimed_timed_scores)

    @property
    def confirmations(self) -> list[tuple[str, bool]]:
        """At a table, every player but the claimant with whether they have confirmed the claim yet."""
        reports = self.game.reports or {}
        return [
            (handle, str(pk) in reports)
            for handle, pk in zip(self.handles, self.player_ids, strict=True)
            if pk != self.game.claimed_by_id
        ]


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a two-sided scoreboard: a player, or a Team Speed team (its players in seat order)."""

    players: tuple[tuple[str, str], ...]  # (handle, display name)
    score: int
    winner: bool


def match_sides(match: Match, score: dict[str, int]) -> list[Side]:
    """The scoreboard's two sides with their games won (`score`, by handle): two players, or Team Speed's two teams."""
    players = match.players
    if match.is_team:
        teams = [tuple(players[seat] for seat in team) for team in match.teams]
    else:
        teams = [(player,) for player in players]
    return [
        Side(
            tuple((p.handle, p.display_name) for p in team),
            score[team[0].handle],
            match.winner_id is not None and match.winner_id in [p.pk for p in team],
        )
        for team in teams
    ]


def team_handles(match: Match) -> list[tuple[str, ...]] | None:
    """Team Speed's teams by handle (None when everyone plays alone): a result names a team."""
    players = match.players
    return [tuple(players[seat].handle for seat in team) for team in match.teams] if match.is_team else None


def match_series(match: Match, score: dict[str, int]) -> tuple[int, ...]:
    """Each seat's games won (two players) or points (a table), in seat order, from `score` (by handle)."""
    return tuple(score[player.handle] for player in match.players)
