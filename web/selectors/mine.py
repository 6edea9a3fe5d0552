"""Reads for a signed-in player's own page ("My matches") and the navigation's count of what waits on them.

Each function is a fixed number of queries and a bounded number of rows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations, product

from django.db.models import Case, Exists, F, OuterRef, Q, QuerySet, Value, When

from matches.models import Game, Match, Player
from matches.selectors import MATCH_PLAYERS, AnyUser, user_player
from replays.models import MatchLog
from tournaments.models import Entrant, PlayerRating, Registration, Tournament, TournamentMatch
from web.selectors.matches import in_any_seat

#: Rows each list of the page shows at most (the player's page lists every match).
LIST_LIMIT = 20
RECENT_LIMIT = 10


def _my_games(player: Player) -> QuerySet[Game]:
    return Game.objects.filter(in_any_seat(player, via="match__"), match__status=Match.Status.IN_PROGRESS)


def games_waiting_for_log(*, player: Player) -> QuerySet[Game]:
    """Open games of the player's matches with no log of theirs being verified or verified."""
    mine = MatchLog.objects.filter(
        game=OuterRef("pk"),
        submitted_by_id=player.user_id,
        status__in=[MatchLog.Status.PENDING, MatchLog.Status.VERIFIED],
    )
    games = _my_games(player).filter(status=Game.Status.OPEN)
    if player.user_id is not None:
        games = games.filter(~Exists(mine))
    return games


def _partner_claimed(player: Player) -> Q:
    """Team Speed games whose claim came from the player's partner: only the other team confirms those.

    A team is a list of seats in `Match.ruleset["teams"]` (the preset pairs
    seats 0 and 2, a custom ruleset any two), so for each pair of seats the
    player may sit in one and the claimer in the other, and the pair is a team
    when one of the ruleset's teams holds both seats. That is JSON equality with
    each way the ruleset can list that split (teams and their seats in either
    order): plain JSON equality, which SQLite (the demo) runs too.
    """
    query = Q()
    for pair in combinations(range(len(MATCH_PLAYERS)), 2):
        rest = tuple(seat for seat in range(len(MATCH_PLAYERS)) if seat not in pair)
        listings = [
            list(teams)
            for one, two in ((pair, rest), (rest, pair))
            for teams in product((list(one), list(one)[::-1]), (list(two), list(two)[::-1]))
        ]
        for mine, theirs in (pair, pair[::-1]):
            query |= Q(
                **{f"match__{MATCH_PLAYERS[mine]}": player},
                claimed_by_id=F(f"match__{MATCH_PLAYERS[theirs]}_id"),
                match__ruleset__teams__in=listings,
            )
    return query


def games_waiting_for_confirmation(*, player: Player) -> QuerySet[Game]:
    """Results another player claimed that the player is to confirm or dispute.

    At a table a confirmation is kept as the player's report until every other
    player has confirmed: a game this player already confirmed waits on the others, not on them.
    A Team Speed claim waits on the other team, not on the claimer's partner.
    """
    return (
        _my_games(player)
        .filter(status=Game.Status.AWAITING_CONFIRMATION)
        .exclude(claimed_by=player)
        .exclude(reports__has_key=str(player.pk))
        # CASE, not a bare exclude: the clause is NULL for a match without a fourth seat or teams, and
        # NOT NULL would drop the row.
        .alias(partner_claimed=Case(When(_partner_claimed(player), then=Value(True)), default=Value(False)))
        .filter(partner_claimed=False)
    )


def waiting_count(*, user: AnyUser) -> int:
    """What waits on the user: games to log and results to confirm (two queries; 0 for visitors)."""
    player = user_player(user=user)
    if player is None:
        return 0
    return games_waiting_for_log(player=player).count() + games_waiting_for_confirmation(player=player).count()


#: Tournaments taking registrations a player's page points to at most.
OPEN_LIMIT = 5


@dataclass(frozen=True)
class WaysIn:
    """Where a player's page points them: tournaments they may register for, and their registrations waiting."""

    open_tournaments: list[Tournament]
    pending: list[Registration]


def ways_in(*, player: Player) -> WaysIn:
    """Tournaments taking registrations that the player has not entered nor asked to, and their pending asks (two
    queries)."""
    entered = Entrant.objects.filter(tournament=OuterRef("pk"), player=player)
    asked = Registration.objects.filter(tournament=OuterRef("pk"), player=player)
    open_tournaments = list(
        Tournament.objects.filter(status=Tournament.Status.SETUP, registration_open=True)
        .filter(~Exists(entered), ~Exists(asked))
        .order_by("starts_at", "-created_at", "-id")[:OPEN_LIMIT]
    )
    pending = list(
        Registration.objects.filter(
            player=player, status=Registration.Status.PENDING, tournament__status=Tournament.Status.SETUP
        )
        .select_related("tournament")
        .order_by("created_at", "id")[:LIST_LIMIT]
    )
    return WaysIn(open_tournaments=open_tournaments, pending=pending)


@dataclass
class MyPage:
    player: Player
    to_log: list[Game]
    to_confirm: list[Game]
    my_claims: list[Game]
    next_matches: list[TournamentMatch]
    recent: list[Match]
    rating: PlayerRating | None
    check_in: list[Entrant] = field(default_factory=list)
    ways_in: WaysIn = field(default_factory=lambda: WaysIn([], []))

    @property
    def is_new(self) -> bool:
        """Nothing yet: no match waiting, played or to play, no entry to check in to."""
        return not (self.to_log or self.to_confirm or self.my_claims or self.next_matches or self.recent)


_GAME_RELATED = (*(f"match__{seat}" for seat in MATCH_PLAYERS), "claimed_winner", "claimed_by")


def my_page(*, player: Player) -> MyPage:
    """Everything "My matches" shows, in nine queries whatever the player's history."""
    to_log = list(
        games_waiting_for_log(player=player).select_related(*_GAME_RELATED).order_by("match_id", "number")[:LIST_LIMIT]
    )
    to_confirm = list(
        games_waiting_for_confirmation(player=player)
        .select_related(*_GAME_RELATED)
        .order_by("confirm_by", "id")[:LIST_LIMIT]
    )
    my_claims = list(
        _my_games(player)
        .filter(status=Game.Status.AWAITING_CONFIRMATION, claimed_by=player)
        .select_related(*_GAME_RELATED)
        .order_by("confirm_by", "id")[:LIST_LIMIT]
    )
    next_matches = list(
        TournamentMatch.objects.filter(
            Q(player_one=player) | Q(player_two=player),
            status=TournamentMatch.Status.READY,
            tournament__status=Tournament.Status.RUNNING,
        )
        .select_related("tournament", "player_one", "player_two")
        .order_by("underway_at", "id")[:LIST_LIMIT]
    )
    recent = list(
        Match.objects.filter(in_any_seat(player), status=Match.Status.FINISHED)
        .select_related(*MATCH_PLAYERS, "winner")
        .prefetch_related("games")
        .order_by("-finished_at", "-id")[:RECENT_LIMIT]
    )
    check_in = list(
        Entrant.objects.filter(
            player=player, tournament__status=Tournament.Status.SETUP, tournament__checkin_open=True
        ).select_related("tournament")[:LIST_LIMIT]
    )
    return MyPage(
        player=player,
        to_log=to_log,
        to_confirm=to_confirm,
        my_claims=my_claims,
        next_matches=next_matches,
        recent=recent,
        rating=PlayerRating.objects.filter(player=player).first(),
        check_in=check_in,
        ways_in=ways_in(player=player),
    )
