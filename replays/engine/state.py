"""The table: where every card is at one moment of a game, and the moves that change it.

`GameState` applies moves it is told are legal; checking legality (and saying
why a move is not) is the verifier's job, as python-chess separates `push`
from `is_legal`. The simulator and the verifier share this class, so a
simulated game and its verification agree on the rules by construction.

Cards are `Card` numbers (`cards.py`). Piles, stacks and draw piles are lists
whose *last* element is the top card: taking the top is then `pop()`, which
costs nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import EMPTY_PILE, JOKER, Card, fit_sets_of, fit_table_of
from .events import Collision, Event, Play, Reshuffle, SpeedCall, Stall
from .rulesets import Ruleset


class _Layout:
    """Where a ruleset's deal puts each stretch of the deck, and its fit tables: worked out once per ruleset."""

    __slots__ = ("draws", "fits_on", "fitting", "hands", "stacks", "starters")

    def __init__(self, ruleset: Ruleset) -> None:
        self.fits_on = fit_table_of(ruleset.same_rank, ruleset.joker_on_joker)
        self.fitting = fit_sets_of(ruleset.same_rank, ruleset.joker_on_joker)
        hand_size, draw_size = ruleset.hand_size, ruleset.draw_size
        # Slices of the deck. The first card dealt to a draw pile or a stack is its
        # top, which goes last in the engine's lists: their slices run backwards.
        hands, draws = [], []
        position = 0
        for _seat in range(ruleset.players):
            hands.append(slice(position, position + hand_size))
            position += hand_size
            draws.append(_backwards(position, position + draw_size))
            position += draw_size
        self.hands: tuple[slice, ...] = tuple(hands)
        self.draws: tuple[slice, ...] = tuple(draws)
        self.starters = slice(position, position + ruleset.center_piles)
        position += ruleset.center_piles
        size = ruleset.stack_size
        self.stacks: tuple[slice, ...] = tuple(
            _backwards(position + stack * size, position + (stack + 1) * size) for stack in range(ruleset.stacks)
        )


def _backwards(start: int, end: int) -> slice:
    """The slice that reads `deck[start:end]` from its end to its start."""
    return slice(end - 1, start - 1 if start else None, -1)


# Layouts by ruleset object (a game's ruleset comes from a cache, so a few objects serve
# nearly every game); each entry holds its ruleset, so an id is never reused while listed.
_LAYOUTS: dict[int, tuple[Ruleset, _Layout]] = {}
_MAX_LAYOUTS = 1024


def _layout_of(ruleset: Ruleset) -> _Layout:
    entry = _LAYOUTS.get(id(ruleset))
    if entry is not None and entry[0] is ruleset:
        return entry[1]
    layout = _Layout(ruleset)
    if len(_LAYOUTS) < _MAX_LAYOUTS:
        _LAYOUTS[id(ruleset)] = (ruleset, layout)
    return layout


class GameState:
    """Hands, draw piles, centre piles and replacement stacks of one game."""

    __slots__ = ("draws", "fits_on", "fitting", "hands", "piles", "ruleset", "stacks", "tops", "winner")

    def __init__(self, ruleset: Ruleset, deck: list[Card]) -> None:
        """Deal `deck` (a checked pack, first card dealt first) as spec section 4 says."""
        layout = _layout_of(ruleset)
        self.ruleset = ruleset
        #: `fits_on[card][top]`: whether `card` may go on a pile showing `top` (the one fit rule).
        self.fits_on = layout.fits_on
        #: `fitting[top]`: the cards that may go on a pile showing `top` (the same rule, by pile).
        self.fitting = layout.fitting
        cut = deck.__getitem__
        self.hands: list[list[Card]] = list(map(cut, layout.hands))
        self.draws: list[list[Card]] = list(map(cut, layout.draws))
        #: The card each centre pile shows, `EMPTY_PILE` for an empty one.
        self.tops: list[Card] = deck[layout.starters]
        self.piles: list[list[Card]] = list(map(list, zip(self.tops)))
        self.stacks: list[list[Card]] = list(map(cut, layout.stacks))
        self.winner: int | None = None

    # -- reading -------------------------------------------------------------

    def fits(self, card: Card, pile: int) -> bool:
        """Whether `card` may go on centre pile `pile` as it shows now."""
        return self.fits_on[card][self.tops[pile]]

    def is_last_card(self, seat: int, count: int = 1) -> bool:
        """Whether playing `count` cards would leave `seat` with no cards at all."""
        return len(self.hands[seat]) == count and not self.draws[seat]

    def legal_single_plays(self, seat: int) -> list[tuple[Card, int]]:
        """Every (card, pile) that `seat` could legally play as a one-card play now."""
        lone_joker = self.is_last_card(seat)
        plays = []
        for card in dict.fromkeys(self.hands[seat]):  # a duplicate card (two decks) is the same move
            if lone_joker and card == JOKER:
                continue
            row = self.fits_on[card]
            for pile, top in enumerate(self.tops):
                if row[top]:
                    plays.append((card, pile))
        return plays

    def can_move(self, seat: int) -> bool:
        """Whether some one-card play by `seat` would be legal (spec section 5)."""
        hand = self.hands[seat]
        if not hand or (len(hand) == 1 and hand[0] == JOKER and not self.draws[seat]):
            return False  # nothing in hand, or a lone last joker, which may never be played
        fitting = self.fitting
        return any(not fitting[top].isdisjoint(hand) for top in self.tops)

    def anyone_can_move(self) -> bool:
        return self.first_mover() is not None

    def first_mover(self) -> int | None:
        """The first seat that can move, or None: `can_move` for each seat, in one loop (every stall asks)."""
        fitting, tops, draws = self.fitting, self.tops, self.draws
        for seat, hand in enumerate(self.hands):
            if not hand or (len(hand) == 1 and hand[0] == JOKER and not draws[seat]):
                continue
            for top in tops:
                if not fitting[top].isdisjoint(hand):
                    return seat
        return None

    def is_dead(self) -> bool:
        """Whether no flip or reshuffle can ever free a move (spec section 6, deadlock).

        Assumes nobody can move now. With draw-pile stalls the game is dead when
        no draw pile has a card. With stacks, every stack must be empty and no
        card anywhere in the centre may be one some hand card fits on, because a
        reshuffle could bring any centre card to the top.
        """
        if self.winner is not None:
            return False
        if not self.ruleset.stalls_from_stacks:
            return not any(self.draws)
        if any(self.stacks):
            return False
        centre = {card for pile in self.piles for card in pile}
        for seat, hand in enumerate(self.hands):
            lone_joker = self.is_last_card(seat)
            for card in hand:
                if card == JOKER and lone_joker:
                    continue
                row = self.fits_on[card]
                if any(row[top] for top in centre):
                    return False
        return True

    def cards_left(self, seat: int) -> int:
        """Cards `seat` still has to get rid of: hand and draw pile together."""
        return len(self.hands[seat]) + len(self.draws[seat])

    # -- moves (legality already checked) ------------------------------------

    def apply(self, event: Event) -> None:
        """Make the move of an event the verifier has checked (python-chess's `push`)."""
        if type(event) is Play:
            if len(event.cards) == 1:
                self.play_card(event.seat, event.cards[0], event.pile)
            else:
                self.play(event.seat, event.cards, event.pile)
        elif type(event) is Stall:
            if event.piles is None:
                self.flip_stacks()
            else:
                self.flip_draw_piles(event.piles)
        elif type(event) is Reshuffle:
            self.reshuffle(event.order)
        elif type(event) is SpeedCall:
            self.winner = event.seat
        else:
            assert type(event) is Collision  # nothing moves: the card is taken back

    def play(self, seat: int, cards: Sequence[Card], pile: int) -> None:
        """Put a run of `cards` from `seat`'s hand on `pile` in order, then refill the hand once."""
        hand = self.hands[seat]
        target = self.piles[pile]
        for card in cards:
            hand.remove(card)
            target.append(card)
        self.tops[pile] = cards[-1]
        draw = self.draws[seat]
        while draw and len(hand) < self.ruleset.hand_size:
            hand.append(draw.pop())

    def play_card(self, seat: int, card: Card, pile: int) -> None:
        """`play` of one card, the commonest move, without the loops."""
        hand = self.hands[seat]
        hand.remove(card)
        self.piles[pile].append(card)
        self.tops[pile] = card
        draw = self.draws[seat]
        if draw:
            # Before the play the hand was full or the draw pile empty, so one card refills it.
            hand.append(draw.pop())

    def flip_stacks(self) -> None:
        """Each non-empty replacement stack turns its top card onto its own centre pile."""
        for index, stack in enumerate(self.stacks):
            if stack:
                card = stack.pop()
                self.piles[index].append(card)
                self.tops[index] = card

    def flip_draw_piles(self, targets: Sequence[int | None]) -> None:
        """California stall: each player with a draw pile flips its top onto their chosen pile, in seat order."""
        for seat, pile in enumerate(targets):
            if pile is not None and self.draws[seat]:
                card = self.draws[seat].pop()
                self.piles[pile].append(card)
                self.tops[pile] = card

    def gathered_centre(self) -> list[Card]:
        """All centre cards, as a reshuffle gathers them."""
        return [card for pile in self.piles for card in pile]

    def reshuffle(self, order: Sequence[Card]) -> None:
        """Gather the centre, split `order` into the stacks in contiguous runs, then flip."""
        for pile in self.piles:
            pile.clear()
        stack_count = len(self.stacks)
        base, extra = divmod(len(order), stack_count)
        position = 0
        for index in range(stack_count):
            size = base + (1 if index < extra else 0)
            # The first card of each run is that stack's top, so it goes last.
            self.stacks[index] = list(reversed(order[position : position + size]))
            position += size
        self.tops[:] = [EMPTY_PILE] * len(self.piles)  # in place: the verifier holds this list
        self.flip_stacks()
