"""The bots' one brain: what a player of some level goes for next, and how long its hands take.

Pure and table-agnostic: it reads what a seat sees (its playable cards, the
centre piles' tops, its side's cards left) and never the deck, so the
simulator, a live table's practice bots (`play.bots`) and the socket clients
of `bench_tables` (`benchmarks.table_bots`) all choose with it.

A level is a `Bot`: how fast it reacts, how fast it lays a card it planned
while laying the last one (`follow_ms`), whether a reach under way survives a
change on the table that leaves it legal (`steady`), how keen it is on runs,
and how often it weighs its plays (`skill`) rather than taking any card that
fits. A weighed play sheds the most cards (the longest run where `multi_card`
allows runs), keeps the next plays open (a card the rest of the hand can follow)
and saves jokers, which fit anywhere, for when nothing else does. In a
draw-pile stall a weighing bot flips onto a pile nobody else flips onto, so no
fresh card is buried, covering the top that is least use to its hand.

A bot with `skill` 0 draws from its random source exactly as the simulator's
bots always have, so the simulator's logs for a seed stay what they were.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import EMPTY_PILE, JOKER, Card, FitTable

#: A play: its cards (one, or a run in order) and the centre pile.
Aim = tuple[tuple[Card, ...], int]

#: The ordinary cards (a card's number is rank * 4 + suit): the cards between two ranks.
_ORDINARY = range(4, 56)


@dataclass(frozen=True, slots=True)
class Bot:
    """One player's hands and habits."""

    reaction_ms: int
    run_appetite: float
    #: The chance that it weighs its plays; 0: any card that fits, at random.
    skill: float = 0.0
    #: The mean time of the next card right after its own play (0: as `reaction_ms`).
    follow_ms: int = 0
    #: Whether a reach under way survives another seat's change that leaves it legal.
    steady: bool = False
    #: The spread of its reaction times, as a fraction of the mean (0: like clockwork).
    spread: float = 0.35

    def reaction(self, rng: random.Random) -> int:
        """How long it takes to see a change and reach (ms)."""
        if not self.spread:
            return self.reaction_ms
        return max(120, int(rng.gauss(self.reaction_ms, self.reaction_ms * self.spread)))

    def delay(self, rng: random.Random, *, follow_up: bool) -> int:
        """The time of its next reach: `follow_up` when nothing changed since its own play."""
        if follow_up and self.follow_ms:
            if not self.spread:
                return self.follow_ms
            return max(80, int(rng.gauss(self.follow_ms, self.follow_ms * self.spread)))
        return self.reaction(rng)


@dataclass(frozen=True, slots=True)
class Level:
    """A level of the practice bots: its name for people and its bot."""

    label: str
    bot: Bot


#: From the slowest to the strongest; the keys are what a practice table stores and the API takes.
LEVELS: dict[str, Level] = {
    "beginner": Level("Beginner: slow, one card at a time", Bot(1600, 0.0, skill=0.0, steady=True)),
    "easy": Level("Easy: slow hands", Bot(1150, 0.3, skill=0.25, follow_ms=950, steady=True)),
    "medium": Level("Medium: steady hands", Bot(750, 0.6, skill=0.5, follow_ms=600, steady=True)),
    "hard": Level("Hard: quick hands, plays runs", Bot(450, 0.85, skill=0.8, follow_ms=340, steady=True)),
    "expert": Level(
        "Expert: as quick as a fast player, every run it sees",
        Bot(250, 1.0, skill=1.0, follow_ms=170, steady=True, spread=0.25),
    ),
}

#: A script playing a card every half second whenever one fits: no runs, no choices, no hesitation.
TWO_CARDS_A_SECOND = Bot(500, 0.0, steady=True, spread=0.0)


def choose_play(
    bot: Bot,
    hand: Sequence[Card],
    tops: Sequence[Card],
    *,
    left: int,
    fits_on: FitTable,
    multi_card: bool,
    rng: random.Random,
) -> Aim | None:
    """What `bot` goes for from `hand` on piles showing `tops`; None when nothing fits.

    `left`: the cards its side has left (hand and draw pile), for the rule that
    a joker is never a side's last card.
    """
    lone_joker = left == 1
    plays = [
        (card, pile)
        for card in dict.fromkeys(hand)  # a second deck's twin is the same play
        if not (lone_joker and card == JOKER)
        for pile, top in enumerate(tops)
        if fits_on[card][top]
    ]
    if not plays:
        return None
    if bot.skill and rng.random() < bot.skill:
        candidates = []
        for card, pile in plays:
            rest = list(hand)
            rest.remove(card)
            runs = _runs_from((card,), rest, left=left, fits_on=fits_on) if multi_card else [((card,), rest)]
            candidates += [(run, after, pile) for run, after in runs]
        return _weighed(candidates, tops, fits_on, rng)
    card, pile = rng.choice(plays)
    run = _grown_run(bot, card, hand, left=left, fits_on=fits_on, rng=rng) if multi_card else (card,)
    return run, pile


def _grown_run(
    bot: Bot, first: Card, hand: Sequence[Card], *, left: int, fits_on: FitTable, rng: random.Random
) -> tuple[Card, ...]:
    """Grow a run from `first` with hand cards that each fit the one before, while its appetite lasts."""
    run = [first]
    rest = list(hand)
    rest.remove(first)
    while rest and rng.random() < bot.run_appetite:
        last = run[-1]
        nexts = [card for card in rest if fits_on[card][last]]
        if not nexts:
            break
        card = rng.choice(nexts)
        if card == JOKER and left - len(run) == 1:
            break  # a joker may never be the side's last remaining card
        run.append(card)
        rest.remove(card)
    return tuple(run)


def _weighed(
    candidates: list[tuple[tuple[Card, ...], list[Card], int]],
    tops: Sequence[Card],
    fits_on: FitTable,
    rng: random.Random,
) -> Aim:
    """Of (run, the hand after it, pile): the one that sheds most, keeps the next plays open and spends no joker
    it can keep; ties at random."""
    best: list[Aim] = []
    best_score = -1_000
    for run, after, pile in candidates:
        score = _score(run, after, pile, tops, fits_on=fits_on)
        if score > best_score:
            best, best_score = [(run, pile)], score
        elif score == best_score:
            best.append((run, pile))
    return rng.choice(best)


def _runs_from(
    run: tuple[Card, ...], rest: list[Card], *, left: int, fits_on: FitTable
) -> list[tuple[tuple[Card, ...], list[Card]]]:
    """Every run that starts with `run` and grows from `rest` (a hand holds at most seven cards)."""
    found = [(run, rest)]
    for card in dict.fromkeys(rest):
        if not fits_on[card][run[-1]] or (card == JOKER and left - len(run) == 1):
            continue
        after = list(rest)
        after.remove(card)
        found += _runs_from((*run, card), after, left=left, fits_on=fits_on)
    return found


def _score(run: tuple[Card, ...], rest: list[Card], pile: int, tops: Sequence[Card], *, fits_on: FitTable) -> int:
    """Cards shed count most, then cards the rest of the hand could play next; each joker spent costs."""
    shown = list(tops)
    shown[pile] = run[-1]
    # A joker fits anywhere: counting it would make every play look as open as the next.
    next_plays = sum(1 for card in dict.fromkeys(rest) if card != JOKER and any(fits_on[card][top] for top in shown))
    return 10 * len(run) + 3 * next_plays - 20 * run.count(JOKER)


def aim_holds(aim: Aim, hand: Sequence[Card], tops: Sequence[Card], *, left: int, fits_on: FitTable) -> bool:
    """Whether the play `aim` is still legal from `hand` on `tops` (another seat may have covered its pile)."""
    cards, pile = aim
    rest = list(hand)
    for card in cards:
        if card not in rest:
            return False
        rest.remove(card)
    if cards[-1] == JOKER and left == len(cards):
        return False
    return pile < len(tops) and fits_on[cards[0]][tops[pile]]


def choose_flip(
    bot: Bot, hand: Sequence[Card], tops: Sequence[Card], *, taken: Sequence[int], fits_on: FitTable, rng: random.Random
) -> int:
    """The centre pile its draw pile's top card goes on in a draw-pile stall (California Speed).

    `taken`: the piles the other seats' cards go on. A weighing bot buries no
    other fresh card, and covers the top its hand is furthest from (fewest
    cards two steps away: the ones a single card could bridge to).
    """
    piles = len(tops)
    if not (bot.skill and rng.random() < bot.skill):
        return rng.randrange(piles)
    free = [pile for pile in range(piles) if pile not in taken] or list(range(piles))
    near = {pile: _two_steps(hand, tops[pile], fits_on) for pile in free}
    least = min(near.values())
    return rng.choice([pile for pile in free if near[pile] == least])


def _two_steps(hand: Sequence[Card], top: Card, fits_on: FitTable) -> int:
    if top == EMPTY_PILE:
        return 0
    return sum(1 for card in hand if any(fits_on[card][between] and fits_on[between][top] for between in _ORDINARY))


def choose_stock_play(
    bot: Bot,
    plays: list[tuple[Card, int, int | None]],
    moves: list[tuple[int, int]],
    stock: Sequence[Sequence[Card]],
    rng: random.Random,
) -> tuple[tuple[Card, int, int | None] | None, tuple[int, int] | None]:
    """Spit: a play from a stock pile's top (card, pile, stock pile), else a move that turns a card up.

    A weighing bot plays from the stock pile with the most cards under its top,
    turning up a card it can use next.
    """
    if plays:
        if bot.skill and rng.random() < bot.skill:
            deepest = max(len(stock[source]) for _card, _pile, source in plays if source is not None)
            return rng.choice([play for play in plays if play[2] is not None and len(stock[play[2]]) == deepest]), None
        return rng.choice(plays), None
    if moves:
        return None, rng.choice(moves)
    return None, None
