"""bench_tables' CPU readings from /proc: this process's own CPU grows with work; made-up /proc trees for the rest."""

from __future__ import annotations

import os
import socket
import time
from pathlib import Path

from benchmarks.proc_cpu import (
    CLOCK_TICKS,
    cpu_ms_between,
    cpu_ticks,
    listening_pids,
    postgres_pids,
    read_stat,
    session_pids,
)


def test_this_process_cpu_grows_after_busy_work() -> None:
    me = os.getpid()
    before = cpu_ticks([me])
    assert set(before) == {me}
    # Busy until the clock ticks have surely moved (a tick is 10 ms at the usual 100 a second).
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and cpu_ticks([me])[me] < before[me] + 3:
        sum(i * i for i in range(20_000))
    spent = cpu_ms_between(before, cpu_ticks([me]))
    assert spent.ms >= 3 * 1000 / CLOCK_TICKS
    assert spent.processes == 1
    assert spent.lost == 0
    stat = read_stat(me)
    assert stat is not None and stat.ppid == os.getppid()
    assert stat.comm.startswith("python") or stat.comm.startswith("pytest")


def test_a_gone_process_reads_as_none_and_is_counted_as_lost() -> None:
    assert read_stat(2**22 + 12345) is None
    spent = cpu_ms_between({1: 50, 2: 70, 3: 10}, {1: 60, 3: 10, 4: 5})
    assert spent.lost == 1  # pid 2 exited: what it spent is not known
    assert spent.processes == 3
    assert spent.ms == (10 + 0 + 5) * 1000 / CLOCK_TICKS  # pid 4 was born in between: all of its time


def test_a_reused_pid_counts_the_newcomer_from_zero() -> None:
    assert cpu_ms_between({7: 500}, {7: 20}).ms == 20 * 1000 / CLOCK_TICKS


def _fake_process(proc: Path, pid: int, comm: str, *, session: int, ticks: tuple[int, int], title: str = "") -> None:
    (proc / str(pid)).mkdir(parents=True)
    utime, stime = ticks
    rest = f"S 1 {session} {session} 0 -1 0 0 0 0 0 {utime} {stime} 0 0 20 0 1 0 100 0 0"
    (proc / str(pid) / "stat").write_text(f"{pid} ({comm}) {rest}\n")
    (proc / str(pid) / "cmdline").write_bytes(title.replace(" ", "\0").encode() + b"\0")


def test_stat_with_an_odd_command_name_sessions_and_postgres_titles(tmp_path: Path) -> None:
    _fake_process(tmp_path, 10, "python -m (daphne)", session=10, ticks=(30, 12))
    _fake_process(tmp_path, 11, "worker", session=10, ticks=(1, 1))
    _fake_process(tmp_path, 12, "other", session=3, ticks=(5, 5))
    _fake_process(tmp_path, 20, "postgres", session=20, ticks=(1, 0), title="/usr/lib/postgresql/15/bin/postgres -D x")
    _fake_process(tmp_path, 21, "postgres", session=20, ticks=(1, 0), title="postgres: 15/main: walwriter")
    _fake_process(
        tmp_path, 22, "postgres", session=20, ticks=(9, 1), title="postgres: 15/main: me mine 127.0.0.1(5000) idle"
    )
    _fake_process(
        tmp_path, 23, "postgres", session=20, ticks=(9, 1), title="postgres: 15/main: you yours 127.0.0.1(5001) idle"
    )
    _fake_process(tmp_path, 24, "postgres", session=20, ticks=(9, 1), title="postgres: me mine [local] SELECT")
    _fake_process(
        tmp_path, 25, "postgres", session=20, ticks=(1, 0), title="postgres: 15/main: logical replication launcher"
    )
    stat = read_stat(10, tmp_path)
    assert stat is not None
    assert (stat.comm, stat.ppid, stat.session, stat.ticks) == ("python -m (daphne)", 1, 10, 42)
    assert session_pids(10, tmp_path) == [10, 11]
    assert postgres_pids(None, tmp_path) == [20, 21, 22, 23, 24, 25]
    assert postgres_pids("mine", tmp_path) == [20, 21, 22, 24, 25]


def test_the_process_listening_on_a_port_is_found() -> None:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        assert os.getpid() in listening_pids(port)
    assert os.getpid() not in listening_pids(port)
