"""CPU time of processes on this machine, read from Linux's /proc: what a benchmark's servers spent.

A process's CPU is utime + stime, fields 14 and 15 of `/proc/<pid>/stat`, in
clock ticks (`os.sysconf("SC_CLK_TCK")`, usually 100 a second); it counts all
of the process's threads. `cpu_ticks(pids)` takes a sample, and
`cpu_ms_between(before, after)` the CPU spent between two samples: a process
in both counts its growth, one born in between all of its time, and one that
exited in between is lost (its CPU after the first sample cannot be read any
more), so callers keep the processes they measure alive across the window.

Every function takes the /proc root, so the tests can hand it a made-up one.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

PROC = Path("/proc")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")

#: A PostgreSQL client backend's process title: "postgres: [cluster: ]user database host(port) activity".
_BACKEND_TITLE = re.compile(r"^postgres: (?:\S+: )?\S+ (\S+) (?:\S+\(\d+\)|\[local\])")


@dataclass(frozen=True, slots=True)
class ProcStat:
    pid: int
    comm: str
    ppid: int
    session: int
    ticks: int  # utime + stime


def read_stat(pid: int, proc: Path = PROC) -> ProcStat | None:
    """The process's /proc/<pid>/stat, or None when it is gone (or not readable)."""
    try:
        raw = (proc / str(pid) / "stat").read_text()
    except OSError:
        return None
    # The command name is in parentheses and may itself hold spaces and parentheses.
    head, _, tail = raw.rpartition(")")
    fields = tail.split()
    if not head or len(fields) < 13:
        return None
    return ProcStat(
        pid=pid,
        comm=head.partition("(")[2],
        ppid=int(fields[1]),
        session=int(fields[3]),
        ticks=int(fields[11]) + int(fields[12]),
    )


def all_pids(proc: Path = PROC) -> list[int]:
    return sorted(int(entry.name) for entry in proc.iterdir() if entry.name.isdigit())


def session_pids(leader: int, proc: Path = PROC) -> list[int]:
    """The leader and every live process of its session: a server started with `start_new_session` and its children."""
    found = []
    for pid in all_pids(proc):
        stat = read_stat(pid, proc)
        if stat is not None and leader in (pid, stat.session):
            found.append(pid)
    return found


def postgres_pids(database: str | None = None, proc: Path = PROC) -> list[int]:
    """PostgreSQL's server processes: every process whose comm starts with "postgres".

    With `database`, client backends connected to another database are left out (the
    machine's other users); the postmaster and its background processes, shared by all
    databases, stay in.
    """
    found = []
    for pid in all_pids(proc):
        stat = read_stat(pid, proc)
        if stat is None or not stat.comm.startswith("postgres"):
            continue
        if database is not None:
            try:
                title = (proc / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            backend = _BACKEND_TITLE.match(title.strip())
            if backend is not None and backend.group(1) != database:
                continue
        found.append(pid)
    return found


def listening_pids(port: int, proc: Path = PROC) -> list[int]:
    """The processes holding a TCP socket that listens on `port` (any local address): a running server's."""
    inodes = set()
    for table in ("tcp", "tcp6"):
        try:
            lines = (proc / "net" / table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if len(fields) > 9 and fields[3] == "0A" and int(fields[1].rpartition(":")[2], 16) == port:
                inodes.add(f"socket:[{fields[9]}]")
    found = []
    for pid in all_pids(proc):
        try:
            fds = list((proc / str(pid) / "fd").iterdir())
        except OSError:
            continue
        for fd in fds:
            try:
                link = os.readlink(fd)
            except OSError:  # closed while we looked (the listing's own descriptor, for one)
                continue
            if link in inodes:
                found.append(pid)
                break
    return found


def cpu_ticks(pids: list[int], proc: Path = PROC) -> dict[int, int]:
    """utime + stime of each process still there."""
    sample = {}
    for pid in pids:
        stat = read_stat(pid, proc)
        if stat is not None:
            sample[pid] = stat.ticks
    return sample


@dataclass(frozen=True, slots=True)
class CpuSpent:
    ms: float
    processes: int  # read at the end (alive then)
    lost: int  # read at the start but gone at the end: their CPU in between is not counted


def cpu_ms_between(before: dict[int, int], after: dict[int, int]) -> CpuSpent:
    """The CPU spent between two samples, in milliseconds."""
    ticks = 0
    for pid, now in after.items():
        then = before.get(pid)
        # Lower than before: the pid was reused by a newcomer, whose whole time is in the window.
        ticks += now - then if then is not None and now >= then else now
    lost = sum(1 for pid in before if pid not in after)
    return CpuSpent(ms=ticks * 1000 / CLOCK_TICKS, processes=len(after), lost=lost)
