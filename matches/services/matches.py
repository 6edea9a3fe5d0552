"""Creating matches (rulesets and series resolved here for tournaments too) and finishing them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from core.errors import Invalid, NotAllowed
from core.site_cache import site_lists_changed
from speedrules import PRESETS, LogError, Ruleset, ruleset_from_json

from ..listeners import game_playable_notify, match_finished_notify
from ..models import Match, Player
from ..placings import DEFAULT_POINTS_PER_PLACE
from ..selectors import AnyUser, players_by_handles, user_is_organiser, user_player
from ..series import series_step, table_series_step
from .result_writer import games_open, match_outcome_write

MAX_SERIES_LENGTH = 99


def ruleset_resolve(
    ruleset: object, *, seats: int | tuple[int, ...] = 2, teams_allowed: bool = False
) -> tuple[Ruleset, str]:
    """A ruleset from a preset name or a speed-log/1 ruleset object, and the preset's name if any.

    Its `players` must be `seats` (or one of them); a Team Speed ruleset only
    where `teams_allowed` (a match; tournaments pair players, not teams).
    Matches and tournaments both take their rulesets through here."""
    if ruleset is None:
        ruleset = "speed"
    if isinstance(ruleset, str):
        preset = PRESETS.get(ruleset)
        if preset is None:
            raise Invalid(
                f"Unknown ruleset preset {ruleset!r}; use one of {', '.join(PRESETS)} "
                "or a ruleset object as in speed-log/1.",
                extra={"field": "ruleset"},
            )
        resolved = preset
    else:
        try:
            resolved = ruleset_from_json(ruleset)
        except LogError as exc:
            raise Invalid(f"The ruleset is not valid: {exc.message}", extra={"field": "ruleset"}) from exc
    name = next((key for key, preset in PRESETS.items() if preset == resolved), "")
    allowed = (seats,) if isinstance(seats, int) else seats
    if resolved.players not in allowed:
        wanted = " or ".join(map(str, allowed))
        raise Invalid(
            f"This ruleset ({name or 'custom'}) seats {resolved.players} players, but {wanted} play here: "
            f"give as many players as the ruleset seats, or a ruleset whose players is {wanted}.",
            extra={"field": "ruleset"},
        )
    if resolved.teams and not teams_allowed:
        raise Invalid(
            "Team Speed is played in matches between two teams, not here: a tournament pairs players.",
            extra={"field": "ruleset"},
        )
    return resolved, name


#: The most points a place can earn (a sanity bound: points per place are small numbers).
MAX_POINTS_PER_PLACE = 100


def points_resolve(points_per_place: object, *, seats: int, teams: bool = False) -> list[int] | None:
    """A table's points per place (best first; the defaults when None); None for two seats or two teams,
    which count games won."""
    if seats == 2 or teams:
        if points_per_place is not None:
            raise Invalid(
                "points_per_place is for tables of three or four; a series of two players or two teams "
                "counts games won.",
                extra={"field": "points_per_place"},
            )
        return None
    if points_per_place is None:
        return list(DEFAULT_POINTS_PER_PLACE[seats])
    points = list(points_per_place) if isinstance(points_per_place, list | tuple) else None
    if (
        points is None
        or len(points) != seats
        or any(not isinstance(p, int) or isinstance(p, bool) or not 0 <= p <= MAX_POINTS_PER_PLACE for p in points)
        or points != sorted(points, reverse=True)
        or points[0] == 0
    ):
        raise Invalid(
            f"points_per_place is one whole number per place, best first, from {MAX_POINTS_PER_PLACE} down to 0, "
            f"never rising, first place scoring (e.g. {list(DEFAULT_POINTS_PER_PLACE[seats])}).",
            extra={"field": "points_per_place"},
        )
    return points


#: A timed round's limit, within reason: a second to an hour.
TIME_LIMIT_RANGE_MS = (1_000, 3_600_000)


def time_limit_resolve(time_limit_ms: int | None, ruleset: Ruleset) -> int | None:
    """A timed match's limit, checked: a timed score counts cards played, which Spit's piles do not keep."""
    if time_limit_ms is None:
        return None
    low, high = TIME_LIMIT_RANGE_MS
    if not low <= time_limit_ms <= high:
        raise Invalid(
            f"time_limit_ms must be from {low} to {high} ({time_limit_ms} given).", extra={"field": "time_limit_ms"}
        )
    if ruleset.teams:
        raise Invalid("Timed rounds are for players on their own, not Team Speed.", extra={"field": "time_limit_ms"})
    if ruleset.tableau:
        raise Invalid(
            "Timed rounds are for Speed rulesets: in Spit a player takes piles back, so cards played is no score.",
            extra={"field": "time_limit_ms"},
        )
    return time_limit_ms


def series_resolve(*, best_of: int | None, first_to: int | None, seats: int = 2) -> tuple[str, int]:
    """The series kind and length from exactly one of best_of and first_to, for matches and tournaments.

    Two players play an odd best_of (someone has the majority); a table's
    best_of is any number of games (ties on points go by the stated tie-breaks),
    and its first_to counts points."""
    if (best_of is None) == (first_to is None):
        raise Invalid("Give exactly one of best_of (e.g. 3) or first_to (e.g. 2).")
    length = best_of if best_of is not None else first_to
    assert length is not None
    field = {"field": "best_of" if best_of is not None else "first_to"}  # a form shows it by the length
    if not 1 <= length <= MAX_SERIES_LENGTH:
        raise Invalid(f"The series length must be from 1 to {MAX_SERIES_LENGTH}, not {length}.", extra=field)
    if best_of is not None:
        if best_of % 2 == 0 and seats == 2:
            raise Invalid(
                f"best_of must be odd so that a match always has a winner ({best_of - 1} or {best_of + 1}); "
                "use first_to for other lengths.",
                extra=field,
            )
        return Match.Series.BEST_OF, best_of
    return Match.Series.FIRST_TO, length


@dataclass(frozen=True)
class MatchSettings:
    """A match's settings as its row stores them, checked: what a match and a challenge to one both take."""

    ruleset: Ruleset
    ruleset_name: str
    series: str
    series_length: int
    points_per_place: list[int] | None
    time_limit_ms: int | None


def match_settings_resolve(
    *,
    seats: int,
    ruleset: object = "speed",
    best_of: int | None = None,
    first_to: int | None = None,
    points_per_place: object = None,
    time_limit_ms: int | None = None,
) -> MatchSettings:
    """The ruleset (seating `seats` players), the series, the points and the time limit, each checked."""
    resolved, name = ruleset_resolve(ruleset, seats=seats, teams_allowed=True)
    sides = len(resolved.teams) or seats
    series, length = series_resolve(best_of=best_of, first_to=first_to, seats=sides)
    return MatchSettings(
        ruleset=resolved,
        ruleset_name=name,
        series=series,
        series_length=length,
        points_per_place=points_resolve(points_per_place, seats=seats, teams=bool(resolved.teams)),
        time_limit_ms=time_limit_resolve(time_limit_ms, resolved),
    )


def creator_check(*, created_by: AnyUser, seated: Sequence[Player], agreed: bool = False) -> None:
    """Organisers (and the site itself: no user) create matches; a player only one agreed to, that they play in."""
    if created_by is None or user_is_organiser(user=created_by):
        return
    if not agreed:
        raise NotAllowed(
            "Players do not create matches: challenge the other player (POST /api/challenges/, or "
            "“Challenge” on their page), and the match is made when they accept. Organisers create matches.",
            extra={"field": "players"},
        )
    me = user_player(user=created_by)
    if me is None or all(me.pk != player.pk for player in seated):
        raise NotAllowed("An agreed match is one its players play in.", extra={"field": "players"})


@transaction.atomic
def match_create(
    *,
    players: Sequence[str],
    ruleset: object = "speed",
    best_of: int | None = None,
    first_to: int | None = None,
    created_by: AnyUser = None,
    confirmation: str = Match.Confirmation.OPPONENT,
    confirm_within: int | None = None,
    points_per_place: object = None,
    time_limit_ms: int | None = None,
    agreed: bool = False,
    rated: bool = True,
) -> Match:
    """A match between two to four players (in seat order), with its first game open.

    The ruleset's `players` must equal the number of players. Organisers
    create any match; a player's match comes from both players' yes: a challenge
    the other accepted or a lobby seek the other took (`agreed`, passed by
    `challenge_accept` and `seek_accept` only), so nobody is reported against
    without their word. A match made on its own always needs the other players'
    word and never lapses: one player alone can never finish it. A tournament
    passes its own `confirmation` and `confirm_within` (seconds before an
    unconfirmed result stands). A table of three or four scores its series by
    `points_per_place`; `time_limit_ms` makes every game a timed round. A match
    not `rated` (a casual game) moves nobody's rating.
    """
    if not 2 <= len(players) <= 4 or len({handle.lower() for handle in players}) != len(players):
        raise Invalid("A match needs two to four different player handles.", extra={"field": "players"})
    found = players_by_handles(handles=players)
    missing = [handle for handle in players if handle.lower() not in found]
    if missing:
        raise Invalid(
            f"No player with handle {', '.join(repr(h) for h in missing)}; an organiser creates players first.",
            extra={"field": "players"},
        )
    seated = [found[handle.lower()] for handle in players]
    creator_check(created_by=created_by, seated=seated, agreed=agreed)
    settings = match_settings_resolve(
        seats=len(seated),
        ruleset=ruleset,
        best_of=best_of,
        first_to=first_to,
        points_per_place=points_per_place,
        time_limit_ms=time_limit_ms,
    )
    empty: list[Player | None] = [None] * (4 - len(seated))
    seats = [*seated, *empty]
    match = Match.objects.create(
        player_one=seated[0],
        player_two=seated[1],
        player_three=seats[2],
        player_four=seats[3],
        points_per_place=settings.points_per_place,
        time_limit_ms=settings.time_limit_ms,
        ruleset=settings.ruleset.to_json(),
        ruleset_name=settings.ruleset_name,
        series=settings.series,
        series_length=settings.series_length,
        confirmation=confirmation,
        confirm_within=confirm_within,
        rated=rated,
        created_by=created_by if created_by is not None and created_by.is_authenticated else None,
    )
    games_open(games=[(match, 1)])
    site_lists_changed()
    return match


def match_finish(*, match: Match, winner: Player) -> Match:
    """THE place where a match becomes decided. Callers hold the match row's lock."""
    match.status = Match.Status.FINISHED
    match.winner = winner
    match.finished_at = timezone.now()
    match_outcome_write(match=match, fields=["status", "winner", "finished_at"])

    # The next step, in the same transaction (no signals): the apps above
    # (ratings, tournament advancement) registered their listeners at start-up.
    match_finished_notify(match=match)
    return match


def match_progress(*, match: Match) -> None:
    """After a game changed: finish the match if someone has won the series, else open the next game if due."""
    if match.status != Match.Status.IN_PROGRESS:
        return
    if match.is_table:
        assert match.points_per_place is not None
        step = table_series_step(
            games=match.games.values_list("number", "status", "places"),
            player_ids=match.player_ids,
            points_per_place=match.points_per_place,
            series=match.series,
            length=match.series_length,
        )
    else:  # two players, or two teams (a team's games are won in the name of its first seat)
        sides = tuple(match.player_ids[team[0]] for team in match.teams) or match.player_ids
        step = series_step(
            games=match.games.values_list("number", "status", "winner_id"),
            player_ids=(sides[0], sides[1]),
            wins_needed=match.wins_needed,
        )
    if step.winner_id is not None:
        match_finish(match=match, winner=next(player for player in match.players if player.pk == step.winner_id))
    elif step.open_game is not None:
        (opened,) = games_open(games=[(match, step.open_game)])
        # The next game may be played now: an app that plays at its tables opens one for it.
        game_playable_notify(game_id=opened.pk)
