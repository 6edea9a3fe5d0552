"""The referee: a table's intents and timers, one at a time under the table row's lock (speed-table/1 section 3).

Every change here takes `Table.objects.select_for_update()` first, so the
intents of one table are handled in one order whichever server process holds
each connection. Each rebuilds the game from the stored events (or a game
cached at the row's very `v`), asks the engine whether an event may come next
(`speedrules.Judge.check`, the judge the verifier uses), appends the event rows, bumps
`v`, stores the table's next due time (`play.timers.next_timer`) and commits;
only then does the caller tell the connections. A timer is a `table_tick`: it
re-reads the row under the lock and records only what is due at that moment,
so the same timer fired by a socket process, a Celery task and the beat's
sweep records one event. Ending early (abort, resign, claim) is amendment L.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, replace
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef

from matches.placings import timed_places
from speedrules import Judge, LogError
from speedrules.cards import CARD_NAMES
from speedrules.events import PassedPlays
from speedrules.timed import cards_played_by, plays_by_seat

from ..messages import Intent
from ..models import Table, TableEvent, TableRef, TableSeat
from ..timers import Clock, claimable, next_timer, time_limit_ends, time_limit_ms
from .finish import Ending, table_finish
from .live import live_game_build, live_game_keep, now_ms, stale_after_ms
from .schedule import timer_schedule

#: The fields a move may change (with `v`, `event_count` and `due_at`, which every change saves).
_GAME_FIELDS = ["status", "started_at", "stuck_at", "flips", "result", "log", "solitaire_run", "again"]
_ENDING_FIELDS = [*_GAME_FIELDS, "out", "ended"]


@dataclass(frozen=True, slots=True)
class Refusal:
    code: str
    message: str


@dataclass(frozen=True, slots=True)
class Reply:
    """What an intent came to: a refusal (or None), and the table's `v` after it.

    `table` is the row as saved by a change (None when nothing changed): the
    process can show the new state without reading it back.
    """

    refusal: Refusal | None
    v: int
    changed: bool
    table: Table | None = None


class _Bad(Exception):
    def __init__(self, code: str, message: str, *, changed: bool = False) -> None:
        super().__init__(message)
        self.refusal = Refusal(code, message)
        self.changed = changed  # a collision is refused, yet recorded


def lock(table_id: int, *, ref_of: tuple[int, str] | None = None) -> Table:
    """The table row, locked; with `ref_of` (seat, ref), also whether that seat used that ref (`ref_used`).

    The ref is checked in the locking statement itself: one round trip fewer on every play.
    """
    tables = Table.objects.select_for_update()
    if ref_of is not None:
        seat, ref = ref_of
        tables = tables.annotate(ref_used=Exists(TableRef.objects.filter(table=OuterRef("pk"), seat=seat, ref=ref)))
    return tables.get(pk=table_id)


def clock_of(table: Table) -> Clock:
    return Clock(
        status=table.status,
        settings=table.settings,
        opened_at=int(table.created_at.timestamp() * 1000),
        countdown_at=table.countdown_at,
        started_at=table.started_at,
        stuck_at=table.stuck_at,
        bots=table.bots,
        out=table.out,
        away=table.away,
    )


def bump(table: Table, game: Judge | None, fields: list[str]) -> None:
    """Save the changed fields with the next `v` and due time; after commit, cache the game and set the timer."""
    table.v += 1
    due_set(table)
    table.save(update_fields=[*fields, "v", "event_count", "due_at"])
    table_id, v = table.pk, table.v
    if game is not None:
        transaction.on_commit(lambda: live_game_keep(table_id, v, game))


def due_set(table: Table) -> None:
    """Set the table's `due_at` from its clock (the caller saves it); after commit, Celery gets the timer."""
    timer = next_timer(clock_of(table))
    table.due_at = None if timer is None else timer.at
    if timer is not None:
        table_id, due = table.pk, timer.at
        transaction.on_commit(lambda: timer_schedule(table_id, due), robust=True)


def _record(table: Table, game: Judge, raw: dict[str, Any]) -> None:
    """Check and apply one event, and store it (before any state that shows it is sent)."""
    game.push(raw)
    TableEvent.objects.create(table=table, index=table.event_count, data=raw)
    table.event_count += 1


def _clock(table: Table, game: Judge, now: int) -> int:
    assert table.started_at is not None
    return max(now - table.started_at, game.previous)


def _someone_in_play_can_move(table: Table, game: Judge) -> bool:
    state = game.state
    if not table.out:
        return state.first_mover() is not None
    return any(state.can_move(seat) for seat in range(len(table.players)) if seat not in table.out)


def _after_move(table: Table, game: Judge, t: int, seat: int | None) -> None:
    """After a move: the automatic Speed call, or stuck, or a deadlock (section 3, 4 and 5)."""
    state, ruleset = game.state, game.ruleset
    if seat is not None and state.remaining(seat) == 0:
        _record(table, game, {"t": t, "type": "speed", "player": seat})
        won = {"winner_team": ruleset.side_of(seat)} if ruleset.teams else {"winner": seat}
        table_finish(table=table, game=game, result=won)
        return
    if _someone_in_play_can_move(table, game):
        table.status, table.stuck_at, table.flips = Table.Status.PLAYING, None, None
        return
    if state.first_mover() is not None:
        # Only a seat that resigned could move: no stall may be recorded past it (the engine would refuse
        # it), so the game ends here, placed as amendment L3 places a game left with its resigned seats.
        _end_early(table, game, t, by="resign", seat=table.out[-1])
        return
    if state.is_dead():
        # A stuck solitaire run is scored by the cards it could not get rid of (the extension's section 6).
        score = {"cards_left": state.remaining(0)} if ruleset.players == 1 else {}
        table_finish(table=table, game=game, result={"deadlock": True, **score})
        return
    table.status, table.stuck_at = Table.Status.STUCK, t
    table.flips = [None] * len(state.draws) if game.ruleset.stalls_from_draw_piles else None


# -- the services --------------------------------------------------------------


def table_intent(*, table_id: int, seat: int | None, intent: Intent) -> Reply:
    """Handle one read intent (`play.messages.read_message`) from `seat` (None: a spectator), in the spec's order."""
    if seat is None:  # before any query: a spectator never takes the table's lock
        return Reply(Refusal("not_seated", "You are watching: only the players at the table play."), -1, False)
    try:
        return _intent_locked(table_id, seat, intent)
    except IntegrityError:
        # The same play sent at once through two processes: the second's check ran before the first
        # committed, its insert of the ref then met the first's. The first was applied; this one never is.
        if not TableRef.objects.filter(table_id=table_id, seat=seat, ref=intent.ref).exists():
            raise
        return Reply(None, Table.objects.values_list("v", flat=True).get(pk=table_id), changed=False)


@transaction.atomic
def _intent_locked(table_id: int, seat: int, intent: Intent) -> Reply:
    ref_of = (seat, intent.ref) if intent.ref is not None and intent.kind in _KEEPS_REF else None
    table = lock(table_id, ref_of=ref_of)
    reply = _intent(table, seat, intent)
    return replace(reply, table=table) if reply.changed else reply


_HANDLERS: dict[str, Any] = {}
#: The intents whose `ref` is kept, so that the same card is never played (or moved) twice.
_KEEPS_REF = ("play", "move")


def _intent(table: Table, seat: int, intent: Intent) -> Reply:
    try:
        if intent.kind in _KEEPS_REF and intent.ref is not None:
            # Under the table row's lock no other intent of this table runs: the lock's own check, then the
            # insert, without get_or_create's savepoint.
            if table.ref_used:  # type: ignore[attr-defined]  # annotated by lock()
                return Reply(None, table.v, changed=False)  # never applied again, whatever became of the first
            TableRef.objects.create(table=table, seat=seat, ref=intent.ref)
        if table.status == Table.Status.OVER:
            raise _Bad("game_over", "The game is over.")
        _time_up_check(table)
        handler = _HANDLERS[intent.kind]
        return handler(table, seat, intent.fields)  # type: ignore[no-any-return]
    except _Bad as bad:
        return Reply(bad.refusal, table.v, changed=bad.changed)


def _ready(table: Table, seat: int, _fields: dict[str, Any]) -> Reply:
    if table.status != Table.Status.WAITING:
        raise _Bad("not_playing", "The game has already started." if table.status in Table.LIVE else _ended(table))
    if table.ready[seat]:
        return Reply(None, table.v, changed=False)
    table.ready[seat] = True
    fields = ["ready"]
    if all(table.ready):
        table.status, table.countdown_at = Table.Status.COUNTDOWN, now_ms()
        fields += ["status", "countdown_at"]
    bump(table, None, fields)
    return Reply(None, table.v, changed=True)


def _flip(table: Table, seat: int, fields: dict[str, Any]) -> Reply:
    if table.status != Table.Status.STUCK or table.flips is None:
        raise _Bad("not_playing", "Nobody is asked to flip now.")
    game = live_game_build(table, take=True)
    side = game.ruleset.side_of(seat)
    if not game.state.draws[side] or table.flips[side] is not None:
        raise _Bad("not_playing", "Your flip is not asked for: you have no draw pile card, or you flipped already.")
    table.flips[side] = fields["pile"]
    waiting = [index for index, draw in enumerate(game.state.draws) if draw and table.flips[index] is None]
    changed = ["flips"]
    if not waiting:
        _stall(table, game, _clock(table, game, now_ms()))
        changed = _ENDING_FIELDS
    bump(table, game, changed)
    return Reply(None, table.v, changed=True)


def _card_event(table: Table, seat: int, kind: str, fields: dict[str, Any]) -> tuple[Judge, dict[str, Any]]:
    """The game and the `kind` event (`play`, `move`) of `seat` now, if the table and the seat may move a card."""
    if table.status not in (Table.Status.PLAYING, Table.Status.STUCK):
        raise _Bad("not_playing", f"The table is {table.status}: no card may be played now.")
    if seat in table.out:
        raise _Bad("not_playing", "You resigned: the game goes on without you.")
    game = live_game_build(table, take=True)
    return game, {"t": _clock(table, game, now_ms()), "type": kind, "player": seat, **fields}


def _refused(table: Table, game: Judge, error: LogError) -> _Bad:
    live_game_keep(table.pk, table.v, game)  # nothing changed: the game is still the row's
    return _Bad(str(error.code), error.message)


def _play(table: Table, seat: int, fields: dict[str, Any]) -> Reply:
    game, raw = _card_event(table, seat, "play", fields)
    try:
        game.check(raw)
    except LogError as error:
        if error.code == "no_fit":
            collision = _collision(table, game, raw)
            if collision is not None:
                _record(table, game, collision)
                bump(table, game, [])
                raise _Bad("collision", "Another card landed on that pile just before yours.", changed=True) from None
        raise _refused(table, game, error) from None
    _record(table, game, raw)
    _after_move(table, game, raw["t"], seat)
    bump(table, game, _ENDING_FIELDS)
    return Reply(None, table.v, changed=True)


def _move(table: Table, seat: int, fields: dict[str, Any]) -> Reply:
    """A tableau move (Spit): a stock pile's top into an empty stock position, judged by the engine."""
    game, raw = _card_event(table, seat, "move", fields)
    try:
        game.check(raw)
    except LogError as error:
        raise _refused(table, game, error) from None
    _record(table, game, raw)
    _after_move(table, game, raw["t"], None)  # a move empties no stock: it never ends the game, but may unstick it
    bump(table, game, _ENDING_FIELDS)
    return Reply(None, table.v, changed=True)


def _collision(table: Table, game: Judge, raw: dict[str, Any]) -> dict[str, Any] | None:
    """The collision event for a `no_fit` play, if it is one (section 3.3), else None.

    The engine judges it: the standing play must be another seat's on the same
    pile (the latest event but collisions with it), and the card must have
    fitted the pile before it. The table adds its window: at most
    `collision_ms` between the two.
    """
    standing = game.standing
    if standing is None or raw["t"] - standing.t > table.settings["collision_ms"]:
        return None
    card = raw["cards"][0] if "cards" in raw else raw["card"]
    event = {"t": standing.t, "type": "collision", "player": raw["player"], "pile": raw["pile"], "card": card}
    try:
        game.check(event)
    except LogError:
        return None
    return event


def _stall(table: Table, game: Judge, t: int) -> None:
    """Unstick the table: a stall (stacks, or the draw piles' flips), or a reshuffle when every stack is empty."""
    state, ruleset = game.state, game.ruleset
    if ruleset.stalls_from_draw_piles:
        flips = table.flips or [None] * len(state.draws)
        piles = [
            (flips[index] if flips[index] is not None else index % ruleset.center_piles) if draw else None
            for index, draw in enumerate(state.draws)
        ]
        _record(table, game, {"t": t, "type": "stall", "piles": piles})
    elif state.tableau:
        # Spit: a seat out of spit cards first turns its spit pile, but its top, into new ones (shuffled here).
        for seat, spit_cards in enumerate(state.draws):
            if not spit_cards:
                order = [CARD_NAMES[card] for card in state.piles[seat][:-1]]
                secrets.SystemRandom().shuffle(order)
                _record(table, game, {"t": t, "type": "reshuffle", "player": seat, "order": order})
        _record(table, game, {"t": t, "type": "stall"})
    elif any(state.stacks):
        _record(table, game, {"t": t, "type": "stall"})
    else:
        order = [CARD_NAMES[card] for card in state.gathered_centre()]
        secrets.SystemRandom().shuffle(order)
        _record(table, game, {"t": t, "type": "reshuffle", "order": order})
    table.flips = None
    _after_move(table, game, t, None)


# -- ending early (amendment L3) ---------------------------------------------


def _time_up_check(table: Table) -> None:
    """Refuse whatever comes at or past a timed game's limit, ending the game first if no timer has yet."""
    ends = time_limit_ends(clock_of(table))
    if ends is None or now_ms() < ends:
        return
    game = _time_up(table, ends)
    bump(table, game, _ENDING_FIELDS)
    raise _Bad("time_up", "Time is up: the game was won on the cards played by its limit.", changed=True)


def _time_up(table: Table, at: int) -> Judge:
    """End a timed game at its limit: places by cards played by then, then fewer left, no Speed call."""
    limit = time_limit_ms(table.settings)
    assert limit is not None
    game = live_game_build(table, take=True)
    seats = len(table.players)
    played = cards_played_by(plays_by_seat(PassedPlays(game.ruleset, game.players, game.events).plays(), seats), limit)
    left = [game.state.remaining(seat) for seat in range(seats)]
    places = list(timed_places(played=played, left_at_limit=left, caller=None))
    result: dict[str, Any] = {"by": "time"}
    if seats == 2 and places.count(1) == 1:
        result["winner"] = places.index(1)
    else:
        result["places"] = places
    table.ended = {"by": "time", "seat": None, "t": limit, "at": at, "played": list(played)}
    table_finish(table=table, game=game, result=result, ending=Ending(by="time", seat=None, t=limit, places=places))
    return game


def _ended(table: Table) -> str:
    return f"The table is {table.status}: nothing more can be done at it."


def _abort(table: Table, seat: int, _fields: dict[str, Any]) -> Reply:
    if table.status not in Table.LIVE:
        raise _Bad("not_playing", _ended(table))
    if table.event_count and any(event["type"] == "play" for event in live_game_build(table).events):
        raise _Bad("not_playing", "A card has been played: resign instead of aborting.")
    table.status, table.stuck_at, table.flips = Table.Status.ABORTED, None, None
    table.ended = {"by": "abort", "seat": seat, "at": now_ms(), "t": None}
    bump(table, None, ["status", "stuck_at", "flips", "ended"])
    return Reply(None, table.v, changed=True)


def _resign(table: Table, seat: int, _fields: dict[str, Any]) -> Reply:
    if table.status not in (Table.Status.PLAYING, Table.Status.STUCK):
        raise _Bad("not_playing", "Only a game being played can be resigned; before the first card, abort it.")
    if seat in table.out:
        raise _Bad("not_playing", "You resigned already.")
    game = live_game_build(table, take=True)
    t = _clock(table, game, now_ms())
    table.out = [*table.out, seat]
    if len(_in_play(table)) <= 1 or game.ruleset.teams:  # a partner's resign is their team's
        _end_early(table, game, t, by="resign", seat=seat)
    elif table.status == Table.Status.PLAYING:
        _after_move(table, game, t, None)  # the seats left may be stuck without it
    bump(table, game, _ENDING_FIELDS)
    return Reply(None, table.v, changed=True)


def _claim(table: Table, seat: int, _fields: dict[str, Any]) -> Reply:
    now = now_ms()
    if table.status not in (Table.Status.PLAYING, Table.Status.STUCK):
        raise _Bad("not_playing", "There is no game being played to claim.")
    if not claimable(clock_of(table), seat, now):
        raise _Bad("not_playing", "You can claim the game once every other player has been away past its claim_at.")
    game = live_game_build(table, take=True)
    t = _clock(table, game, now)
    away = [other for other in _in_play(table) if other != seat]
    table.out = [*table.out, *away]
    _end_early(table, game, t, by="claim", seat=seat)
    assert table.ended is not None
    table.ended["against"] = away  # the seats claimed against, apart from any that resigned before
    bump(table, game, _ENDING_FIELDS)
    return Reply(None, table.v, changed=True)


def _in_play(table: Table) -> list[int]:
    return [seat for seat in range(len(table.players)) if seat not in table.out]


def _places(table: Table, game: Judge) -> list[int]:
    """Amendment L3's places: the seats in play by cards left (fewer first, equal shares), the resigned last,
    the last to resign placed best of them."""
    remaining = game.state.remaining
    in_play = sorted(_in_play(table), key=remaining)
    places = [0] * len(table.players)
    for index, seat in enumerate(in_play):
        earlier = in_play[index - 1] if index else None
        tied = earlier is not None and remaining(earlier) == remaining(seat)
        places[seat] = places[earlier] if tied and earlier is not None else index + 1
    for offset, seat in enumerate(reversed(table.out)):
        places[seat] = len(in_play) + offset + 1
    return places


def _team_places(game: Judge, seat: int, by: str) -> list[int]:
    """A team game ended early is won by a team: the other one when `seat` resigned, `seat`'s when it claimed."""
    ruleset = game.ruleset
    side = ruleset.side_of(seat)
    return [1 if (ruleset.side_of(other) == side) == (by == "claim") else 2 for other in range(len(game.players))]


def _end_early(table: Table, game: Judge, t: int, *, by: str, seat: int) -> None:
    """End the game by a resign or a claim (amendment L3): `seat` resigned, or claimed."""
    teams = game.ruleset.teams
    places = _team_places(game, seat, by) if teams else _places(table, game)
    result: dict[str, Any] = {"by": by}
    if teams:
        result["winner_team"] = next(side for side, team in enumerate(teams) if places[team[0]] == 1)
    elif len(table.players) == 2:
        result["winner"] = places.index(1)
    else:
        result["places"] = places
    table.ended = {"by": by, "seat": seat, "t": t, "at": now_ms()}
    table_finish(table=table, game=game, result=result, ending=Ending(by=by, seat=seat, t=t, places=places))


_HANDLERS.update(ready=_ready, flip=_flip, play=_play, move=_move, abort=_abort, resign=_resign, claim=_claim)


# -- the clock -----------------------------------------------------------------


@transaction.atomic
def _no_show(table: Table) -> Judge | None:
    """A seat that never sat down within no_show_ms forfeits to those that did (amendment L5); None when
    nobody or everybody came (the table waits for its abort, or its players)."""
    humans = [seat for seat, level in enumerate(table.bots) if level is None]
    came = set(
        TableSeat.objects.filter(table=table, seat__in=humans, seen__isnull=False).values_list("seat", flat=True)
    )
    absent = [seat for seat in humans if seat not in came]
    if not came or not absent:
        table.settings = {**table.settings, "no_show_ms": None}  # the abort timer stays
        return None
    game = live_game_build(table, take=True)
    table.started_at, table.out = None, absent
    places = [1 if seat not in absent else len(table.players) - len(absent) + 1 for seat in range(len(table.players))]
    result: dict[str, Any] = {"by": "no_show"}
    if len(table.players) == 2:
        result["winner"] = places.index(1)
    else:
        result["places"] = places
    table.ended = {"by": "no_show", "seat": absent[0], "t": 0, "at": now_ms()}
    table_finish(table=table, game=game, result=result, ending=Ending(by="no_show", seat=absent[0], t=0, places=places))
    return game


@transaction.atomic
def table_tick(*, table_id: int, now: int | None = None) -> Reply:
    """Record what the table's clock makes due now (idempotent: re-checked under the row's lock)."""
    table = Table.objects.select_for_update().filter(pk=table_id).first()
    if table is None:
        return Reply(None, -1, changed=False)
    reply = _tick(table, now_ms() if now is None else now)
    return replace(reply, table=table) if reply.changed else reply


def _silent_seats(table: Table, now: int) -> list[int]:
    """Seats shown present whose connection fell silent (amendment L2), marked away on their own rows.

    Each is marked by an UPDATE that holds only while its last beat is still too old, so a beat landing
    meanwhile keeps its seat present, and the next beat of a seat marked finds the mark
    (`presence.seat_beat`) and shows it present again.
    """
    present = [seat for seat, since in enumerate(table.away) if since is None and table.bots[seat] is None]
    if not present:
        return []
    stale = TableSeat.objects.filter(
        table=table, channel__gt="", seen__lte=now - stale_after_ms(), away_since__isnull=True
    )
    candidates = list(stale.filter(seat__in=present).values_list("seat", flat=True))
    return [seat for seat in candidates if stale.filter(seat=seat).update(away_since=now)]


def _tick(table: Table, now: int) -> Reply:
    if table.status not in Table.LIVE:
        return Reply(None, table.v, changed=False)
    changed: list[str] = []
    silent = _silent_seats(table, now)
    for seat in silent:
        # Its server process died (or the database was away): the seat is away from now, when the service
        # noticed, not from its last beat; so an outage that kept every beat from landing cannot abandon
        # the players at once when it ends, and their next beats show them present again.
        table.away[seat] = now
    if silent:
        changed.append("away")
    game: Judge | None = None
    timer = next_timer(clock_of(table))
    if timer is not None and now >= timer.at:
        game = _fire(table, timer.kind, timer.at)
        changed += _ENDING_FIELDS
        if timer.kind == "no_show":
            changed.append("settings")  # judged once: its no_show_ms is spent
    if not changed:
        if table.due_at != (None if timer is None else timer.at):  # a row saved before due_at was kept
            table.due_at = None if timer is None else timer.at
            table.save(update_fields=["due_at"])
        return Reply(None, table.v, changed=False)
    bump(table, game, changed)
    return Reply(None, table.v, changed=True)


def _fire(table: Table, kind: str, at: int) -> Judge | None:
    """Record one due timer; the game, when one was rebuilt to do it."""
    if kind == "abort":
        table.status = Table.Status.ABORTED
        table.ended = {"by": "abort", "seat": None, "t": None, "at": at}
        return None
    if kind == "abandon":
        table.status, table.stuck_at, table.flips = Table.Status.ABANDONED, None, None
        return None
    if kind == "no_show":
        return _no_show(table)
    if kind == "time_limit":
        return _time_up(table, at)
    game = live_game_build(table, take=True)
    if kind == "start":
        table.started_at = at
        table.status = Table.Status.PLAYING
        _after_move(table, game, 0, None)
    else:  # stall
        assert table.started_at is not None
        _stall(table, game, max(at - table.started_at, game.previous))
    return game
