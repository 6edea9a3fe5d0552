"""Reads of players, matches and games, shaped so a page costs a fixed number of queries."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import F, Prefetch, Q, QuerySet

from .models import Challenge, Game, Match, NotificationPreference, Player, ResultChange, TimeZonePreference
from .placings import competition_places
from .series import table_scores

ORGANISERS_GROUP = "organisers"

AnyUser = User | AnonymousUser | None
"""Whoever makes a request: a user, the anonymous user, or nobody (a task or a command)."""


def signed_in(user: AnyUser) -> User | None:
    """The user a row records as its author: a signed-in user, else nobody."""
    return user if isinstance(user, User) and user.is_authenticated else None


def user_is_organiser(*, user: AnyUser) -> bool:
    """Organisers are superusers and members of the "organisers" group."""
    if user is None or not user.is_authenticated:
        return False
    if getattr(user, "is_superuser", False):
        return True
    cached = getattr(user, "_speed_is_organiser", None)
    if cached is None:  # once per request: the user object lives as long as the request
        cached = user.groups.filter(name=ORGANISERS_GROUP).exists()
        setattr(user, "_speed_is_organiser", cached)  # noqa: B010 - not a field of the model
    return bool(cached)


def user_player(*, user: AnyUser) -> Player | None:
    """The player the user plays as, if any."""
    if user is None or not user.is_authenticated:
        return None
    return Player.objects.filter(user_id=user.pk).first()


def users_with_kind_off(*, kind: str, user_ids: Iterable[int]) -> set[int]:
    """Of these users, those who turned this kind of email off (one query; no row: every kind on)."""
    return set(
        NotificationPreference.objects.filter(user_id__in=list(user_ids), **{kind: False}).values_list(
            "user_id", flat=True
        )
    )


def user_time_zone_name(*, user: AnyUser) -> str | None:
    """The zone the signed-in user chose (an IANA name), or None: no choice yet, or nobody signed in."""
    if user is None or not user.is_authenticated:
        return None
    return TimeZonePreference.objects.filter(user_id=user.pk).values_list("name", flat=True).first()


def player_list(*, search: str | None = None) -> QuerySet[Player]:
    players = Player.objects.all()
    if search:
        players = players.filter(Q(handle__icontains=search) | Q(display_name__icontains=search))
    return players.order_by("handle")


def player_reading_as(*, skeleton: str) -> Player | None:
    """A player whose handle or display name reads as this skeleton (matches.names), or None: one indexed query."""
    if not skeleton:
        return None
    return Player.objects.filter(Q(handle_key=skeleton) | Q(name_key=skeleton)).order_by("pk").first()


def player_get(*, handle: str) -> Player | None:
    return Player.objects.filter(handle__iexact=handle).first()


def players_by_handles(*, handles: Iterable[str]) -> dict[str, Player]:
    """Players keyed by lower-cased handle (handles are unique case-insensitively)."""
    wanted = {handle.lower() for handle in handles}
    query = Q()
    for handle in wanted:
        query |= Q(handle__iexact=handle)
    if not wanted:
        return {}
    return {player.handle.lower(): player for player in Player.objects.filter(query)}


#: Every seat's player, for select_related.
MATCH_PLAYERS = ("player_one", "player_two", "player_three", "player_four")


def _games_prefetch() -> Prefetch[str, QuerySet[Game], str]:
    return Prefetch(
        "games", queryset=Game.objects.select_related("winner", "claimed_winner", "claimed_by").order_by("number")
    )


def match_list(
    *, status: str | None = None, player: str | None = None, tournament_id: int | None = None
) -> QuerySet[Match]:
    """Matches with their players, winner and games: one query for the page, one for the games.

    Each is annotated with `tournament_id`: the tournament whose pairing it is, or None (a friendly
    match, or one a correction annulled: its pairing let it go). Read by name, not through the
    tournaments app, which sits above this one.
    """
    matches = (
        Match.objects.select_related(*MATCH_PLAYERS, "winner")
        .prefetch_related(_games_prefetch())
        .annotate(tournament_id=F("tournament_match__tournament_id"))
    )
    if tournament_id is not None:
        matches = matches.filter(tournament_match__tournament_id=tournament_id)
    if status:
        matches = matches.filter(status=status)
    if player:
        matches = matches.filter(
            Q(player_one__handle__iexact=player)
            | Q(player_two__handle__iexact=player)
            | Q(player_three__handle__iexact=player)
            | Q(player_four__handle__iexact=player)
        )
    return matches.order_by("-created_at", "-id")


def match_get(*, match_id: int) -> Match | None:
    return match_list().filter(pk=match_id).first()


def game_get(*, game_id: int) -> Game | None:
    return (
        Game.objects.select_related(*(f"match__{seat}" for seat in MATCH_PLAYERS), "winner", "claimed_winner")
        .filter(pk=game_id)
        .first()
    )


def match_history(*, match: Match) -> QuerySet[ResultChange]:
    """Every change of the match's and its games' results, oldest first (one query)."""
    return ResultChange.objects.filter(match=match).select_related("game", "made_by").order_by("made_at", "id")


def match_score(*, match: Match) -> dict[str, int]:
    """The series score keyed by handle: games won by each of two players, a table's points per place
    (uses prefetched games when present)."""
    if match.is_table:
        return {row.handle: row.points for row in match_table(match=match)}
    if match.is_team:  # each player scores their team's wins
        return {handle: team.wins for team in match_teams(match=match) for handle in team.players}
    score = {player.handle: 0 for player in match.players}
    handles = {player.pk: player.handle for player in match.players}
    for game in match.games.all():
        if game.status == Game.Status.DECIDED and game.winner_id is not None:
            score[handles[game.winner_id]] += 1
    return score


@dataclass(frozen=True)
class TeamRow:
    """One team of a Team Speed match: its players (seat order) and the games it won."""

    players: tuple[str, ...]
    wins: int


def match_teams(*, match: Match) -> list[TeamRow]:
    """A Team Speed match's teams in the ruleset's order, with their wins (a team wins in its first seat's name)."""
    players = match.players
    decided = [game.winner_id for game in match.games.all() if game.status == Game.Status.DECIDED]
    return [
        TeamRow(tuple(players[seat].handle for seat in team), decided.count(players[team[0]].pk))
        for team in match.teams
    ]


@dataclass(frozen=True)
class TableRow:
    """One player's line in a table's series: their place (shared when equal on every tie-break)."""

    place: int
    handle: str
    points: int
    firsts: int


def match_table(*, match: Match) -> list[TableRow]:
    """A table's series standings, best first: points, then first places, then the latest game's places."""
    assert match.points_per_place is not None
    rows = [(game.number, game.status, game.places) for game in match.games.all()]
    scores = table_scores(rows, seats=len(match.player_ids), points_per_place=match.points_per_place)
    places = competition_places([(-score.points, -score.firsts, *score.recent_places) for score in scores])
    players = match.players
    return sorted(
        (
            TableRow(place, players[score.seat].handle, score.points, score.firsts)
            for place, score in zip(places, scores, strict=True)
        ),
        key=lambda row: (row.place, row.handle.lower()),
    )


def match_timed_totals(*, match: Match) -> dict[str, int] | None:
    """A timed match's cards played within the limits, per handle, over its decided games (None: not timed)."""
    if match.time_limit_ms is None:
        return None
    totals = {player.handle: 0 for player in match.players}
    for game in match.games.all():
        if game.status == Game.Status.DECIDED and game.timed_scores:
            for player, score in zip(match.players, game.timed_scores, strict=True):
                totals[player.handle] += score
    return totals


def challenge_status(challenge: Challenge, *, now: datetime) -> str:
    """A challenge's status as it stands `now`: an open one past its time is expired, written down or not."""
    if challenge.status == Challenge.Status.OPEN and challenge.expires_at <= now:
        return Challenge.Status.EXPIRED
    return challenge.status


def challenges_of(*, player: Player) -> QuerySet[Challenge]:
    """The challenges the player made or received, newest first, with both players and the match (one query)."""
    return (
        Challenge.objects.filter(Q(challenger=player) | Q(challenged=player))
        .select_related("challenger", "challenged")
        .order_by("-created_at", "-id")
    )


def challenge_get(*, challenge_id: int, user: AnyUser) -> Challenge | None:
    """The challenge if the user is one of its two players or an organiser (to anyone else it does not exist)."""
    challenge = Challenge.objects.select_related("challenger", "challenged").filter(pk=challenge_id).first()
    if challenge is None or user_is_organiser(user=user):
        return challenge
    me = user_player(user=user)
    return challenge if me is not None and me.pk in (challenge.challenger_id, challenge.challenged_id) else None
