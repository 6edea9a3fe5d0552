"""Play again after a match table's game: every player accepts, and they sit at the next table together.

The offer is made when the game is over (`again_offers.again_offer`, from
`table_finish`). Each answer locks the players' rows (in id order, as
`seek_accept` does), then the table row, the referee's one serialisation
point, then the offer's row: two accepts at once are one after the other, so
the last seat's accept alone opens the new table. The match not over, that
is its next game; the match over, a casual rematch (`rated=False`) with the
same ruleset, series and time limit. A player seated at another live table
is refused, as the lobby refuses them (`seeks.refuse_if_seated`). Each
change bumps the table's `v`: the players' pages learn of it by the nudge
the caller sends after the commit.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from core.errors import Conflict, NotAllowed, NotFound
from matches.models import Game, Match, Player
from matches.selectors import AnyUser, signed_in
from matches.services import match_create

from ..models import Table, TableAgain
from .again_offers import again_view
from .referee import bump, lock
from .seeks import refuse_if_seated
from .tables import table_open_for_game

GONE = {
    TableAgain.Status.DECLINED: "declined",
    TableAgain.Status.EXPIRED: "expired",
}


@dataclass(frozen=True, slots=True)
class Answered:
    """The offer as an answer left it, and the table's `v` to nudge its connections with (None: unchanged)."""

    offer: TableAgain
    table: Table
    v: int | None


def _seat_of(table_id: int, user: AnyUser) -> int:
    """The caller's seat at the table, read before any lock; NotFound, or NotAllowed for anyone else."""
    seat_users = Table.objects.filter(pk=table_id).values_list("seat_users", flat=True).first()
    if seat_users is None:
        raise NotFound(f"There is no table {table_id}.")
    author = signed_in(user)
    if author is None or author.pk not in seat_users:
        raise NotAllowed("Only the table's players can answer its offer to play again.")
    return list(seat_users).index(author.pk)


def _locked(table_id: int) -> tuple[Table, TableAgain, list[Player]]:
    """The players' rows (NO KEY, id order), the table row, then its offer's row, each locked."""
    seat_users = Table.objects.filter(pk=table_id).values_list("seat_users", flat=True).get()
    players = list(
        Player.objects.select_for_update(no_key=True).filter(user_id__in=[u for u in seat_users if u]).order_by("pk")
    )
    table = lock(table_id)
    offer = TableAgain.objects.select_for_update().filter(table=table).first()
    if offer is None:
        raise Conflict("This table offers no game to play again: only a match's table does, once its game is over.")
    return table, offer, players


def _refuse_if_gone(offer: TableAgain) -> None:
    if offer.status in GONE:
        raise Conflict(
            f"The offer to play again was {GONE[TableAgain.Status(offer.status)]}: it is gone for everyone.",
            extra={"again": offer.status},
        )
    if offer.status == TableAgain.Status.OPEN and offer.expires_at <= timezone.now():
        raise Conflict("The offer to play again has expired: it is gone for everyone.", extra={"again": "expired"})


def _show(table: Table, offer: TableAgain) -> int:
    """Save the offer, show it in the table's states, bump `v` (under both locks); the new `v`."""
    offer.save()
    table.again = again_view(table=table, offer=offer)
    bump(table, None, ["again"])
    return table.v


def _next_game(match: Match, game_id: int) -> int | None:
    """The next open game of a match still in progress once the table's own game is decided, else None."""
    if Game.objects.filter(pk=game_id, status=Game.Status.OPEN).exists():
        return None  # the table's log is still being verified: the sweep starts the offer later
    return match.games.filter(status=Game.Status.OPEN).order_by("number").values_list("pk", flat=True).first()


def _rematch(match: Match, user: AnyUser) -> int:
    """A casual match between the same players, with the same ruleset, series and time limit: its first game."""
    rematch = match_create(
        players=[player.handle for player in match.players],
        ruleset=match.ruleset,
        best_of=match.series_length if match.series == Match.Series.BEST_OF else None,
        first_to=match.series_length if match.series == Match.Series.FIRST_TO else None,
        points_per_place=match.points_per_place,
        time_limit_ms=match.time_limit_ms,
        created_by=user,
        agreed=True,
        rated=False,
    )
    return rematch.games.get(number=1).pk


def _start(table: Table, offer: TableAgain, players: list[Player], user: AnyUser) -> bool:
    """Every seat accepted: open the next table (True), or leave it to the sweep while the game is undecided."""
    assert table.game_id is not None
    match = Match.objects.get(games__id=table.game_id)
    if match.status == Match.Status.ANNULLED:
        raise Conflict("This match was annulled: there is nothing to play again.")
    for player in players:
        refuse_if_seated(player, who=f"{player.handle} has a seat")
    game_id = _rematch(match, user) if match.status == Match.Status.FINISHED else _next_game(match, table.game_id)
    if game_id is None:
        return False
    next_table, _created = table_open_for_game(game_id=game_id, user=user)
    offer.status, offer.next_table, offer.closed_at = TableAgain.Status.STARTED, next_table, timezone.now()
    return True


@transaction.atomic
def again_accept(*, table_id: int, user: AnyUser) -> Answered:
    """Accept the offer to play again; the last seat to accept opens the new table for everyone."""
    seat = _seat_of(table_id, user)
    table, offer, players = _locked(table_id)
    if offer.status == TableAgain.Status.STARTED:
        return Answered(offer, table, None)  # a second tab, or a late click: the table is there
    _refuse_if_gone(offer)
    me = next(player for player in players if player.user_id == table.seat_users[seat])
    refuse_if_seated(me, who="You have a seat")
    if seat not in offer.accepted:
        offer.accepted = [*offer.accepted, seat]
    if len(offer.accepted) == len(table.players):
        _start(table, offer, players, user)
    return Answered(offer, table, _show(table, offer))


@transaction.atomic
def again_decline(*, table_id: int, user: AnyUser) -> Answered:
    """Decline the offer: it is gone for every player."""
    seat = _seat_of(table_id, user)
    table, offer, _players = _locked(table_id)
    if offer.status == TableAgain.Status.DECLINED:
        return Answered(offer, table, None)
    if offer.status == TableAgain.Status.STARTED:
        raise Conflict("Everyone accepted: the new table is open.", extra={"table": offer.next_table_id})
    _refuse_if_gone(offer)
    offer.status, offer.declined_by, offer.closed_at = TableAgain.Status.DECLINED, seat, timezone.now()
    return Answered(offer, table, _show(table, offer))


def _settle(table_id: int) -> int | None:
    """The sweep's step for one open offer: expire it past its time, or start it once the game is decided."""
    with transaction.atomic():
        table, offer, players = _locked(table_id)
        if offer.status != TableAgain.Status.OPEN:
            return None
        if offer.expires_at <= timezone.now():
            offer.status, offer.closed_at = TableAgain.Status.EXPIRED, timezone.now()
            return _show(table, offer)
        if len(offer.accepted) < len(table.players):
            return None
        last = players[0] if players else None
        if last is None or not _start(table, offer, players, last.user):
            return None
        return _show(table, offer)


def again_expire(*, limit: int = 200) -> list[tuple[int, int]]:
    """The beat's sweep: expire every offer past its time, start every one all accepted whose game is now
    decided; (table id, new `v`) of each table changed, for the caller to nudge."""
    now = timezone.now()
    due = TableAgain.objects.filter(status=TableAgain.Status.OPEN).order_by("expires_at")
    changed = []
    rows = due.values_list("table_id", "expires_at", "accepted", "table__players")
    for table_id, expires_at, accepted, players in rows[:limit]:
        if expires_at > now and len(accepted) < len(players):
            continue  # neither due nor waiting only on the game's result
        try:
            v = _settle(table_id)
        except Conflict:
            continue  # a player sat down elsewhere meanwhile: the offer lapses at its time
        if v is not None:
            changed.append((table_id, v))
    return changed
