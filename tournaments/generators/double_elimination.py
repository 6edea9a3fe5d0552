"""Double elimination: a loss drops you to the losers' bracket, a second loss ends your run.

Match ids are "W<round>-<position>" (winners' bracket), "L<round>-<position>"
(losers' bracket), "GF1" and "GF2" (the grand final and its reset).

For a bracket of 2^k lines the winners' bracket has k rounds. The losers'
bracket has 2(k-1): round 1 pairs the winners'-round-1 losers, then each
even round ("drop round") pits the losers'-bracket survivors against the
losers dropping from the next winners' round, and each odd round halves the
field. That is N-1 winners' matches and N-2 losers' matches for N = 2^k.

Droppers are placed so that they do not meet, in their first losers'-bracket
match, anyone from their own part of the winners' bracket, whenever the
bracket is large enough for that to be possible: for each drop round the
placement (reversed, half-shifted, both, or natural) with the fewest such
possible rematches is chosen.
"""

from __future__ import annotations

from collections.abc import Sequence

from .bracket import (
    Bracket,
    BracketMatch,
    LoserOf,
    PlayedIf,
    Section,
    SlotSource,
    WinnerOf,
    knockout_sources,
    linked,
)
from .entrants import EntrantId
from .seeding import Seeding, bracket_lines

GRAND_FINAL_ID = "GF1"
GRAND_FINAL_RESET_ID = "GF2"


def winners_match_id(round_number: int, position: int) -> str:
    """The id of a winners'-bracket match."""
    return f"W{round_number}-{position}"


def losers_match_id(round_number: int, position: int) -> str:
    """The id of a losers'-bracket match."""
    return f"L{round_number}-{position}"


def double_elimination(
    entrants: Sequence[EntrantId],
    *,
    seeding: Seeding = Seeding.STANDARD,
    rng_seed: int | None = None,
    grand_final_reset: bool = True,
) -> Bracket:
    """Build a double-elimination bracket for any number (>= 2) of entrants.

    The grand final sets the winners'-bracket champion (slot 0) against the
    losers'-bracket champion (slot 1). With `grand_final_reset`, a second
    grand final is played only if the losers'-bracket champion wins the first,
    so both finalists leave with two losses.
    """
    lines = bracket_lines(entrants, seeding=seeding, rng_seed=rng_seed)
    winners_rounds = (len(lines) - 1).bit_length()
    matches = _winners_bracket(lines, winners_rounds)
    losers, losers_champion = _losers_bracket(len(lines), winners_rounds)
    matches += losers
    losers_rounds = 2 * (winners_rounds - 1)
    # Stages: losing in losers' round r is stage r; the grand-final loser is one
    # above the losers' final, the champion one above that.
    runner_up_stage, champion_stage = losers_rounds + 1, losers_rounds + 2
    matches.append(
        BracketMatch(
            match_id=GRAND_FINAL_ID,
            section=Section.GRAND_FINAL,
            round=1,
            position=1,
            sources=(WinnerOf(winners_match_id(winners_rounds, 1)), losers_champion),
            winner_stage=champion_stage,
            loser_stage=runner_up_stage,
        )
    )
    if grand_final_reset:
        # Slot 0 stays with the winners'-bracket finalist, who lost the first grand final.
        matches.append(
            BracketMatch(
                match_id=GRAND_FINAL_RESET_ID,
                section=Section.GRAND_FINAL,
                round=2,
                position=1,
                sources=(LoserOf(GRAND_FINAL_ID), WinnerOf(GRAND_FINAL_ID)),
                winner_stage=champion_stage,
                loser_stage=runner_up_stage,
                played_if=PlayedIf(GRAND_FINAL_ID, won_by_slot=1),
            )
        )
    placed = tuple(entrant for entrant in lines if entrant is not None)
    return Bracket(entrants=placed, matches=linked(matches))


def _winners_bracket(lines: list[EntrantId | None], rounds: int) -> list[BracketMatch]:
    matches: list[BracketMatch] = []
    for round_number in range(1, rounds + 1):
        for position in range(1, (len(lines) >> round_number) + 1):
            sources = knockout_sources(lines, round_number, position, winners_match_id)
            # Nobody's run ends in the winners' bracket (the loser drops), so the
            # stages are never used; zero keeps them out of the way.
            matches.append(
                BracketMatch(
                    match_id=winners_match_id(round_number, position),
                    section=Section.WINNERS,
                    round=round_number,
                    position=position,
                    sources=sources,
                    winner_stage=0,
                    loser_stage=0,
                )
            )
    return matches


def _losers_bracket(size: int, winners_rounds: int) -> tuple[list[BracketMatch], SlotSource]:
    """The losers' bracket, and where its champion comes from (for the grand final)."""
    if winners_rounds == 1:
        # Two lines: the only winners' match's loser is the losers' bracket.
        return [], LoserOf(winners_match_id(1, 1))
    matches: list[BracketMatch] = []
    # Regions track which blocks of winners'-bracket lines each surviving slot
    # can hold someone from, at the granularity of the next round to drop.
    survivors: list[SlotSource] = []
    regions: list[set[int]] = []
    round_number = 1
    first_round_losers = [LoserOf(winners_match_id(1, position)) for position in range(1, size // 2 + 1)]
    pair: tuple[SlotSource, SlotSource]
    for position in range(1, size // 4 + 1):
        pair = (first_round_losers[2 * position - 2], first_round_losers[2 * position - 1])
        matches.append(_losers_match(round_number, position, pair))
        survivors.append(WinnerOf(losers_match_id(round_number, position)))
        regions.append({position - 1})
    for dropping_round in range(2, winners_rounds + 1):
        count = len(survivors)
        order = _drop_order(regions)
        round_number += 1
        next_survivors: list[SlotSource] = []
        for index in range(count):
            dropper = LoserOf(winners_match_id(dropping_round, order[index] + 1))
            matches.append(_losers_match(round_number, index + 1, (dropper, survivors[index])))
            next_survivors.append(WinnerOf(losers_match_id(round_number, index + 1)))
            regions[index] = regions[index] | {order[index]}
        survivors = next_survivors
        if count == 1:
            break
        round_number += 1
        halved: list[SlotSource] = []
        merged: list[set[int]] = []
        for position in range(1, count // 2 + 1):
            pair = (survivors[2 * position - 2], survivors[2 * position - 1])
            matches.append(_losers_match(round_number, position, pair))
            halved.append(WinnerOf(losers_match_id(round_number, position)))
            # The next winners' round covers blocks twice as wide.
            merged.append({block >> 1 for block in regions[2 * position - 2] | regions[2 * position - 1]})
        survivors, regions = halved, merged
    return matches, survivors[0]


def _drop_order(regions: list[set[int]]) -> list[int]:
    """For each losers' slot, which winners' match (0-based) drops into it.

    Prefers, in this order, reversed, half-shifted, reversed-and-half-shifted
    and natural placement, taking the first with the fewest slots whose
    dropper could meet someone from their own winners'-bracket block.
    """
    count = len(regions)
    half = count // 2
    candidates = [
        [count - 1 - index for index in range(count)],
        [(index + half) % count for index in range(count)],
        [(count - 1 - index + half) % count for index in range(count)],
        list(range(count)),
    ]
    return min(candidates, key=lambda order: sum(order[index] in regions[index] for index in range(count)))


def _losers_match(round_number: int, position: int, sources: tuple[SlotSource, SlotSource]) -> BracketMatch:
    return BracketMatch(
        match_id=losers_match_id(round_number, position),
        section=Section.LOSERS,
        round=round_number,
        position=position,
        sources=sources,
        winner_stage=round_number + 1,
        loser_stage=round_number,
    )
