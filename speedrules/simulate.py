"""A table of bots that race each other, producing speed-log/1 logs.

Each bot has its own reaction speed. After every change on the table, every
bot that can move picks a card (a run, sometimes, where runs are allowed)
and reaches for a pile; the quickest lands first. When the two quickest reach
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

from .cards import CARD_ID, CARD_NAMES, JOKER, Card, build_pack
from .rulesets import PRESETS, Ruleset
from .state import GameState

DEFAULT_PLAYERS = ("alice", "ben", "chloe", "dev")

#: Two reaches for one pile closer than this (ms) land at the same moment.
COLLISION_WINDOW_MS = 25
#: A runaway game (it would take a very unlucky shuffle) is cut off here and replayed with the next seed.
MAX_EVENTS = 4000


@dataclass(frozen=True, slots=True)
class Bot:
    """One player's hands: how fast they react and how keen they are on runs."""

    reaction_ms: int
    run_appetite: float

    def reaction(self, rng: random.Random) -> int:
        return max(120, int(rng.gauss(self.reaction_ms, self.reaction_ms * 0.35)))


@dataclass(frozen=True, slots=True)
class _Reach:
    seat: int
    at: int
    pile: int  # -1 for a stock move, which reaches for no centre pile
    cards: tuple[Card, ...]
    source: int | None = None  # tableau games: the stock pile the card comes from
    target: int | None = None  # a stock move: the empty position it goes to


def simulate(ruleset: Ruleset | str, *, seed: int, players: Sequence[str] | None = None) -> dict[str, Any]:
    """A valid speed-log/1 document of one game between bots, determined by `seed`."""
    rules = PRESETS[ruleset] if isinstance(ruleset, str) else ruleset
    names = list(players) if players is not None else list(DEFAULT_PLAYERS[: rules.players])
    if len(names) != rules.players:
        raise ValueError(f"this ruleset seats {rules.players} players; {len(names)} names were given")
    attempt = seed
    while True:
        log = _Table(rules, names, random.Random(attempt)).play_game()
        if log is not None:
            return log
        attempt += 1_000_003  # a different, still deterministic game


class _Table:
    def __init__(self, ruleset: Ruleset, names: list[str], rng: random.Random) -> None:
        self.ruleset = ruleset
        self.names = names
        self.rng = rng
        self.bots = [Bot(rng.randint(350, 1100), rng.uniform(0.3, 0.9)) for _ in names]
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
            if self.state.tableau:
                reach = self._tableau_reach(seat, bot)
                if reach is not None:
                    reaches.append(reach)
                continue
            plays = self.state.legal_single_plays(seat)
            if not plays:
                continue
            card, pile = self.rng.choice(plays)
            cards = self._extend_run(seat, card, bot) if self.ruleset.multi_card else (card,)
            reaches.append(_Reach(seat, self.now + bot.reaction(self.rng), pile, cards))
        reaches.sort(key=lambda reach: (reach.at, reach.seat))
        return reaches

    def _tableau_reach(self, seat: int, bot: Bot) -> _Reach | None:
        """Spit: a play from a stock pile's top when one fits, else a move that turns up a card."""
        plays = self.state.legal_plays(seat)
        at = self.now + bot.reaction(self.rng)
        if plays:
            card, pile, source = self.rng.choice(plays)
            return _Reach(seat, at, pile, (card,), source)
        moves = self.state.turning_moves(seat)
        if not moves:
            return None
        source, target = self.rng.choice(moves)
        return _Reach(seat, at, -1, (self.state.stock[seat][source][-1],), source, target)

    def _extend_run(self, seat: int, first: Card, bot: Bot) -> tuple[Card, ...]:
        """Grow a run from `first` with hand cards that each fit the one before."""
        run = [first]
        rest = list(self.state.hands[seat])
        rest.remove(first)
        while rest and self.rng.random() < bot.run_appetite:
            last = run[-1]
            nexts = [card for card in rest if self.state.fits_on[card][last]]
            if not nexts:
                break
            card = self.rng.choice(nexts)
            if card == JOKER and self.state.remaining(seat) - len(run) == 1:
                break  # a joker may never be the side's last remaining card
            run.append(card)
            rest.remove(card)
        return tuple(run)

    def _land(self, reaches: list[_Reach]) -> None:
        first = reaches[0]
        self.now = first.at
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
        if state.is_dead():
            if self.ruleset.players == 1:  # a stuck Speed Solitaire game is scored by the cards left
                return {"deadlock": True, "cards_left": state.remaining(0)}
            return {"deadlock": True}
        self.now += self.rng.randint(600, 1800)  # everyone looks, then agrees they are stuck
        if state.tableau:
            self._spit()
        elif not self.ruleset.stalls_from_stacks:
            targets: list[int | None] = [
                self.rng.randrange(self.ruleset.center_piles) if draw else None for draw in state.draws
            ]
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
