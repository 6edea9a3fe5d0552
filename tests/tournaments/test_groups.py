"""Groups then playoffs: snake seeding, and playoff seeds that keep group-mates apart."""

from hypothesis import given
from hypothesis import strategies as st

from tournaments.generators import group_stage, playoff_seeds
from tournaments.generators.seeding import bracket_lines


def test_snake_seeding() -> None:
    stage = group_stage(list(range(1, 13)), group_count=4)
    assert stage.groups == ((1, 8, 9), (2, 7, 10), (3, 6, 11), (4, 5, 12))
    assert [len(schedule.rounds) for schedule in stage.schedules] == [3, 3, 3, 3]


def test_two_groups_cross_over() -> None:
    seeds = playoff_seeds([["A1", "A2"], ["B1", "B2"]], advance_per_group=2)
    assert bracket_lines(seeds) == ["A1", "B2", "B1", "A2"]


@given(st.integers(min_value=2, max_value=16), st.integers(min_value=1, max_value=5))
def test_group_winners_top_and_group_mates_kept_apart(group_count: int, advance_per_group: int) -> None:
    rankings = [[(group, place) for place in range(advance_per_group)] for group in range(group_count)]
    seeds = playoff_seeds(rankings, advance_per_group=advance_per_group)
    assert sorted(seeds) == sorted(entrant for ranking in rankings for entrant in ranking)
    assert seeds[:group_count] == [(group, 0) for group in range(group_count)], "group winners are the top seeds"
    lines = bracket_lines(seeds)
    for line in range(0, len(lines), 2):
        first, second = lines[line], lines[line + 1]
        if first is not None and second is not None:
            assert first[0] != second[0], "group-mates never meet in the first round"
    if advance_per_group == 2:
        line_of = {entrant: line for line, entrant in enumerate(lines) if entrant is not None}
        rounds = (len(lines) - 1).bit_length()
        for group in range(group_count):
            meeting = (line_of[(group, 0)] ^ line_of[(group, 1)]).bit_length()
            assert meeting == rounds, "a group's top two can meet only in the final"
