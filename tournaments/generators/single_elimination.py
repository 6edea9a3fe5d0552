"""Single elimination: one loss and you are out, with an optional third-place match.

Match ids are "R<round>-<position>" (both from 1) and "3P" for the
third-place match. Round one holds every line of the bracket; a top seed
facing an empty line has a bye and goes through without playing.
"""

from __future__ import annotations

from collections.abc import Sequence

from .bracket import Bracket, BracketMatch, LoserOf, Section, knockout_sources, linked
from .entrants import EntrantId, GeneratorUserError
from .seeding import Seeding, bracket_lines

THIRD_PLACE_ID = "3P"


def round_match_id(round_number: int, position: int) -> str:
    """The id of a main-bracket match."""
    return f"R{round_number}-{position}"


def single_elimination(
    entrants: Sequence[EntrantId],
    *,
    seeding: Seeding = Seeding.STANDARD,
    rng_seed: int | None = None,
    third_place: bool = False,
) -> Bracket:
    """Build a single-elimination bracket for any number (>= 2) of entrants.

    `entrants` are listed best seed first (or top to bottom for AS_GIVEN).
    With `third_place`, the semi-final losers meet for third place; that needs
    semi-finals, so at least three entrants (`GeneratorUserError` otherwise).
    """
    lines = bracket_lines(entrants, seeding=seeding, rng_seed=rng_seed)
    rounds = (len(lines) - 1).bit_length()
    if third_place and rounds < 2:
        raise GeneratorUserError("a third-place match needs semi-finals: at least 3 entrants")
    matches: list[BracketMatch] = []
    for round_number in range(1, rounds + 1):
        is_final = round_number == rounds
        for position in range(1, (len(lines) >> round_number) + 1):
            sources = knockout_sources(lines, round_number, position, round_match_id)
            # Stages rank how far an entrant got: losing in round r is stage 2r, the
            # odd stages in between leave room for the third-place match.
            matches.append(
                BracketMatch(
                    match_id=round_match_id(round_number, position),
                    section=Section.MAIN,
                    round=round_number,
                    position=position,
                    sources=sources,
                    winner_stage=2 * rounds + 2 if is_final else 2 * round_number + 1,
                    loser_stage=2 * round_number,
                )
            )
    if third_place:
        semi_finals = rounds - 1
        matches.append(
            BracketMatch(
                match_id=THIRD_PLACE_ID,
                section=Section.THIRD_PLACE,
                round=rounds,
                position=1,
                sources=(LoserOf(round_match_id(semi_finals, 1)), LoserOf(round_match_id(semi_finals, 2))),
                winner_stage=2 * rounds - 1,
                loser_stage=2 * semi_finals,
            )
        )
    placed = tuple(entrant for entrant in lines if entrant is not None)
    return Bracket(entrants=placed, matches=linked(matches))
