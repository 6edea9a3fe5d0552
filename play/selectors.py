"""Reading tables: the table as the API shows it, and the state each connection may see (section 4).

`table_state` is the one place a state is put together, and the one place
that decides what a connection sees: its own hand from the countdown on,
counts of everything else, the latest event (a reshuffle without its order),
and the salt and result once the game is over. Nothing else ever leaves.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import Exists, F, Func, IntegerField, OuterRef, QuerySet, Subquery
from django.utils import timezone

from core.errors import NotAllowed, NotFound
from matches.models import Player
from speedrules import Judge
from speedrules.cards import CARD_NAMES, EMPTY_PILE
from speedrules.state import GameState

from .models import Seek, SiteSeen, Table, TableSeat, TableWaitNotice, TableWatcher
from .services.live import live_game_build, live_game_replay, now_ms, stale_after_ms
from .services.seeks import seek_fresh_since
from .timers import away_entries, claim_ms, time_limit_ms

_SETTINGS_SHOWN = ("collision_ms", "stall_ms", "abandon_ms")
_HAND_SHOWN = (
    Table.Status.COUNTDOWN,
    Table.Status.PLAYING,
    Table.Status.STUCK,
    Table.Status.OVER,
    Table.Status.ABANDONED,
    Table.Status.ABORTED,
)
_ON_CLOCK = (Table.Status.PLAYING, Table.Status.STUCK)


def table_get(*, table_id: int) -> Table:
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise NotFound(f"There is no table {table_id}.")
    return table


def live_tables_of_match(*, match_id: int) -> dict[int, int]:
    """The live table (waiting, counting down or playing) of each of a match's games that has one: game id to
    table id (one query, whatever the match's games)."""
    rows = Table.objects.filter(game__match_id=match_id, status__in=Table.LIVE).values_list("game_id", "pk")
    return {game_id: table_id for game_id, table_id in rows if game_id is not None}


def table_watching(*, table_id: int) -> int:
    """How many spectators' connections watch the table now (one query; a silent one is not counted)."""
    return TableWatcher.objects.filter(table_id=table_id, last_seen__gte=now_ms() - stale_after_ms()).count()


def table_log_url(table: Table) -> str | None:
    """The stored log's API URL (speed-table/1: its bytes at `document/`): the game's log, or the practice log."""
    return None if table.log_id is None else f"/api/logs/{table.log_id}/"


def table_log_id(*, table_id: int) -> int:
    """The id of the log a table stored at its game's end; NotFound when there is no table or no log yet."""
    table = table_get(table_id=table_id)
    if table.log_id is None:
        raise NotFound(f"Table {table_id} has stored no log (yet): a table stores one when its game is over.")
    return table.log_id


def table_json(table: Table) -> dict[str, Any]:
    """The table as `POST /api/games/{id}/table/`, `POST /api/tables/` and `GET /api/tables/{id}/` answer."""
    return {
        "id": table.pk,
        "game": table.game_id,
        "status": table.status,
        "players": list(table.players),
        "ruleset": table.ruleset,
        "socket": f"/ws/tables/{table.pk}/",
        "page": f"/tables/{table.pk}/",
        "deck_sha256": table.deck_sha256,
        "log": table_log_url(table),
        "solitaire_run": table.solitaire_run_id,
    }


def _last(game: Judge, over: bool) -> dict[str, Any] | None:
    if not game.events:
        return None
    last = dict(game.events[-1])
    if last.get("type") == "reshuffle" and not over:
        del last["order"]  # the new stacks are face down
    return last


def _ended(table: Table) -> dict[str, Any] | None:
    """How the game ended before its end, for a page to say so: who aborted, resigned or claimed (`seat`; None
    for the abort timer), at the game's `t`, and against whom (`against`: the seats that resigned, were claimed
    against or never came). Rows from before `against` was stored get it from `out`."""
    ended = table.ended
    if not ended:
        return None
    by, seat = ended.get("by"), ended.get("seat")
    against = ended.get("against")
    if against is None:
        if by == "resign":
            against = [seat]
        elif by == "claim":
            against = [other for other in table.out if other != seat]
        elif by == "no_show":
            against = list(table.out)
        else:
            against = []
    shown = {"by": by, "seat": seat, "t": ended.get("t"), "against": list(against)}
    if by == "time":  # a timed game's limit: each seat's cards played by it, the score
        shown["played"] = ended.get("played")
    return shown


def _time_limit(table: Table) -> dict[str, Any] | None:
    """A timed game's clock on the server's time: its limit, and when the game's clock started and ends."""
    limit = time_limit_ms(table.settings)
    if limit is None:
        return None
    started = table.started_at
    return {"limit_ms": limit, "started_at": started, "ends_at": None if started is None else started + limit}


def _stock(state: GameState, *, shown: bool) -> list[list[dict[str, Any]]]:
    """Each seat's stock piles: the face-up top (None before t = 0, as the starters, or when empty), the rest a count."""
    return [
        [{"top": CARD_NAMES[pile[-1]] if pile and shown else None, "down": max(len(pile) - 1, 0)} for pile in piles]
        for piles in state.stock
    ]


def table_state(*, table: Table, seat: int | None, game: Judge | None = None) -> dict[str, Any]:
    """The whole table as the connection at `seat` (None: a spectator) may see it."""
    if game is None:
        game = live_game_build(table)
    state = game.state
    over = table.status == Table.Status.OVER
    if table.started_at is None:
        t = None
    elif table.status in _ON_CLOCK:
        t = max(now_ms() - table.started_at, game.previous)
    else:
        t = game.previous
    starts_in = None
    if table.status == Table.Status.COUNTDOWN and table.countdown_at is not None:
        starts_in = max(0, table.countdown_at + table.settings["countdown_ms"] - now_ms())
    hand = None
    if seat is not None and table.status in _HAND_SHOWN:
        hand = [CARD_NAMES[card] for card in state.hands[seat]]
    return {
        "type": "state",
        "v": table.v,
        "table": table.pk,
        "status": table.status,
        "players": list(table.players),
        "you": seat,
        "ruleset": table.ruleset,
        "settings": {
            **{name: table.settings[name] for name in _SETTINGS_SHOWN},
            "claim_ms": claim_ms(table.settings),
            # Amendment L5: a tournament's called match may forfeit a no-show; null once judged, or never.
            "no_show_ms": table.settings.get("no_show_ms"),
        },
        "t": t,
        "starts_in_ms": starts_in,
        "hand": hand,
        "hand_counts": [len(held) for held in state.hands],
        "draw_counts": [len(state.seat_draws[index]) for index in range(len(state.hands))],
        # Until t = 0 the starters lie face down: no pile shows a card, only its count (section 4).
        "piles": [None if top == EMPTY_PILE or t is None else CARD_NAMES[top] for top in state.tops],
        "pile_counts": [len(pile) for pile in state.piles],
        "stacks": [len(stack) for stack in state.stacks],
        # Spit's stock piles (docs/table-protocol.md): their face-up tops lie open, so everyone sees them.
        "stock": _stock(state, shown=t is not None) if state.tableau else None,
        "connected": [since is None for since in table.away],
        # Amendment L2: per seat None while present, else since when it is away and when it may be claimed
        # against (server epoch ms; `now` is the server's clock when the state was built, for a countdown).
        "away": away_entries(table.away, table.settings),
        "resigned": list(table.out),
        # Whether a seat may still abort (amendment L3: a live table before the first play of the game),
        # and how a game ended early; new keys for the table page (speed-table/1 clients may ignore them).
        "abortable": table.status in Table.LIVE and not any(event.get("type") == "play" for event in game.events),
        "ended": _ended(table),
        "time_limit": _time_limit(table),
        "now": now_ms(),
        "ready": list(table.ready),
        "last": _last(game, over),
        "deck_sha256": table.deck_sha256,
        "salt": table.salt if over else None,
        "result": table.result if over else None,
        "log": table_log_url(table) if over else None,
        # The offer to play again, to the table's players only (docs/table-protocol.md): None until the game
        # of a match table is over.
        "again": table.again if seat is not None else None,
    }


# The lobby: open seeks and live tables to watch.


def seeks_open() -> QuerySet[Seek]:
    """The lobby's open seeks whose players are still there, oldest first (the first come is first served)."""
    return (
        Seek.objects.filter(status=Seek.Status.OPEN, last_seen__gte=seek_fresh_since())
        .select_related("seeker")
        .order_by("created_at", "id")
    )


def seek_json(seek: Seek) -> dict[str, Any]:
    """A seek as `/api/seeks/` answers it."""
    return {
        "id": seek.pk,
        "seeker": seek.seeker.handle,
        "ruleset": seek.ruleset_name,
        "rated": seek.rated,
        "status": seek.status,
        "created_at": seek.created_at,
        "match": seek.match_id,
        "table": seek.table_id,
        "page": f"/tables/{seek.table_id}/" if seek.table_id is not None else None,
    }


def seek_of_player(*, player: Player) -> Seek | None:
    """The player's seek the lobby shows them: their open one, or one taken whose table is still live (one query)."""
    mine = Seek.objects.filter(seeker=player).select_related("seeker")
    open_seek = mine.filter(status=Seek.Status.OPEN, last_seen__gte=seek_fresh_since())
    taken = mine.filter(status=Seek.Status.TAKEN, table__status__in=Table.LIVE)
    return (open_seek | taken).order_by("-id").first()


@dataclass(frozen=True)
class LiveTable:
    """A live table as the lobby and a tournament's page list it: who sits where, how many cards each has left."""

    id: int
    status: str
    ruleset_name: str
    players: list[str]
    cards_left: list[int]
    practice: bool

    @property
    def seats(self) -> list[tuple[str, int]]:
        """Each seat's player and cards left, in seat order."""
        return list(zip(self.players, self.cards_left, strict=True))


@dataclass(frozen=True)
class LiveTables:
    """The newest live tables listed, and how many are live in all."""

    tables: list[LiveTable]
    total: int

    @property
    def more(self) -> int:
        """Live tables beyond those listed."""
        return self.total - len(self.tables)


_LIVE_ROW = ("pk", "status", "ruleset", "ruleset_name", "players", "deck", "game_id", "event_count", "total")


def live_tables(*, limit: int, tournament_id: int | None = None) -> LiveTables:
    """The newest live tables (of a tournament's matches, if given), at most `limit`, with the count of all.

    One query, whatever the number of tables or events: the tables listed, each joined with its events (a
    table with none yet gives one row of nulls) and the count as a scalar subquery. Each seat's cards left are
    replayed from the events; only the `event_count` stored with the row are read, as any reader of a table.
    """
    live = Table.objects.filter(status__in=Table.LIVE)
    if tournament_id is not None:
        live = live.filter(game__match__tournament_match__tournament_id=tournament_id)
    total = live.order_by().annotate(n=Func(F("pk"), function="COUNT")).values("n")
    rows = (
        Table.objects.filter(pk__in=live.order_by("-id").values("pk")[:limit])
        .annotate(total=Subquery(total, output_field=IntegerField()))
        .order_by("-id", "events__index")
        .values_list(*_LIVE_ROW, "events__index", "events__data")
    )
    found: dict[int, tuple[Table, list[Any]]] = {}
    count = 0
    for *head, index, data in rows:
        fields = dict(zip(_LIVE_ROW, head, strict=True))
        count = fields.pop("total")
        table, events = found.setdefault(fields["pk"], (Table(**fields), []))
        if index is not None and index < table.event_count:
            events.append(data)
    listed = []
    for table, events in found.values():
        state = live_game_replay(table, events).state
        cards = [len(hand) + len(state.seat_draws[seat]) for seat, hand in enumerate(state.hands)]
        listed.append(
            LiveTable(
                id=table.pk,
                status=table.status,
                ruleset_name=table.ruleset_name,
                players=list(table.players),
                cards_left=cards,
                practice=table.game_id is None,
            )
        )
    return LiveTables(listed, count)


#: Tables a page's banner names at most ("someone is waiting at your table").
WAITING_SHOWN = 3


@dataclass(frozen=True, slots=True)
class WaitingTable:
    """A match's table where someone waits for the user: the table, and who (the first seat held)."""

    table_id: int
    handle: str


def tables_waiting_for(*, user_id: int | None) -> list[WaitingTable]:
    """Live tables where another player of the match holds a seat and the user's own is not taken (one query).

    Read from the user's notices (`TableWaitNotice`, indexed by user), newest table first, a few at most.
    """
    if user_id is None:
        return []
    held = TableSeat.objects.filter(table_id=OuterRef("table_id"), channel__gt="")
    rows = (
        TableWaitNotice.objects.filter(user_id=user_id, table__status__in=Table.LIVE)
        .annotate(
            mine=Exists(held.filter(seat=OuterRef("seat"))),
            other=Subquery(held.exclude(seat=OuterRef("seat")).order_by("seat").values("seat")[:1]),
        )
        .filter(mine=False, other__isnull=False)
        .order_by("-table_id")
        .values_list("table_id", "other", "table__players")[:WAITING_SHOWN]
    )
    return [WaitingTable(table_id, str(players[other])) for table_id, other, players in rows]


@dataclass(frozen=True, slots=True)
class Opponent:
    """Another seat of a table as its waiting player sees it: there, on the site, told of the wait."""

    seat: int
    handle: str
    seated: bool
    online: bool
    told: str | None


def table_opponents(*, table_id: int, user_id: int | None) -> list[Opponent]:
    """The other seats of a table, for one of its players (four queries); a stranger is refused."""
    table = table_get(table_id=table_id)
    if user_id is None or user_id not in table.seat_users:
        raise NotAllowed("Only the table's players see whether their opponents are here.")
    mine = table.seat_users.index(user_id)
    held = set(TableSeat.objects.filter(table_id=table_id, channel__gt="").values_list("seat", flat=True))
    others = [user for seat, user in enumerate(table.seat_users) if seat != mine and user is not None]
    since = timezone.now() - timedelta(seconds=settings.SPEED_SITE_ONLINE_SECONDS)
    online = set(SiteSeen.objects.filter(user_id__in=others, seen_at__gte=since).values_list("user_id", flat=True))
    told = dict(
        TableWaitNotice.objects.filter(table_id=table_id, user_id__in=others)
        .exclude(told__in=[TableWaitNotice.Told.PENDING, TableWaitNotice.Told.NONE])
        .values_list("user_id", "told")
    )
    return [
        Opponent(
            seat=seat,
            handle=str(table.players[seat]),
            # A bot is always at its seat.
            seated=user is None or seat in held,
            online=user is None or user in online or seat in held,
            told=told.get(user) if user is not None else None,
        )
        for seat, user in enumerate(table.seat_users)
        if seat != mine
    ]


def table_who(*, table_id: int, user_id: int | None, seated: bool) -> dict[str, Any]:
    """A socket's answer to `who`: how many watch the table and, to one of its seats, its opponents.

    What the table page shows beside the state, asked over its one socket rather than by HTTP polls;
    a read without a lock, so a spectator may ask too (it is answered no opponents).
    """
    opponents = table_opponents(table_id=table_id, user_id=user_id) if seated else None
    return {
        "watching": table_watching(table_id=table_id),
        "opponents": None if opponents is None else [asdict(opponent) for opponent in opponents],
    }
