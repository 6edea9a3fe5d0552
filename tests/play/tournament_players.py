"""Players of a tournament played at the tables, driven in-process through the referee's own services.

Each player who comes takes their seat (`presence.seat_take`, as a socket does), readies and plays with
the bots' one brain (`speedrules.bots`, through `play.bots`), intent by intent (`referee.table_intent`).
Time is driven, never waited for: the table's next timer (`play.timers.next_timer`) is fired by
`table_tick(now=its due time)`. Every step runs in its own captured commit, so what a commit enqueues
(a log's verification, the outbox) runs at once, in-process and in order.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection
from typing import Any

from django.contrib.auth.models import User

from play.bots import bot_aim, bot_play_fields
from play.messages import Intent
from play.models import Table
from play.services import live_game_build, table_intent, table_tick
from play.services.presence import seat_take
from play.services.referee import clock_of
from play.timers import next_timer

#: The bots' level every player plays at (quick hands, runs where a ruleset allows them).
LEVEL = "hard"


class TablePlayers:
    """Everyone who plays at the site's tables; `absent(table, handle)` says who never sits down there."""

    def __init__(self, capture: Any, *, absent: Callable[[Table, str], bool] | None = None, seed: int = 7) -> None:
        self.capture = capture
        self.absent = absent or (lambda table, handle: False)
        self.rng = random.Random(seed)
        self.seated: set[int] = set()
        self.moves = 0

    def step(self, action: Callable[[], Any]) -> Any:
        with self.capture(execute=True):
            return action()

    def live(self) -> list[Table]:
        return list(Table.objects.filter(status__in=Table.LIVE).order_by("pk"))

    def round_of_play(self) -> bool:
        """One step at every live table; False when no table is live."""
        tables = self.live()
        for table in tables:
            self.act(table.pk)
        return bool(tables)

    def act(self, table_id: int) -> None:
        table = Table.objects.get(pk=table_id)
        if table.status == Table.Status.WAITING and table.pk not in self.seated:
            self.seated.add(table.pk)
            for seat, handle in enumerate(table.players):
                if not self.absent(table, handle):
                    self.step(
                        lambda seat=seat: seat_take(table_id=table_id, seat=seat, channel=f"bot-{table_id}-{seat}")
                    )
                    self.step(
                        lambda seat=seat: table_intent(table_id=table_id, seat=seat, intent=Intent("ready", None))
                    )
            return
        if table.status == Table.Status.PLAYING and self.play(table):
            return
        self.wait_for_clock(table_id)

    def play(self, table: Table) -> bool:
        """The first seat (from a random one) with a card to play plays it; False when nobody can."""
        game = live_game_build(table)
        seats = list(range(len(table.players)))
        self.rng.shuffle(seats)
        for seat in seats:
            if seat in table.out:
                continue
            aim = bot_aim(game.state, seat, LEVEL, self.rng)
            if aim is None:
                continue
            fields = bot_play_fields(aim, multi_card=game.ruleset.multi_card)
            self.moves += 1
            ref = f"m{self.moves}"
            reply = self.step(
                lambda seat=seat, ref=ref, fields=fields: table_intent(
                    table_id=table.pk, seat=seat, intent=Intent("play", ref, fields)
                )
            )
            assert reply.refusal is None, reply.refusal
            return True
        return False

    def wait_for_clock(self, table_id: int) -> None:
        """Nothing to do but wait: fire the table's next timer at its due time (the countdown, a stall, a no-show)."""
        table = Table.objects.get(pk=table_id)
        timer = next_timer(clock_of(table))
        assert timer is not None, f"table {table_id} ({table.status}) waits on nothing"
        self.step(lambda: table_tick(table_id=table_id, now=timer.at))

    def play_until_quiet(self, *, most_rounds: int = 200_000) -> None:
        for _ in range(most_rounds):
            if not self.round_of_play():
                return
        raise AssertionError("the tables never went quiet")


def users_of(players: Collection[Any]) -> dict[str, User]:
    return {player.handle: player.user for player in players}
