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

from .cards import EMPTY_PILE, JOKER, Card, fit_table
from .rulesets import Ruleset


class GameState:
    """Hands, draw piles, centre piles and replacement stacks of one game."""

    __slots__ = ("draws", "fits_on", "hands", "piles", "ruleset", "stacks", "tops", "winner")

    def __init__(self, ruleset: Ruleset, deck: Sequence[Card]) -> None:
        """Deal `deck` (a checked pack, first card dealt first) as spec section 4 says."""
        self.ruleset = ruleset
        #: `fits_on[card][top]`: whether `card` may go on a pile showing `top` (the one fit rule).
        self.fits_on = fit_table(same_rank=ruleset.same_rank, joker_on_joker=ruleset.joker_on_joker)
        hand_size, draw_size = ruleset.hand_size, ruleset.draw_size
        position = 0
        self.hands: list[list[Card]] = []
        self.draws: list[list[Card]] = []
        for _seat in range(ruleset.players):
            self.hands.append(list(deck[position : position + hand_size]))
            position += hand_size
            # The first card dealt to a draw pile is its top, so it goes last.
            self.draws.append(list(deck[position : position + draw_size])[::-1])
            position += draw_size
        starters = deck[position : position + ruleset.center_piles]
        self.piles: list[list[Card]] = [[card] for card in starters]
        position += ruleset.center_piles
        self.stacks: list[list[Card]] = []
        for _stack in range(ruleset.stacks):
            self.stacks.append(list(deck[position : position + ruleset.stack_size])[::-1])
            position += ruleset.stack_size
        #: The card each centre pile shows, `EMPTY_PILE` for an empty one.
        self.tops: list[Card] = list(starters)
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
        if not hand:
            return False
        tops = self.tops
        lone_joker = len(hand) == 1 and not self.draws[seat]
        fits_on = self.fits_on
        for card in hand:
            if card == JOKER and lone_joker:
                continue
            row = fits_on[card]
            for top in tops:
                if row[top]:
                    return True
        return False

    def anyone_can_move(self) -> bool:
        return any(self.can_move(seat) for seat in range(len(self.hands)))

    def first_mover(self) -> int | None:
        """A seat that can move, or None; for messages."""
        for seat in range(len(self.hands)):
            if self.can_move(seat):
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
