"""The benchmark runs and its figures are plausible."""

from tournaments.generators.bench import run_bench


def test_run_bench_times_each_workload() -> None:
    figures = run_bench()
    names = [name for name, _ in figures]
    assert len(figures) == 4
    assert any("double elimination, 4096" in name for name in names)
    assert any("swiss, 4096" in name for name in names)
    assert any("standings, 1024" in name for name in names)
    assert all(seconds > 0 for _, seconds in figures)
    generate, _, swiss, standings = (seconds for _, seconds in figures)
    assert generate < 1 and swiss < 1 and standings < 1
