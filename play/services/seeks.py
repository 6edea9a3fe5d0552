"""The lobby's seeks: a player posts an open game, the first other player to accept it sits at a table with them.

A seek lives while its seeker's lobby page keeps polling (`seek_touch`); one
not seen for `SPEED_SEEK_TTL_SECONDS` is no longer listed or taken, and the
beat's sweep (`seeks_expire`) marks it expired. Accepting locks the two
players' rows, then the seek and the accepter's own open seek, each in id
order: two accepts of one seek make one match and one table, one player's
two accepts at once seat them once, and two players accepting each other's
seeks at once never wait on each other in a ring.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from core.errors import Conflict, Invalid, NotAllowed, NotFound
from matches.models import Player
from matches.selectors import AnyUser, signed_in, user_player
from matches.services import match_create
from speedrules import PRESETS

from ..models import Seek, Table
from .tables import practice_rulesets, table_open_for_game

TAKEN = "This game has been taken: another player accepted it first."


def seek_rulesets() -> list[str]:
    """The presets a seek offers: those a table plays with two seats (the seeker and one opponent)."""
    return [name for name in practice_rulesets() if PRESETS[name].players == 2]


def seek_fresh_since() -> datetime:
    """A seek last seen before this moment is gone: its player left the lobby."""
    return timezone.now() - timedelta(seconds=settings.SPEED_SEEK_TTL_SECONDS)


def _player(user: AnyUser, doing: str) -> Player:
    me = user_player(user=user)
    if me is None:
        raise NotAllowed(f"Sign in as a player to {doing}.")
    return me


def _live_table_of(*, player: Player) -> Table | None:
    """A live table the player holds a seat at: a match's (any of its four seats) or their practice table."""
    seated = Q(game__isnull=True, created_by_id=player.user_id) if player.user_id is not None else Q(pk__in=[])
    for seat in ("one", "two", "three", "four"):
        seated |= Q(**{f"game__match__player_{seat}": player})
    return Table.objects.filter(seated, status__in=Table.LIVE).order_by("-id").first()


def refuse_if_seated(player: Player, *, who: str) -> None:
    """Refuse (409, naming the table) a player holding a seat at a live table: the lobby and "play again"."""
    table = _live_table_of(player=player)
    if table is not None:
        raise Conflict(
            f"{who} at table {table.pk}, still open: finish or leave that game first.",
            extra={"table": table.pk, "page": f"/tables/{table.pk}/"},
        )


@transaction.atomic
def seek_create(*, user: AnyUser, ruleset: str, rated: bool) -> Seek:
    """Post an open game: a two-seat preset, rated or casual. One open seek a player; none while seated."""
    me = _player(user, "post a game")
    if ruleset not in seek_rulesets():
        raise Invalid(
            f"Unknown ruleset {ruleset!r} for a game in the lobby; use one of {', '.join(seek_rulesets())}.",
            extra={"field": "ruleset"},
        )
    refuse_if_seated(me, who="You have a seat")
    # The seeker's own seek left unrefreshed (an earlier lobby page closed) is theirs to replace.
    now = timezone.now()
    Seek.objects.filter(seeker=me, status=Seek.Status.OPEN, last_seen__lt=seek_fresh_since()).update(
        status=Seek.Status.EXPIRED, closed_at=now
    )
    if Seek.objects.filter(seeker=me, status=Seek.Status.OPEN).exists():
        raise Conflict("You already have a game open in the lobby: cancel it to post another.")
    try:
        with transaction.atomic():  # two posts at once: the one-open-seek constraint refuses the second
            return Seek.objects.create(seeker=me, ruleset_name=ruleset, rated=rated, last_seen=now)
    except IntegrityError:
        raise Conflict("You already have a game open in the lobby: cancel it to post another.") from None


@transaction.atomic
def seek_cancel(*, seek_id: int, user: AnyUser) -> Seek:
    """The seeker withdraws their open seek."""
    me = _player(user, "cancel a game")
    seek = Seek.objects.select_for_update().filter(pk=seek_id).first()
    if seek is None:
        raise NotFound(f"There is no seek {seek_id}.")
    if seek.seeker_id != me.pk:
        raise NotAllowed("Only the player who posted this game can cancel it.")
    if seek.status == Seek.Status.TAKEN:
        raise Conflict(TAKEN, extra={"table": seek.table_id})
    if seek.status == Seek.Status.OPEN:
        seek.status, seek.closed_at = Seek.Status.CANCELLED, timezone.now()
        seek.save(update_fields=["status", "closed_at"])
    return seek


@transaction.atomic
def seek_accept(*, seek_id: int, user: AnyUser) -> Seek:
    """Take an open seek: a one-game match between the two (rated as the seek says) and its table, opened.

    The loser of two accepts at once is told the game has been taken. The
    accepter's own open seek, if any, is withdrawn: they are seated now.
    """
    me = _player(user, "accept a game")
    seeker_id = Seek.objects.filter(pk=seek_id).values_list("seeker_id", flat=True).first()
    if seeker_id is None:
        raise NotFound(f"There is no seek {seek_id}.")
    # Both players' rows first, in id order: one player's accepts of two seeks at once run one after the
    # other, so the second sees the table the first made and seats nobody twice. NO KEY: rows that only
    # refer to a player (a match, a log) are not held up.
    players = Player.objects.select_for_update(no_key=True).filter(pk__in={seeker_id, me.pk}).order_by("pk")
    list(players.values_list("pk"))
    locked = list(
        Seek.objects.select_for_update()
        .filter(Q(pk=seek_id) | Q(seeker=me, status=Seek.Status.OPEN))
        .select_related("seeker")
        .order_by("pk")
    )
    seek = next((row for row in locked if row.pk == seek_id), None)
    if seek is None:
        raise NotFound(f"There is no seek {seek_id}.")
    if seek.seeker_id == me.pk:
        raise Invalid("This is your own game: wait for another player to accept it.")
    if seek.status == Seek.Status.TAKEN:
        raise Conflict(TAKEN)
    if seek.status != Seek.Status.OPEN or seek.last_seen < seek_fresh_since():
        raise Conflict("This game is gone: its player cancelled it or left the lobby.")
    refuse_if_seated(me, who="You have a seat")
    refuse_if_seated(seek.seeker, who=f"{seek.seeker.handle} has a seat")
    match = match_create(
        players=[seek.seeker.handle, me.handle],
        ruleset=seek.ruleset_name,
        best_of=1,
        created_by=user,
        agreed=True,
        rated=seek.rated,
    )
    table, _created = table_open_for_game(game_id=match.games.get(number=1).pk, user=user)
    now = timezone.now()
    seek.status, seek.accepted_by, seek.match, seek.table, seek.closed_at = Seek.Status.TAKEN, me, match, table, now
    seek.save(update_fields=["status", "accepted_by", "match", "table", "closed_at"])
    Seek.objects.filter(pk__in=[row.pk for row in locked if row.pk != seek_id]).update(
        status=Seek.Status.CANCELLED, closed_at=now
    )
    return seek


def seek_touch(*, user: AnyUser) -> int:
    """The seeker's lobby page is still open: their open seek stays listed (how many were refreshed)."""
    author = signed_in(user)
    if author is None:
        return 0
    # A seek already stale stays gone (the sweep expires it): a page back from sleep posts anew.
    fresh = Seek.objects.filter(seeker__user_id=author.pk, status=Seek.Status.OPEN, last_seen__gte=seek_fresh_since())
    return fresh.update(last_seen=timezone.now())


def seeks_expire() -> int:
    """Expire every open seek its player's lobby page stopped refreshing (the beat's sweep); how many."""
    return Seek.objects.filter(status=Seek.Status.OPEN, last_seen__lt=seek_fresh_since()).update(
        status=Seek.Status.EXPIRED, closed_at=timezone.now()
    )
