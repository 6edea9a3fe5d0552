"""The bracket drawing's geometry, from the generators' own brackets (no browser, no database)."""

from __future__ import annotations

import itertools

from tournaments.generators import Section, advance, double_elimination, single_elimination
from web.drawing.bracket import BOX_H, bracket_boxes, bracket_layout

NAMES = {i: name for i, name in enumerate(["alice", "ben", "chloe", "dev", "emma", "finn", "gus", "hana"], start=1)}


def play_all(bracket, results=None):  # type: ignore[no-untyped-def]
    """Decide every match for its lower-numbered entrant (the better seed)."""
    results = dict(results or {})
    state = advance(bracket, results)
    while state.ready:
        match_id = state.ready[0]
        results[match_id] = min(state.matches[match_id].entrants)  # type: ignore[type-var]
        state = advance(bracket, results)
    return state, results


def test_single_elimination_columns_centres_and_lines() -> None:
    bracket = single_elimination(list(NAMES))
    state, results = play_all(bracket)
    scores = {match_id: (2, 0) for match_id in results}
    drawing = bracket_layout(
        bracket_boxes(bracket, state, names=NAMES, seeds={i: i for i in NAMES}, scores=scores, urls={})
    )
    assert len(drawing.matches) == 7
    assert [head.label for head in drawing.heads] == ["Quarter-finals", "Semi-finals", "Final"]
    by_round: dict[int, list] = {}
    for match in drawing.matches:
        by_round.setdefault(match.box.round, []).append(match)
    (final,) = by_round[3]
    semis = by_round[2]
    assert final.centre == sum(semi.centre for semi in semis) / 2  # centred on its feeders
    assert len({match.x for match in by_round[1]}) == 1 and final.x > semis[0].x > by_round[1][0].x
    # Boxes of a column never overlap.
    ys = sorted(match.y for match in by_round[1])
    assert all(b - a >= BOX_H for a, b in itertools.pairwise(ys))
    assert len(drawing.links) == 6
    # The champion's lines carry their id, so hovering them lights the whole path.
    assert sum(1 for link in drawing.links if link.entrant == 1) == 2
    winner_slot = next(slot for slot in final.box.slots if slot.won)
    assert winner_slot.name == "alice" and winner_slot.score == 2 and winner_slot.seed == 1
    assert final.aria_label == "Final: alice v ben, 2 to 0"


def test_byes_and_a_third_place_match_under_the_final() -> None:
    bracket = single_elimination(list(range(1, 7)), third_place=True)
    state = advance(bracket, {})
    drawing = bracket_layout(bracket_boxes(bracket, state, names=NAMES))
    names = [slot.name for match in drawing.matches for slot in match.box.slots]
    assert names.count("Bye") == 2
    assert "TBD" in names
    final = next(m for m in drawing.matches if m.box.section is Section.MAIN and m.label == "Final")
    third = next(m for m in drawing.matches if m.box.section is Section.THIRD_PLACE)
    assert third.x == final.x and third.y > final.y + BOX_H
    assert drawing.height >= third.y + BOX_H


def test_double_elimination_puts_the_grand_final_right_of_both_brackets() -> None:
    bracket = double_elimination(list(range(1, 7)))
    state, _ = play_all(bracket)
    drawing = bracket_layout(bracket_boxes(bracket, state, names=NAMES))
    sections = {match.box.section for match in drawing.matches}
    assert sections == {Section.WINNERS, Section.LOSERS, Section.GRAND_FINAL}  # the reset was not needed
    grand = next(m for m in drawing.matches if m.box.section is Section.GRAND_FINAL)
    assert grand.x > max(m.x for m in drawing.matches if m.box.section is not Section.GRAND_FINAL)
    fed = [link for link in drawing.links if link.path.endswith(f"H{grand.x:g}")]
    assert len(fed) == 2  # from the winners' final and the losers' final
    assert [t.label for t in drawing.titles] == ["Winners bracket", "Losers bracket"]
