"""A table of bots that race each other, producing speed-log/1 logs.

Each bot has its own reaction speed, and chooses with the bots' one brain
(`bots.py`). After every change on the table, every bot that can move picks a
card (a run, sometimes, where runs are allowed) and reaches for a pile; the
quickest lands first. A steady bot (the levels are) keeps a reach under way
when the change leaves it legal. When the two quickest reach
for the same pile within a few milliseconds, they collide: the first card
stands and the other is taken back, as the rules say. When nobody can move
the table stalls (replacement stacks flip, or each player flips their own
draw pile in California Speed), reshuffles the centre when the stacks are
gone, and ends in a deadlock when no flip can ever free a move. The
extension's games play the same way: partners share a draw pile in Team
Speed; in Spit a bot plays the top of a stock pile, or moves one into an empty
position to turn a card up, and a seat out of spit cards reshuffles its spit
pile before everyone spits a card.

The moves go through the same `GameState` the verifier replays, so every
simulated log is valid by construction; the tests still verify each one.
The same seed always gives the same log.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .bots import Bot, aim_holds, choose_flip, choose_play, choose_stock_play
from .cards import CARD_ID, CARD_NAMES, Card, build_pack
from .rulesets import PRESETS, Ruleset
from .state import GameState

__all__ = ["Bot", "simulate"]

DEFAULT_PLAYERS = ("alice", "ben", "chloe", "dev")

#: Two reaches for one pile closer than this (ms) land at the same moment.
COLLISION_WINDOW_MS = 25
#: A runaway game (it would take a very unlucky shuffle) is cut off here and replayed with the next seed.
MAX_EVENTS = 4000


@dataclass(frozen=True, slots=True)
class _Reach:
    seat: int
    at: int
    pile: int  # -1 for a stock move, which reaches for no centre pile
    cards: tuple[Card, ...]
    source: int | None = None  # tableau games: the stock pile the card comes from
    target: int | None = None  # a stock move: the empty position it goes to


def simulate(
    ruleset: Ruleset | str,
    *,
    seed: int,
    players: Sequence[str] | None = None,
    bots: Sequence[Bot] | None = None,
) -> dict[str, Any]:
    """A valid speed-log/1 document of one game between bots, determined by `seed`.

    `bots`: one per seat (the levels of `speedrules.bots`, say); by default each
    seat gets a bot of its own random speed and appetite for runs.
    """
    rules = PRESETS[ruleset] if isinstance(ruleset, str) else ruleset
    names = list(players) if players is not None else list(DEFAULT_PLAYERS[: rules.players])
    if len(names) != rules.players:
        raise ValueError(f"this ruleset seats {rules.players} players; {len(names)} names were given")
    if bots is not None and len(bots) != rules.players:
        raise ValueError(f"this ruleset seats {rules.players} players; {len(bots)} bots were given")
    attempt = seed
    while True:
        log = _Table(rules, names, random.Random(attempt), bots).play_game()
        if log is not None:
            return log
        attempt += 1_000_003  # a different, still deterministic game


class _Table:
    def __init__(self, ruleset: Ruleset, names: list[str], rng: random.Random, bots: Sequence[Bot] | None) -> None:
        self.ruleset = ruleset
        self.names = names
        self.rng = rng
        self.bots = (
            list(bots) if bots is not None else [Bot(rng.randint(350, 1100), rng.uniform(0.3, 0.9)) for _ in names]
        )
        #: Each seat's reach under way, kept across a change by a steady bot while it stays legal.
        self.aims: dict[int, _Reach] = {}
        #: The seat whose play landed last, when nothing has changed since: its next card follows on.
        self.follower: int | None = None
        self.deck = build_pack(decks=ruleset.decks, jokers=ruleset.jokers)
        rng.shuffle(self.deck)
        self.state = GameState(ruleset, [CARD_ID[name] for name in self.deck])
        self.events: list[dict[str, Any]] = []
        self.now = 0

    def play_game(self) -> dict[str, Any] | None:
        """Play to the end; None when the game ran away (the caller reseeds)."""
        result: dict[str, Any] | None = None
        while result is None:
            if len(self.events) > MAX_EVENTS:
                return None
            reaches = self._reaches()
            if reaches:
                self._land(reaches)
                result = self._speed_if_done(reaches[0].seat)
            else:
                result = self._unstick()
        return {
            "format": "speed-log/1",
            "ruleset": self.ruleset.to_json(),
            "players": self.names,
            "deck": self.deck,
            "events": self.events,
            "result": result,
            "recorder": "speed engine simulator",
        }

    # -- moving ---------------------------------------------------------------

    def _reaches(self) -> list[_Reach]:
        """What each bot that can move goes for, quickest first."""
        reaches = []
        for seat, bot in enumerate(self.bots):
            kept = self.aims.get(seat)
            if kept is not None and bot.steady and self._holds(kept):
                reaches.append(kept)
                continue
            reach = self._tableau_reach(seat, bot) if self.state.tableau else self._hand_reach(seat, bot)
            if reach is not None:
                reaches.append(reach)
        reaches.sort(key=lambda reach: (reach.at, reach.seat))
        self.aims = {reach.seat: reach for reach in reaches}
        return reaches

    def _hand_reach(self, seat: int, bot: Bot) -> _Reach | None:
        state = self.state
        aim = choose_play(
            bot,
            state.hands[seat],
            state.tops,
            left=state.remaining(seat),
            fits_on=state.fits_on,
            multi_card=self.ruleset.multi_card,
            rng=self.rng,
        )
        if aim is None:
            return None
        cards, pile = aim
        return _Reach(seat, self.now + bot.delay(self.rng, follow_up=seat == self.follower), pile, cards)

    def _tableau_reach(self, seat: int, bot: Bot) -> _Reach | None:
        """Spit: a play from a stock pile's top when one fits, else a move that turns up a card."""
        state = self.state
        plays = state.legal_plays(seat)
        at = self.now + bot.delay(self.rng, follow_up=seat == self.follower)
        play, move = choose_stock_play(bot, plays, state.turning_moves(seat), state.stock[seat], self.rng)
        if play is not None:
            card, pile, source = play
            return _Reach(seat, at, pile, (card,), source)
        if move is None:
            return None
        source, target = move
        return _Reach(seat, at, -1, (state.stock[seat][source][-1],), source, target)

    def _holds(self, reach: _Reach) -> bool:
        """Whether a reach under way is still legal on the table as it now stands."""
        state = self.state
        if reach.target is not None:  # a stock move: only its own seat changes its stock piles
            assert reach.source is not None
            return not state.stock[reach.seat][reach.target] and len(state.stock[reach.seat][reach.source]) > 1
        if reach.source is not None:
            stock = state.stock[reach.seat][reach.source]
            return bool(stock) and stock[-1] == reach.cards[0] and state.fits(reach.cards[0], reach.pile)
        return aim_holds(
            (reach.cards, reach.pile),
            state.hands[reach.seat],
            state.tops,
            left=state.remaining(reach.seat),
            fits_on=state.fits_on,
        )

    def _land(self, reaches: list[_Reach]) -> None:
        first = reaches[0]
        self.now = first.at
        self.follower = first.seat
        del self.aims[first.seat]
        if first.target is not None:  # a stock move: it lands on no centre pile
            assert first.source is not None
            self.events.append(
                {
                    "t": first.at,
                    "type": "move",
                    "player": first.seat,
                    "card": CARD_NAMES[first.cards[0]],
                    "from": first.source,
                    "to": first.target,
                }
            )
            self.state.move(first.seat, first.source, first.target)
            return
        event: dict[str, Any] = {"t": first.at, "type": "play", "player": first.seat, "pile": first.pile}
        if len(first.cards) > 1:
            event["cards"] = [CARD_NAMES[card] for card in first.cards]
        else:
            event["card"] = CARD_NAMES[first.cards[0]]
        if first.source is not None:
            event["from"] = first.source
            self.state.play_from_stock(first.seat, first.source, first.pile)
        else:
            self.state.play(first.seat, first.cards, first.pile)
        self.events.append(event)
        for other in reaches[1:]:
            if other.at - first.at > COLLISION_WINDOW_MS:
                break
            if other.pile == first.pile:
                # Both hands landed together: the other card is taken back.
                del self.aims[other.seat]
                self.events.append(
                    {
                        "t": first.at,
                        "type": "collision",
                        "player": other.seat,
                        "card": CARD_NAMES[other.cards[0]],
                        "pile": other.pile,
                    }
                )

    def _speed_if_done(self, last: int) -> dict[str, Any] | None:
        """The player who laid their side's last card calls Speed (in Speed, the only one who can)."""
        for seat in (last, *range(len(self.bots))):
            if self.state.remaining(seat) == 0:
                self.now += self.rng.randint(150, 600)
                self.events.append({"t": self.now, "type": "speed", "player": seat})
                self.state.winner = seat
                if self.ruleset.teams:
                    return {"winner_team": self.ruleset.side_of(seat)}
                return {"winner": seat}
        return None

    # -- stuck ------------------------------------------------------------------

    def _unstick(self) -> dict[str, Any] | None:
        """Nobody can move: flip, reshuffle, or call the game dead."""
        state = self.state
        self.aims.clear()
        self.follower = None
        if state.is_dead():
            if self.ruleset.players == 1:  # a stuck Speed Solitaire game is scored by the cards left
                return {"deadlock": True, "cards_left": state.remaining(0)}
            return {"deadlock": True}
        self.now += self.rng.randint(600, 1800)  # everyone looks, then agrees they are stuck
        if state.tableau:
            self._spit()
        elif not self.ruleset.stalls_from_stacks:
            targets: list[int | None] = []
            for side, draw in enumerate(state.draws):
                taken = [pile for pile in targets if pile is not None]
                targets.append(self._flip(side, taken) if draw else None)
            self.events.append({"t": self.now, "type": "stall", "piles": targets})
            state.flip_draw_piles(targets)
        elif any(state.stacks):
            self.events.append({"t": self.now, "type": "stall"})
            state.flip_stacks()
        else:
            order = state.gathered_centre()
            self.rng.shuffle(order)
            self.now += self.rng.randint(2000, 5000)  # gathering and shuffling takes a moment
            self.events.append({"t": self.now, "type": "reshuffle", "order": [CARD_NAMES[card] for card in order]})
            state.reshuffle(order)
        return None

    def _flip(self, side: int, taken: list[int]) -> int:
        """Where the draw pile of `side` (a seat, or a team: its first seat flips) goes in a stall."""
        state = self.state
        seat = self.ruleset.teams[side][0] if self.ruleset.teams else side
        return choose_flip(
            self.bots[seat], state.hands[seat], state.tops, taken=taken, fits_on=state.fits_on, rng=self.rng
        )

    def _spit(self) -> None:
        """Spit: each seat out of spit cards reshuffles its spit pile but the top, then every seat spits a card."""
        state = self.state
        for seat, spit in enumerate(state.draws):
            if not spit:
                order = state.piles[seat][:-1]
                self.rng.shuffle(order)
                self.now += self.rng.randint(1500, 3000)
                self.events.append(
                    {"t": self.now, "type": "reshuffle", "player": seat, "order": [CARD_NAMES[card] for card in order]}
                )
                state.reshuffle_spit(seat, order)
        self.events.append({"t": self.now, "type": "stall"})
        state.flip_spit_cards()
