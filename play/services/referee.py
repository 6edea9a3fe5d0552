"""The referee: a table's intents and timers, one at a time under the table row's lock (speed-table/1 section 3).

Every change here takes `Table.objects.select_for_update()` first, so the
intents of one table are handled in one order whichever server process holds
each connection. Each rebuilds the game from the stored events (or a game
cached at the row's very `v`), asks the engine whether an event may come next
(`LiveGame.check`: the verifier's own checks), appends the event rows, bumps
`v` and commits; only then does the caller tell the connections. A timer
(countdown, stall, default flips, abandonment) is a `table_tick`: it re-reads
the row under the lock and records only what is due at that moment, so the
same timer firing in two processes records one event.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, replace
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef

from speedrules import LiveGame, LogError
from speedrules.cards import CARD_ID, CARD_NAMES

from ..models import Table, TableEvent, TableRef
from .finish import table_finish
from .live import live_game_build, live_game_keep, now_ms

_ON = (Table.Status.COUNTDOWN, Table.Status.PLAYING, Table.Status.STUCK)
#: The fields a move may change (with `v` and `event_count`, which every change saves).
_GAME_FIELDS = ["status", "started_at", "stuck_at", "flips", "result", "log", "practice_log", "practice_log_code"]
MAX_REF = 64


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


def _lock(table_id: int, *, ref_of: tuple[int, str] | None = None) -> Table:
    """The table row, locked; with `ref_of` (seat, ref), also whether that seat used that ref (`ref_used`).

    The ref is checked in the locking statement itself: one round trip fewer on every play.
    """
    tables = Table.objects.select_for_update()
    if ref_of is not None:
        seat, ref = ref_of
        tables = tables.annotate(ref_used=Exists(TableRef.objects.filter(table=OuterRef("pk"), seat=seat, ref=ref)))
    return tables.get(pk=table_id)


def _bump(table: Table, game: LiveGame | None, fields: list[str]) -> None:
    """Save the changed fields with the next `v`; the rebuilt game goes back to the cache after commit."""
    table.v += 1
    table.save(update_fields=[*fields, "v", "event_count"])
    if game is not None:
        table_id, v = table.pk, table.v
        transaction.on_commit(lambda: live_game_keep(table_id, v, game))


def _record(table: Table, game: LiveGame, raw: dict[str, Any]) -> None:
    """Check and apply one event, and store it (before any state that shows it is sent)."""
    game.push(raw)
    TableEvent.objects.create(table=table, index=table.event_count, data=raw)
    table.event_count += 1


def _clock(table: Table, game: LiveGame, now: int) -> int:
    assert table.started_at is not None
    return max(now - table.started_at, game.previous)


def _after_move(table: Table, game: LiveGame, t: int, seat: int | None) -> None:
    """After a move: the automatic Speed call, or stuck, or a deadlock (section 3, 4 and 5)."""
    state = game.state
    if seat is not None and state.remaining(seat) == 0:
        _record(table, game, {"t": t, "type": "speed", "player": seat})
        table_finish(table=table, game=game, result={"winner": seat})
        return
    if state.first_mover() is not None:
        table.status, table.stuck_at, table.flips = Table.Status.PLAYING, None, None
        return
    if state.is_dead():
        table_finish(table=table, game=game, result={"deadlock": True})
        return
    table.status, table.stuck_at = Table.Status.STUCK, t
    table.flips = [None] * len(state.draws) if game.ruleset.stalls_from_draw_piles else None


# -- reading an intent ---------------------------------------------------------


def _card(value: object) -> str:
    if type(value) is not str or value not in CARD_ID:
        raise _Bad("bad_message", f"{value!r} is not a card (cards are written like 9C, 10H, QS, JK).")
    return value


def _pile(value: object, piles: int) -> int:
    if type(value) is not int or not 0 <= value < piles:
        raise _Bad("bad_message", f"`pile` must be a centre pile, 0 to {piles - 1}; it is {value!r}.")
    return value


def _read(message: dict[str, Any], table: Table) -> tuple[str, dict[str, Any]]:
    """The intent's type and fields, checked for form (`bad_message`) against the table's ruleset."""
    kind = message.get("type")
    piles = int(table.ruleset.get("center_piles", 2))
    if kind == "ready":
        return kind, {}
    if kind == "flip":
        return kind, {"pile": _pile(message.get("pile"), piles)}
    if kind != "play":
        raise _Bad("bad_message", f"Unknown message type {kind!r}; expected ready, play, flip or ping.")
    fields: dict[str, Any] = {"pile": _pile(message.get("pile"), piles)}
    if "cards" in message:
        cards = message["cards"]
        if not table.ruleset.get("multi_card") or type(cards) is not list or not 1 <= len(cards) <= 20:
            raise _Bad("bad_message", "`cards` is a list of cards, and only with a multi_card ruleset.")
        fields["cards"] = [_card(card) for card in cards]
    else:
        fields["card"] = _card(message.get("card"))
    return kind, fields


def read_ref(message: dict[str, Any]) -> str | None:
    """The intent's `ref`, or None; `bad_message` when it is not a string of at most 64 characters."""
    ref = message.get("ref")
    if ref is None:
        return None
    if type(ref) is not str or len(ref) > MAX_REF:
        raise _Bad("bad_message", f"`ref` must be a string of at most {MAX_REF} characters.")
    return ref


# -- the services --------------------------------------------------------------


def table_intent(*, table_id: int, seat: int | None, message: dict[str, Any]) -> Reply:
    """Handle one client message (ready, play, flip) from `seat` (None: a spectator), in the spec's order."""
    try:
        return _intent_locked(table_id, seat, message)
    except IntegrityError:
        # The same play sent at once through two processes: the second's check ran before the first
        # committed, its insert of the ref then met the first's. The first was applied; this one never is.
        ref = message.get("ref")
        if seat is None or not TableRef.objects.filter(table_id=table_id, seat=seat, ref=ref).exists():
            raise
        return Reply(None, Table.objects.values_list("v", flat=True).get(pk=table_id), changed=False)


@transaction.atomic
def _intent_locked(table_id: int, seat: int | None, message: dict[str, Any]) -> Reply:
    try:
        ref = read_ref(message)
    except _Bad as bad:
        return Reply(bad.refusal, _lock(table_id).v, changed=False)
    ref_of = (seat, ref) if seat is not None and ref is not None and message.get("type") == "play" else None
    table = _lock(table_id, ref_of=ref_of)
    reply = _intent(table, seat, ref, message)
    return replace(reply, table=table) if reply.changed else reply


def _intent(table: Table, seat: int | None, ref: str | None, message: dict[str, Any]) -> Reply:
    try:
        kind, fields = _read(message, table)
        if seat is None:
            raise _Bad("not_seated", "You are watching: only the players at the table play.")
        if kind == "play" and ref is not None:
            # Under the table row's lock no other intent of this table runs: the lock's own check, then the
            # insert, without get_or_create's savepoint.
            if table.ref_used:  # type: ignore[attr-defined]  # annotated by _lock
                return Reply(None, table.v, changed=False)  # never applied again, whatever became of the first
            TableRef.objects.create(table=table, seat=seat, ref=ref)
        if table.status == Table.Status.OVER:
            raise _Bad("game_over", "The game is over.")
        if kind == "ready":
            return _ready(table, seat)
        if kind == "flip":
            return _flip(table, seat, fields["pile"])
        return _play(table, seat, fields)
    except _Bad as bad:
        return Reply(bad.refusal, table.v, changed=bad.changed)


def _ready(table: Table, seat: int) -> Reply:
    if table.status != Table.Status.WAITING:
        raise _Bad("not_playing", "The game has already started.")
    if table.ready[seat]:
        return Reply(None, table.v, changed=False)
    table.ready[seat] = True
    fields = ["ready"]
    if all(table.ready):
        table.status, table.countdown_at = Table.Status.COUNTDOWN, now_ms()
        fields += ["status", "countdown_at"]
    _bump(table, None, fields)
    return Reply(None, table.v, changed=True)


def _flip(table: Table, seat: int, pile: int) -> Reply:
    if table.status != Table.Status.STUCK or table.flips is None:
        raise _Bad("not_playing", "Nobody is asked to flip now.")
    game = live_game_build(table, take=True)
    side = game.ruleset.side_of(seat)
    if not game.state.draws[side] or table.flips[side] is not None:
        raise _Bad("not_playing", "Your flip is not asked for: you have no draw pile card, or you flipped already.")
    table.flips[side] = pile
    waiting = [index for index, draw in enumerate(game.state.draws) if draw and table.flips[index] is None]
    fields = ["flips"]
    if not waiting:
        _stall(table, game, _clock(table, game, now_ms()))
        fields = _GAME_FIELDS
    _bump(table, game, fields)
    return Reply(None, table.v, changed=True)


def _play(table: Table, seat: int, fields: dict[str, Any]) -> Reply:
    if table.status not in (Table.Status.PLAYING, Table.Status.STUCK):
        raise _Bad("not_playing", f"The table is {table.status}: no card may be played now.")
    game = live_game_build(table, take=True)
    t = _clock(table, game, now_ms())
    raw: dict[str, Any] = {"t": t, "type": "play", "player": seat, **fields}
    try:
        game.check(raw)
    except LogError as error:
        if error.code == "no_fit":
            collision = _collision(table, game, raw)
            if collision is not None:
                _record(table, game, collision)
                _bump(table, game, [])
                raise _Bad("collision", "Another card landed on that pile just before yours.", changed=True) from None
        live_game_keep(table.pk, table.v, game)  # nothing changed: the game is still the row's
        raise _Bad(str(error.code), error.message) from None
    _record(table, game, raw)
    _after_move(table, game, t, seat)
    _bump(table, game, _GAME_FIELDS)
    return Reply(None, table.v, changed=True)


def _collision(table: Table, game: LiveGame, raw: dict[str, Any]) -> dict[str, Any] | None:
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


def _stall(table: Table, game: LiveGame, t: int) -> None:
    """Unstick the table: a stall (stacks, or the draw piles' flips), or a reshuffle when every stack is empty."""
    state, ruleset = game.state, game.ruleset
    if ruleset.stalls_from_draw_piles:
        flips = table.flips or [None] * len(state.draws)
        piles = [
            (flips[index] if flips[index] is not None else index % ruleset.center_piles) if draw else None
            for index, draw in enumerate(state.draws)
        ]
        _record(table, game, {"t": t, "type": "stall", "piles": piles})
    elif any(state.stacks):
        _record(table, game, {"t": t, "type": "stall"})
    else:
        order = [CARD_NAMES[card] for card in state.gathered_centre()]
        secrets.SystemRandom().shuffle(order)
        _record(table, game, {"t": t, "type": "reshuffle", "order": order})
    table.flips = None
    _after_move(table, game, t, None)


@transaction.atomic
def table_tick(*, table_id: int, now: int | None = None) -> Reply:
    """Record what the table's clock makes due now (idempotent: re-checked under the row's lock)."""
    table = _lock(table_id)
    reply = _tick(table, now_ms() if now is None else now)
    return replace(reply, table=table) if reply.changed else reply


def _tick(table: Table, now: int) -> Reply:
    changed_fields: list[str] = []
    game: LiveGame | None = None
    stale = _stale_seats(table, now)
    for seat in stale:  # its server process died: the seat is away since its last heartbeat
        table.channels[seat], table.away_since[seat] = None, _seen(table)[seat]
    if stale:
        changed_fields = ["channels", "away_since"]
    if table.status in _ON:
        away = [
            since
            for seat, since in enumerate(table.away_since)
            if since is not None and table.bots[seat] is None and table.channels[seat] is None
        ]
        if away and now - min(away) >= table.settings["abandon_ms"]:
            table.status = Table.Status.ABANDONED
            _bump(table, None, ["status", *changed_fields])
            return Reply(None, table.v, changed=True)
    if table.status == Table.Status.COUNTDOWN:
        assert table.countdown_at is not None
        starts = table.countdown_at + table.settings["countdown_ms"]
        if now >= starts:
            game = live_game_build(table, take=True)
            table.started_at = starts
            table.status = Table.Status.PLAYING
            _after_move(table, game, 0, None)
            changed_fields += _GAME_FIELDS
    elif table.status == Table.Status.STUCK:
        assert table.started_at is not None and table.stuck_at is not None
        due = table.stuck_at + table.settings["stall_ms"]
        if now - table.started_at >= due:
            game = live_game_build(table, take=True)
            _stall(table, game, max(due, game.previous))
            changed_fields += _GAME_FIELDS
    if not changed_fields:
        return Reply(None, table.v, changed=False)
    _bump(table, game, changed_fields)
    return Reply(None, table.v, changed=True)


def table_next_due(table: Table) -> int | None:
    """The epoch ms of the table's next timer (countdown, stall, abandonment), or None."""
    dues = []
    if table.status in _ON:
        away = [
            since
            for seat, since in enumerate(table.away_since)
            if since is not None and table.bots[seat] is None and table.channels[seat] is None
        ]
        if away:
            dues.append(min(away) + table.settings["abandon_ms"])
    if table.status not in (Table.Status.OVER, Table.Status.ABANDONED):
        dues.extend(
            seen + _stale_after()
            for channel, seen in zip(table.channels, _seen(table), strict=True)
            if channel is not None and seen is not None
        )
    if table.status == Table.Status.COUNTDOWN and table.countdown_at is not None:
        dues.append(table.countdown_at + table.settings["countdown_ms"])
    if table.status == Table.Status.STUCK and table.started_at is not None and table.stuck_at is not None:
        dues.append(table.started_at + table.stuck_at + table.settings["stall_ms"])
    return min(dues) if dues else None


@transaction.atomic
def table_connect(*, table_id: int, user_id: int | None, channel: str) -> tuple[int | None, str | None]:
    """A connection opened: the seat it takes (None: a spectator) and the connection it replaces, if any."""
    table = _lock(table_id)
    seat = next(
        (index for index, owner in enumerate(table.seat_users) if user_id is not None and owner == user_id), None
    )
    if seat is None:
        return None, None
    replaced = table.channels[seat]
    table.channels[seat] = channel
    table.away_since[seat] = None
    _seen(table)[seat] = now_ms()
    _bump(table, None, ["channels", "away_since", "seen"])
    return seat, replaced


@transaction.atomic
def table_disconnect(*, table_id: int, seat: int, channel: str) -> bool:
    """A seat's connection closed: the seat is away, unless another connection took it since."""
    table = _lock(table_id)
    if table.channels[seat] != channel:
        return False
    table.channels[seat] = None
    table.away_since[seat] = now_ms()
    _bump(table, None, ["channels", "away_since"])
    return True


def _seen(table: Table) -> list[int | None]:
    if len(table.seen) != len(table.players):
        table.seen = [None] * len(table.players)
    seen: list[int | None] = table.seen
    return seen


def _stale_after() -> int:
    """A connection silent for this long (ms) is gone: three heartbeats missed."""
    return 3 * int(settings.SPEED_TABLE_HEARTBEAT_MS)


def _stale_seats(table: Table, now: int) -> list[int]:
    return [
        seat
        for seat, (channel, seen) in enumerate(zip(table.channels, _seen(table), strict=True))
        if channel is not None and seen is not None and now - seen >= _stale_after()
    ]


@transaction.atomic
def table_heartbeat(*, table_id: int, seat: int, channel: str) -> bool:
    """A seat's connection is alive; False when it no longer holds the seat (another connection took it)."""
    table = _lock(table_id)
    if table.channels[seat] not in (channel, None):
        return False
    _seen(table)[seat] = now_ms()
    if table.channels[seat] is None:  # it was taken for gone while alive (a stalled process): it is back
        table.channels[seat], table.away_since[seat] = channel, None
        _bump(table, None, ["channels", "away_since", "seen"])
    else:
        table.save(update_fields=["seen"])
    return True


@transaction.atomic
def table_bot_lease(*, table_id: int, owner: str, for_ms: int) -> bool:
    """Take or renew the right to run the table's bots (one process at a time); False if another holds it."""
    table = _lock(table_id)
    now = now_ms()
    if table.bot_lease not in ("", owner) and table.bot_lease_until > now:
        return False
    table.bot_lease, table.bot_lease_until = owner, now + for_ms
    table.save(update_fields=["bot_lease", "bot_lease_until"])
    return True
