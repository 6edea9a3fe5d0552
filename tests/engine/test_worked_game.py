"""The worked game of the Speed rules text (rules/002, "A worked game"), as a concrete log.

The story: Alice and Ben each hold five over a draw pile of fifteen; the
starters are an eight and a jack. Alice puts a 9 and a 10 on the eight before
Ben moves; Ben puts Q, K, A on the jack. The cards each still has to get rid
of (hand and draw pile) go 20/20, 14/15, 9/8, 5/5, 2/3, 0/3:

    run 1: Alice 6, Ben 5   -> stall (four left in each stack)
    run 2: Alice 5, Ben 7   -> stall
    run 3: Alice 4, Ben 3   -> stall (Alice's draw pile is empty)
    run 4: Alice 3, Ben 2   -> stall
    run 5: Alice 2, and "Speed"

At the end Alice has laid all twenty, Ben has three left, the two starters,
the eight flipped replacements and the 37 cards played (47) are in the centre,
and one card is left in each replacement stack.

The deck and plays below were found once by a small randomized search (cards
dealt lazily: a hand card's identity is fixed only when it is played, subject
to every stall it sat through, so that at each stall no card in either hand
fits either pile) and pasted here. The verifier itself checks that each stall
is legal; `test_each_stall_is_forced` checks that none could come one play
sooner.
"""

from __future__ import annotations

from typing import Any

import pytest

from speedrules import ErrorCode, Step, verify_document

from .logbuilder import deal, log, play, speed, stall, verify
from .tables import ALICE, BEN, SPEED

ALICE_HAND = ["9S", "10S", "10H", "QS", "6S"]
ALICE_DRAW = ["7S", "QH", "2S", "AS", "3S", "6H", "7H", "7D", "2H", "2D", "KS", "AH", "QD", "4S", "4H"]
BEN_HAND = ["QC", "KH", "AD", "3H", "5S"]
BEN_DRAW = ["8S", "6D", "JS", "JH", "6C", "5H", "8H", "3D", "9H", "2C", "4D", "JD", "10D", "9D", "4C"]
STARTERS = ["8D", "JC"]
STACKS = [["5D", "KD", "9C", "10C", "5C"], ["8C", "KC", "3C", "AC", "7C"]]

DECK = deal(
    SPEED,
    hands=[ALICE_HAND, BEN_HAND],
    draws=[ALICE_DRAW, BEN_DRAW],
    starters=STARTERS,
    stacks=STACKS,
)

Play = tuple[int, str, int]  # seat, card, pile

RUNS: list[list[Play]] = [
    # Alice 9 and 10 on the eight before Ben moves; Ben Q, K, A on the jack; then the rest of the flurry.
    [
        (ALICE, "9S", 0),
        (ALICE, "10S", 0),
        (BEN, "QC", 1),
        (BEN, "KH", 1),
        (BEN, "AD", 1),
        (BEN, "JS", 0),
        (ALICE, "QH", 0),
        (BEN, "JH", 0),
        (ALICE, "2S", 1),
        (ALICE, "10H", 0),
        (ALICE, "3S", 1),
    ],
    # After the flip of 5D and 8C.
    [
        (ALICE, "6S", 0),
        (ALICE, "7S", 0),
        (BEN, "6C", 0),
        (BEN, "5H", 0),
        (ALICE, "7D", 1),
        (BEN, "8H", 1),
        (BEN, "6D", 0),
        (BEN, "5S", 0),
        (ALICE, "7H", 1),
        (BEN, "8S", 1),
        (ALICE, "6H", 0),
        (BEN, "9H", 1),
    ],
    # After the flip of KD and KC.
    [
        (ALICE, "AS", 0),
        (ALICE, "KS", 0),
        (ALICE, "QD", 0),
        (ALICE, "QS", 1),
        (BEN, "JD", 1),
        (BEN, "10D", 1),
        (BEN, "9D", 1),
    ],
    # After the flip of 9C and 3C.
    [(ALICE, "2H", 1), (BEN, "3H", 1), (ALICE, "4H", 1), (BEN, "3D", 1), (ALICE, "4S", 1)],
    # After the flip of 10C and AC: Alice's last two, then "Speed".
    [(ALICE, "2D", 1), (ALICE, "AH", 1)],
]

PLAYS_PER_RUN = [(6, 5), (5, 7), (4, 3), (3, 2), (2, 0)]
CARDS_LEFT_AFTER_RUN = [(14, 15), (9, 8), (5, 5), (2, 3), (0, 3)]
STACKS_AFTER_STALL = [(4, 4), (3, 3), (2, 2), (1, 1)]


def build_events(*, early_stall: int | None = None) -> tuple[list[dict[str, Any]], list[int]]:
    """The events, and the index of the event that closes each run (its stall, or the last run's Speed).

    `early_stall` moves that run's stall one play sooner (before the run's last play).
    """
    events: list[dict[str, Any]] = []
    closers: list[int] = []
    t = 0
    for number, plays in enumerate(RUNS):
        for index, (seat, card, pile) in enumerate(plays):
            if number == early_stall and index == len(plays) - 1:
                t += 900
                events.append(stall(t))
            t += 400
            events.append(play(t, seat, card, pile))
        t += 1500
        closers.append(len(events))
        events.append(speed(t, ALICE) if number == len(RUNS) - 1 else stall(t))
    return events, closers


EVENTS, CLOSERS = build_events()


@pytest.fixture(scope="module")
def steps() -> tuple[Step, ...]:
    verdict = verify(log(SPEED, DECK, EVENTS, result={"winner": ALICE}, players=["alice", "ben"]))
    assert (verdict.code, verdict.event, verdict.winner) == (ErrorCode.OK, None, ALICE), verdict.message
    assert verdict.steps is not None and len(verdict.steps) == len(EVENTS) + 1
    return verdict.steps


def after(steps: tuple[Step, ...], event: int) -> Step:
    step = steps[event + 1]
    assert step.event == event
    return step


def test_the_story_has_the_runs_of_the_rules_text() -> None:
    per_run = [tuple(sum(seat == player for seat, _card, _pile in plays) for player in (ALICE, BEN)) for plays in RUNS]
    assert per_run == PLAYS_PER_RUN
    assert sum(event["type"] == "stall" for event in EVENTS) == 4


def test_the_worked_game_is_valid_and_alice_wins(steps: tuple[Step, ...]) -> None:
    assert {step.total for step in steps} == {52}


def test_the_deal(steps: tuple[Step, ...]) -> None:
    dealt = steps[0]
    assert dealt.cards_left == (20, 20)
    assert [len(hand) for hand in dealt.hands] == [5, 5] and dealt.draws == (15, 15)
    assert [card[:-1] for card in dealt.pile_tops if card] == ["8", "J"]
    assert {"9", "10"} <= {card[:-1] for card in dealt.hands[ALICE]}


def test_the_opening_flurry(steps: tuple[Step, ...]) -> None:
    # Alice's 9 and 10 on the eight before Ben moves, then Ben's Q, K, A on the jack (the order wraps).
    opening = [(event["player"], event["card"][:-1], event["pile"]) for event in EVENTS[:5]]
    assert opening == [(ALICE, "9", 0), (ALICE, "10", 0), (BEN, "Q", 1), (BEN, "K", 1), (BEN, "A", 1)]
    assert steps[0].pile_tops == ("8D", "JC")


def test_the_counts_after_each_run(steps: tuple[Step, ...]) -> None:
    # Read at the stall (or Speed) that closes each run: it moves no card of a hand or a draw pile.
    assert [after(steps, closer).cards_left for closer in CLOSERS] == CARDS_LEFT_AFTER_RUN


def test_the_step_after_each_play_shows_the_card_down_and_the_count(steps: tuple[Step, ...]) -> None:
    left = [20, 20]
    for index, event in enumerate(EVENTS):
        if event["type"] != "play":
            continue
        left[event["player"]] -= 1
        step = after(steps, index)
        assert step.pile_tops[event["pile"]] == event["card"], (index, event)
        assert step.cards_left == tuple(left), (index, event)


def test_each_stall_flips_one_card_from_each_stack(steps: tuple[Step, ...]) -> None:
    stalls = CLOSERS[:-1]
    assert [after(steps, closer).stacks for closer in stalls] == STACKS_AFTER_STALL
    for number, closer in enumerate(stalls):
        flipped = (STACKS[0][number], STACKS[1][number])
        assert after(steps, closer).pile_tops == flipped


@pytest.mark.parametrize("run", range(4))
def test_each_stall_is_forced(run: int) -> None:
    # One play sooner, the player who made the run's last play could still have made it.
    events, _closers = build_events(early_stall=run)
    early = CLOSERS[run] - 1  # where the run's last play was
    assert events[early]["type"] == "stall"
    verdict = verify(log(SPEED, DECK, events, result={"winner": ALICE}))
    assert (verdict.code, verdict.event) == (ErrorCode.STALL_WITH_MOVE, early), verdict.message


def test_alices_draw_pile_runs_out_in_the_third_run(steps: tuple[Step, ...]) -> None:
    before_third, after_third = CLOSERS[1], CLOSERS[2]
    assert after(steps, before_third).draws[ALICE] == 4
    assert after(steps, after_third).draws[ALICE] == 0
    assert after(steps, after_third).hands[ALICE] and len(after(steps, after_third).hands[ALICE]) == 5


def test_the_end(steps: tuple[Step, ...]) -> None:
    end = steps[-1]
    assert EVENTS[-1] == speed(EVENTS[-1]["t"], ALICE)
    assert end.cards_left == (0, 3)
    assert end.hands[ALICE] == () and len(end.hands[BEN]) == 3 and end.draws == (0, 0)
    assert sum(end.piles) == 47
    assert end.stacks == (1, 1)


def test_the_verdict_carries_the_final_counts_without_steps() -> None:
    document = log(SPEED, DECK, EVENTS, result={"winner": ALICE}, players=["alice", "ben"])
    verdict = verify_document(document)
    assert verdict.steps is None
    assert verdict.cards_left == (0, 3)
    assert verdict.to_dict()["cards_left"] == [0, 3]


def test_the_verdict_carries_when_each_seat_played_each_card() -> None:
    verdict = verify_document(log(SPEED, DECK, EVENTS, result={"winner": ALICE}, players=["alice", "ben"]))
    assert verdict.plays_by_seat is not None
    alice, ben = verdict.plays_by_seat
    assert (len(alice), len(ben)) == (20, 17)  # Alice laid all twenty, Ben all but three
    played = [
        [event["t"] for event in EVENTS if event["type"] == "play" and event["player"] == seat] for seat in (0, 1)
    ]
    assert [list(alice), list(ben)] == played
    assert list(alice) == sorted(alice)
    # A timed round: the cards each had down by the end of the first run's last play.
    first_stall = CLOSERS[0]
    limit = EVENTS[first_stall - 1]["t"]
    assert verdict.cards_played_by(limit) == PLAYS_PER_RUN[0]
    assert verdict.cards_played_by(-1) == (0, 0)
    assert verdict.cards_played_by(EVENTS[-1]["t"]) == (20, 17)
