"""The benchmark runs every workload and reports a time for each (the figures are printed, never asserted)."""

from benchmarks.tournament_workloads import run_bench


def test_run_bench_times_each_workload() -> None:
    figures = run_bench()
    names = [name for name, _ in figures]
    assert len(figures) == 4
    assert any("double elimination, 4096" in name for name in names)
    assert any("swiss, 4096" in name for name in names)
    assert any("standings, 1024" in name for name in names)
    assert all(seconds > 0 for _, seconds in figures)  # each workload ran and was timed; speed is the bench's to print
