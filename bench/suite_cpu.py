"""Where the test suite's CPU goes, against the wall time the run took.

    .venv/bin/python bench/suite_cpu.py [pytest arguments]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/versailles REDIS_URL=redis://127.0.0.1:6379/0 \\
        VERSAILLES_REQUIRE_SERVICES=1 .venv/bin/python bench/suite_cpu.py

Runs the suite as `make test` does (four xdist workers, --dist loadgroup;
other pytest arguments are added, e.g. --deselect), and prints the CPU time
of the pytest processes, of the processes they started (Chromium and
Playwright's driver, Celery workers, commands, SpamAssassin), and of the
PostgreSQL and Redis servers, when they run on this machine; then the same by
test folder, and the tests that used most.

A run cannot take less wall time than its CPU time over the machine's cores:
that bound says whether a faster suite needs its work packed better onto the
cores or less work.

The same file is the pytest plugin that counts each test (-p bench.suite_cpu):
the CPU of its process and of the child processes that ended during it
(a test's Celery worker and Chromium end with the test), set-up and
teardown included.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parent.parent
# Run as a script, the checkout is not on the path that the plugin has from pytest.ini.
if str(BASE_DIR) not in sys.path:
    sys.path.insert(0, str(BASE_DIR))

from bench._common import proc_stat  # noqa: E402

RECORDS = "SUITE_CPU_RECORDS"


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
    fields = proc_stat(pid)
    if fields is None:
        return None
    # utime, stime, cutime, cstime: fields 14-17 of proc(5), 11-14 after the name.
    return sum(int(value) for value in fields[11:15]) / os.sysconf("SC_CLK_TCK")


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


def _report(wall: float, pytest_cpu: float, servers: dict[str, float | None], records: list[dict]) -> None:
    own = sum(record["own"] for record in records)
    children = sum(record["children"] for record in records)
    measured = {name: cpu for name, cpu in servers.items() if cpu is not None}
    total = pytest_cpu + sum(measured.values())
    cores = os.cpu_count() or 1
    print(f"\nwall time {wall:.0f} s on {cores} cores")
    print(f"CPU of the pytest processes and every process they started: {pytest_cpu:.0f} s")
    print(f"  in the tests (set-up and teardown included): {own:.0f} s in pytest, {children:.0f} s in their children")
    for name, cpu in servers.items():
        print(f"CPU of the {name} server: " + (f"{cpu:.0f} s" if cpu is not None else "not measured"))
    print(
        f"all together {total:.0f} s: no run of this work can take less than {total / cores:.0f} s "
        f"on {cores} cores; this one kept them {100 * total / (wall * cores):.0f} % busy\n"
    )
    print(f"{'folder':<24}{'tests':>6}{'CPU pytest s':>14}{'CPU children s':>16}{'wall s (summed)':>17}")
    for folder, (folder_own, folder_children, folder_wall, count) in sorted(
        _by_folder(records).items(), key=lambda item: -(item[1][0] + item[1][1])
    ):
        print(f"{folder:<24}{count:>6}{folder_own:>14.0f}{folder_children:>16.0f}{folder_wall:>17.0f}")
    print("\nthe tests that used most CPU (pytest + children, seconds):")
    for record in sorted(records, key=lambda record: -(record["own"] + record["children"]))[:15]:
        print(f"  {record['own'] + record['children']:6.1f}  {record['test']}")


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="suite-cpu-") as folder:
        command = [
            sys.executable, "-m", "pytest", "-q", "-n", "4", "--dist", "loadgroup", "-p", "bench.suite_cpu",
            *sys.argv[1:],
        ]
        servers_before = {"PostgreSQL": _postgresql_cpu(), "Redis": _redis_cpu()}
        started = time.monotonic()
        status = subprocess.call(command, cwd=BASE_DIR, env={**os.environ, RECORDS: folder})
        wall = time.monotonic() - started
        servers_after = {"PostgreSQL": _postgresql_cpu(), "Redis": _redis_cpu()}
        records = [json.loads(line) for path in Path(folder).glob("*.jsonl") for line in path.read_text().splitlines()]
    servers: dict[str, float | None] = {}
    for name, before in servers_before.items():
        after = servers_after[name]
        servers[name] = after - before if before is not None and after is not None else None
    _report(wall, _cpu()[1], servers, records)
    return status


if __name__ == "__main__":
    sys.exit(main())
