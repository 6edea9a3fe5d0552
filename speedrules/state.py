"""The table: where every card is at one moment of a game, and the moves that change it.

`GameState` applies moves it is told are legal; checking legality (and saying
why a move is not) is the judge's job (`judge.py`), as python-chess separates
`push` from `is_legal`. The simulator, the judge (the verifier's and a live
table's) and the step replay share this class, so a simulated game, its
verification and its replay agree on the rules by construction.

Cards are `Card` numbers (`cards.py`). Piles, stacks and draw piles are lists
whose *last* element is the top card: taking the top is then `pop()`, which
costs nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import EMPTY_PILE, JOKER, Card, fit_sets_of, fit_table_of
from .events import Collision, Event, Move, Play, Reshuffle, SpeedCall, Stall
from .rulesets import Ruleset


class _Layout:
    """Where a ruleset's deal puts each stretch of the deck, and its fit tables: worked out once per ruleset.

    Deck slices, in the order spec section 4 (as the extension amends it) deals:
    per seat its hand, its stock piles and, without teams, its draw pile; then
    each team's draw pile; the starters; the replacement stacks. The first card
    dealt to a pile is its top, which goes last in the engine's lists: those
    slices run backwards.
    """

    __slots__ = ("draws", "fits_on", "fitting", "hands", "seat_draws", "sides", "stacks", "starters", "stock")

    def __init__(self, ruleset: Ruleset) -> None:
        self.fits_on = fit_table_of(ruleset.same_rank, ruleset.joker_on_joker)
        self.fitting = fit_sets_of(ruleset.same_rank, ruleset.joker_on_joker)
        hand_size, draw_size = ruleset.hand_size, ruleset.draw_size
        hands, stock, draws = [], [], []
        position = 0
        for _seat in range(ruleset.players):
            hands.append(slice(position, position + hand_size))
            position += hand_size
            piles = []
            for size in ruleset.tableau:
                piles.append(_backwards(position, position + size))
                position += size
            stock.append(tuple(piles))
            if not ruleset.teams:
                draws.append(_backwards(position, position + draw_size))
                position += draw_size
        for _team in ruleset.teams:
            draws.append(_backwards(position, position + draw_size))
            position += draw_size
        self.hands: tuple[slice, ...] = tuple(hands)
        self.stock: tuple[tuple[slice, ...], ...] = tuple(stock)
        self.draws: tuple[slice, ...] = tuple(draws)
        self.starters = slice(position, position + ruleset.center_piles)
        position += ruleset.center_piles
        size = ruleset.stack_size
        self.stacks: tuple[slice, ...] = tuple(
            _backwards(position + stack * size, position + (stack + 1) * size) for stack in range(ruleset.stacks)
        )
        #: Per seat: the draw pile it draws from (its team's in a team game), and the seats of its side.
        self.seat_draws = tuple(ruleset.side_of(seat) for seat in range(ruleset.players))
        self.sides: tuple[tuple[int, ...], ...] = tuple(
            ruleset.teams[ruleset.side_of(seat)] if ruleset.teams else (seat,) for seat in range(ruleset.players)
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
    """Hands, draw piles, stock piles, centre piles and replacement stacks of one game.

    `draws` has one draw pile per side (a seat, or a team); `seat_draws[seat]`
    is the very list `seat` draws from, shared by partners. `stock[seat]` are
    the seat's stock piles in a tableau game (each list's last card is its
    face-up top), empty otherwise. In a tableau game a seat's draw pile holds
    its spit cards and centre pile `p` is seat `p`'s spit pile.
    """

    __slots__ = (
        "draws",
        "fits_on",
        "fitting",
        "hand_size",
        "hands",
        "piles",
        "ruleset",
        "seat_draws",
        "sides",
        "stacks",
        "stock",
        "tableau",
        "tops",
        "winner",
    )

    def __init__(self, ruleset: Ruleset, deck: list[Card]) -> None:
        """Deal `deck` (a checked pack, first card dealt first) as spec section 4 says."""
        entry = _LAYOUTS.get(id(ruleset))  # `_layout_of`, its common case inlined: every game is dealt here
        layout = entry[1] if entry is not None and entry[0] is ruleset else _layout_of(ruleset)
        self.ruleset = ruleset
        self.hand_size = ruleset.hand_size  # read after every play
        #: `fits_on[card][top]`: whether `card` may go on a pile showing `top` (the one fit rule).
        self.fits_on = layout.fits_on
        #: `fitting[top]`: the cards that may go on a pile showing `top` (the same rule, by pile).
        self.fitting = layout.fitting
        cut = deck.__getitem__
        self.hands: list[list[Card]] = list(map(cut, layout.hands))
        self.draws: list[list[Card]] = list(map(cut, layout.draws))
        # Without teams each seat draws from its own pile: the same list serves.
        self.seat_draws: list[list[Card]] = (
            [self.draws[index] for index in layout.seat_draws] if ruleset.teams else self.draws
        )
        self.sides = layout.sides
        self.tableau = bool(ruleset.tableau)
        self.stock: list[list[list[Card]]] = [list(map(cut, piles)) for piles in layout.stock] if self.tableau else []
        #: The card each centre pile shows, `EMPTY_PILE` for an empty one.
        self.tops: list[Card] = deck[layout.starters]
        self.piles: list[list[Card]] = [[starter] for starter in self.tops]
        self.stacks: list[list[Card]] = list(map(cut, layout.stacks))
        self.winner: int | None = None

    # -- reading -------------------------------------------------------------

    def fits(self, card: Card, pile: int) -> bool:
        """Whether `card` may go on centre pile `pile` as it shows now."""
        return self.fits_on[card][self.tops[pile]]

    def remaining(self, seat: int) -> int:
        """The cards `seat`'s side must still get rid of (extension section 5).

        In a tableau game the seat's stock cards (not its spit cards); otherwise
        the hands of the side's seats and the side's draw pile.
        """
        if self.tableau:
            return sum(map(len, self.stock[seat]))
        hands = self.hands
        return sum(len(hands[partner]) for partner in self.sides[seat]) + len(self.seat_draws[seat])

    def is_last_card(self, seat: int, count: int = 1) -> bool:
        """Whether playing `count` cards would leave `seat`'s side with no remaining cards."""
        return self.remaining(seat) == count

    def playable(self, seat: int) -> list[Card]:
        """The cards `seat` may play: their hand, or in a tableau game the face-up tops of their stock piles."""
        if self.tableau:
            return [pile[-1] for pile in self.stock[seat] if pile]
        return self.hands[seat]

    def legal_plays(self, seat: int) -> list[tuple[Card, int, int | None]]:
        """Every (card, pile, stock pile or None) that `seat` could legally play as a one-card play now."""
        lone_joker = self.is_last_card(seat)
        if self.tableau:
            sources: list[tuple[Card, int | None]] = [
                (pile[-1], index) for index, pile in enumerate(self.stock[seat]) if pile
            ]
        else:
            # A duplicate card (two decks) is the same move.
            sources = [(card, None) for card in dict.fromkeys(self.hands[seat])]
        plays = []
        for card, source in sources:
            if lone_joker and card == JOKER:
                continue  # a joker may never be a side's last remaining card
            row = self.fits_on[card]
            for pile, top in enumerate(self.tops):
                if row[top]:
                    plays.append((card, pile, source))
        return plays

    def legal_single_plays(self, seat: int) -> list[tuple[Card, int]]:
        """Every (card, pile) that `seat` could legally play as a one-card play now."""
        return [(card, pile) for card, pile, _source in self.legal_plays(seat)]

    def turning_moves(self, seat: int) -> list[tuple[int, int]]:
        """Every (from, to) stock move of `seat` that turns up a card: `to` empty, `from` with a card under its top."""
        if not self.tableau:
            return []
        piles = self.stock[seat]
        empty = [index for index, pile in enumerate(piles) if not pile]
        if not empty:
            return []
        return [(source, target) for source, pile in enumerate(piles) if len(pile) > 1 for target in empty]

    def can_move(self, seat: int) -> bool:
        """Whether some one-card play by `seat` would be legal, or some move would turn up a card."""
        playable = self.playable(seat)
        if playable and not (len(playable) == 1 and playable[0] == JOKER and self.is_last_card(seat)):
            fitting = self.fitting
            if any(not fitting[top].isdisjoint(playable) for top in self.tops):
                return True
        return bool(self.turning_moves(seat))

    def first_mover(self) -> int | None:
        """The first seat that can move, or None (every stall asks)."""
        if self.tableau or self.ruleset.teams:
            return next((seat for seat in range(len(self.hands)) if self.can_move(seat)), None)
        # Speed: `can_move` for each seat in one loop.
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
        card anywhere in the centre may be one some playable card fits on,
        because a reshuffle could bring any centre card to the top. With spit
        cards, stalls and reshuffles can bring any spit-pile card and any spit
        card to the top of a spit pile, so none of them may take a playable card.
        """
        if self.winner is not None:
            return False
        if self.ruleset.stalls_from_draw_piles:
            return not any(self.draws)
        if self.ruleset.stalls_from_stacks:
            if any(self.stacks):
                return False
            reachable = {card for pile in self.piles for card in pile}
        else:
            reachable = {card for pile in (*self.piles, *self.draws) for card in pile}
        for seat in range(len(self.hands)):
            lone_joker = self.is_last_card(seat)
            for card in self.playable(seat):
                if card == JOKER and lone_joker:
                    continue  # a lone last joker can never be played
                row = self.fits_on[card]
                if any(row[top] for top in reachable):
                    return False
        return True

    # -- moves (legality already checked) ------------------------------------

    def apply(self, event: Event) -> None:
        """Make the move of an event the judge has checked (python-chess's `push`)."""
        if type(event) is Play:
            _t, seat, pile, cards, source = event
            if source is not None:
                self.play_from_stock(seat, source, pile)
            elif len(cards) > 1:
                self.play(seat, cards, pile)
            else:  # `play` of one card, the commonest move, without its loops
                card = cards[0]
                hand = self.hands[seat]
                hand.remove(card)
                self.piles[pile].append(card)
                self.tops[pile] = card
                draw = self.seat_draws[seat]
                if draw and len(hand) < self.hand_size:
                    # Before the play the hand was full or the draw pile empty (a partner may
                    # have drawn it dry), so one card refills it.
                    hand.append(draw.pop())
        elif type(event) is Stall:
            if event.piles is not None:
                self.flip_draw_piles(event.piles)
            elif self.tableau:
                self.flip_spit_cards()
            else:
                self.flip_stacks()
        elif type(event) is Reshuffle:
            if event.seat is not None:
                self.reshuffle_spit(event.seat, event.order)
            else:
                self.reshuffle(event.order)
        elif type(event) is Move:
            self.move(event.seat, event.source, event.target)
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
        draw = self.seat_draws[seat]
        while draw and len(hand) < self.hand_size:
            hand.append(draw.pop())

    def play_from_stock(self, seat: int, source: int, pile: int) -> None:
        """Tableau game: the face-up top of stock pile `source` goes on `pile`; the card under it is turned up."""
        card = self.stock[seat][source].pop()
        self.piles[pile].append(card)
        self.tops[pile] = card

    def move(self, seat: int, source: int, target: int) -> None:
        """Tableau game: the face-up top of stock pile `source` moves into the empty position `target`."""
        self.stock[seat][target].append(self.stock[seat][source].pop())

    def flip_stacks(self) -> None:
        """Each non-empty replacement stack turns its top card onto its own centre pile."""
        for index, stack in enumerate(self.stacks):
            if stack:
                card = stack.pop()
                self.piles[index].append(card)
                self.tops[index] = card

    def flip_draw_piles(self, targets: Sequence[int | None]) -> None:
        """California stall: each draw pile with a card flips its top onto the pile named for it, in order."""
        for index, pile in enumerate(targets):
            if pile is not None and self.draws[index]:
                card = self.draws[index].pop()
                self.piles[pile].append(card)
                self.tops[pile] = card

    def flip_spit_cards(self) -> None:
        """Spit stall: every seat turns the top of its spit cards onto its own spit pile."""
        for seat, spit in enumerate(self.draws):
            card = spit.pop()
            self.piles[seat].append(card)
            self.tops[seat] = card

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
        self.tops[:] = [EMPTY_PILE] * len(self.piles)  # in place: the step replay holds this list
        self.flip_stacks()

    def reshuffle_spit(self, seat: int, order: Sequence[Card]) -> None:
        """Spit: the seat's spit pile keeps its top; the rest, shuffled into `order`, become its spit cards."""
        pile = self.piles[seat]
        del pile[:-1]
        # `order` is first card first, and the first is turned next, so it goes last.
        self.draws[seat][:] = reversed(order)
