"""Where the test suite's CPU goes, against the wall time the run took.

    .venv/bin/python bench/suite_cpu.py [pytest arguments]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/versailles REDIS_URL=redis://127.0.0.1:6379/0 \\
        VERSAILLES_REQUIRE_SERVICES=1 .venv/bin/python bench/suite_cpu.py

Runs the suite as `make test` does (four xdist workers, --dist loadgroup;
other pytest arguments are added, e.g. --deselect), and prints the CPU time
of the pytest processes, of the processes they started (Chromium and
Playwright's driver, Celery workers, commands, SpamAssassin), those the run
left without a parent included (Chromium's renderers: this process adopts
them), and of the PostgreSQL and Redis servers, when they run on this
machine; beside it the whole machine's busy time; then the same by test
folder, and the tests that used most.

A run cannot take less wall time than its CPU time over the machine's cores:
that bound says whether a faster suite needs its work packed better onto the
cores or less work.

The same file is the pytest plugin that counts each test (-p bench.suite_cpu):
the CPU of its process and of the child processes that ended during it
(a test's Celery worker and Chromium end with the test), set-up and
teardown included.
"""

from __future__ import annotations

import ctypes
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parent.parent
# Run as a script, the checkout is not on the path that the plugin has from pytest.ini.
if str(BASE_DIR) not in sys.path:
    sys.path.insert(0, str(BASE_DIR))

from bench._common import proc_cpu, proc_stat  # noqa: E402

RECORDS = "SUITE_CPU_RECORDS"
# prctl(2): orphans among this process's descendants become its children.
PR_SET_CHILD_SUBREAPER = 36


def _cpu() -> tuple[float, float]:
    """This process's CPU seconds, and its ended children's."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


# The plugin: one JSON line per test, in a file per xdist worker.
@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    folder = os.environ.get(RECORDS)
    if not folder:
        return (yield)
    own, children = _cpu()
    started = time.monotonic()
    result = yield
    own_after, children_after = _cpu()
    record = {
        "test": item.nodeid,
        "own": own_after - own,
        "children": children_after - children,
        "wall": time.monotonic() - started,
    }
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    with open(Path(folder) / f"{worker}.jsonl", "a") as records:
        records.write(json.dumps(record) + "\n")
    return result


def _postgresql_cpu() -> float | None:
    """The PostgreSQL server's CPU seconds so far: the postmaster's own and
    its ended backends' (it waits for each), from /proc; None where the
    server is not on this machine or not readable."""
    url = os.environ.get("DATABASE_URL")
    if not url:
        return None
    try:
        import psycopg

        # The maintenance database: the one DATABASE_URL names need not exist.
        with psycopg.connect(url, dbname="postgres", connect_timeout=5) as connection:
            row = connection.execute("SHOW data_directory").fetchone()
        assert row is not None
        data_directory = row[0]
        pid = (Path(data_directory) / "postmaster.pid").read_text().split()[0]
    except Exception:
        return None
    return proc_cpu(pid)


def _redis_cpu() -> float | None:
    url = os.environ.get("REDIS_URL")
    if not url:
        return None
    try:
        import redis

        info = redis.Redis.from_url(url, socket_timeout=5).info("cpu")
    except Exception:
        return None
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


def _adopt_orphans() -> bool:
    """Make the processes the run leaves behind this process's to wait for.
    Chromium's renderers outlive the browser process that started them (it
    exits first when Playwright closes it), so their parent was gone and the
    system's init waited for them: their CPU reached no pytest process's
    count. Measured with /proc beside a run of tests/browser, that was more
    than half of Chromium's CPU (bench/README.md)."""
    libc = ctypes.CDLL(None, use_errno=True)
    return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0


@dataclass
class Orphans:
    """The processes the run left to this one: how many ended, their CPU (their
    own and their ended children's, read before each is waited for), and the
    pids of those still running 10 s after the run (leaked)."""

    ended: int = 0
    cpu: float = 0.0
    left: list[int] = field(default_factory=list)

    def reap(self, keep: int) -> None:
        """Wait for every ended child but ``keep`` (the pytest process, which
        its Popen waits for)."""
        while True:
            try:
                ended = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            except ChildProcessError:
                return
            if ended is None or ended.si_pid == keep:
                return
            self.cpu += proc_cpu(ended.si_pid) or 0.0
            os.waitpid(ended.si_pid, 0)
            self.ended += 1


def _machine_busy() -> float:
    """CPU seconds the whole machine has spent busy since boot (/proc/stat):
    user, nice, system, irq, softirq and steal."""
    fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(value) for value in fields[:8])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def _by_folder(records: list[dict]) -> dict[str, list[float]]:
    folders: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0, 0])
    for record in records:
        path = record["test"].split("::")[0].split("/")
        folder = "/".join(path[:2]) if len(path) > 2 else "tests (top)"
        totals = folders[folder]
        totals[0] += record["own"]
        totals[1] += record["children"]
        totals[2] += record["wall"]
        totals[3] += 1
    return folders


def _report(
    wall: float,
    pytest_cpu: float,
    servers: dict[str, float | None],
    records: list[dict],
    orphans: Orphans | None,
    machine: float,
) -> None:
    own = sum(record["own"] for record in records)
    children = sum(record["children"] for record in records)
    measured = {name: cpu for name, cpu in servers.items() if cpu is not None}
    total = pytest_cpu + sum(measured.values())
    cores = os.cpu_count() or 1
    print(f"\nwall time {wall:.0f} s on {cores} cores")
    print(f"CPU of the pytest processes and every process they started: {pytest_cpu:.0f} s")
    print(f"  in the tests (set-up and teardown included): {own:.0f} s in pytest, {children:.0f} s in their children")
    if orphans is None:
        print("  (processes that outlived their parent are not counted: this system refused to hand them over)")
    else:
        print(
            f"  in {orphans.ended} processes that outlived their parent (Chromium's, mostly), counted in no test: "
            f"{orphans.cpu:.0f} s"
        )
        if orphans.left:
            print(f"  still running 10 s after the run: {len(orphans.left)} processes ({orphans.left[:10]})")
    for name, cpu in servers.items():
        print(f"CPU of the {name} server: " + (f"{cpu:.0f} s" if cpu is not None else "not measured"))
    print(
        f"all together {total:.0f} s: no run of this work can take less than {total / cores:.0f} s "
        f"on {cores} cores; this one kept them {100 * total / (wall * cores):.0f} % busy"
    )
    print(f"the whole machine, every process on it, was busy {machine:.0f} CPU-s meanwhile\n")
    print(f"{'folder':<24}{'tests':>6}{'CPU pytest s':>14}{'CPU children s':>16}{'wall s (summed)':>17}")
    for folder, (folder_own, folder_children, folder_wall, count) in sorted(
        _by_folder(records).items(), key=lambda item: -(item[1][0] + item[1][1])
    ):
        print(f"{folder:<24}{count:>6}{folder_own:>14.0f}{folder_children:>16.0f}{folder_wall:>17.0f}")
    print("\nthe tests that used most CPU (pytest + children, seconds):")
    for record in sorted(records, key=lambda record: -(record["own"] + record["children"]))[:15]:
        print(f"  {record['own'] + record['children']:6.1f}  {record['test']}")


def _run(command: list[str], env: dict) -> tuple[int, Orphans | None]:
    """Run pytest, waiting meanwhile for the orphans it leaves; its exit
    status and the orphans (None where they cannot be adopted)."""
    orphans = Orphans() if _adopt_orphans() else None
    process = subprocess.Popen(command, cwd=BASE_DIR, env=env)
    while process.poll() is None:
        if orphans:
            orphans.reap(keep=process.pid)
        time.sleep(0.5)
    if orphans:
        deadline = time.monotonic() + 10
        while True:
            orphans.reap(keep=-1)
            orphans.left = [int(pid) for pid in os.listdir("/proc") if pid.isdigit() and _parent(pid) == os.getpid()]
            if not orphans.left or time.monotonic() > deadline:
                break
            time.sleep(0.5)
    return process.returncode, orphans


def _parent(pid: str) -> int | None:
    fields = proc_stat(pid)
    return int(fields[1]) if fields else None


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="suite-cpu-") as folder:
        command = [
            sys.executable, "-m", "pytest", "-q", "-n", "4", "--dist", "loadgroup", "-p", "bench.suite_cpu",
            *sys.argv[1:],
        ]
        servers_before = {"PostgreSQL": _postgresql_cpu(), "Redis": _redis_cpu()}
        machine_before = _machine_busy()
        started = time.monotonic()
        status, orphans = _run(command, {**os.environ, RECORDS: folder})
        wall = time.monotonic() - started
        machine = _machine_busy() - machine_before
        servers_after = {"PostgreSQL": _postgresql_cpu(), "Redis": _redis_cpu()}
        records = [json.loads(line) for path in Path(folder).glob("*.jsonl") for line in path.read_text().splitlines()]
    servers: dict[str, float | None] = {}
    for name, before in servers_before.items():
        after = servers_after[name]
        servers[name] = after - before if before is not None and after is not None else None
    _report(wall, _cpu()[1], servers, records, orphans, machine)
    return status


if __name__ == "__main__":
    sys.exit(main())
