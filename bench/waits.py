"""A thousand bots waiting on GET /api/v1/seat?wait=<version> at once.

    .venv/bin/python bench/waits.py                          # --waits 1000 --games 250
    .venv/bin/python bench/waits.py --waits 200 --games 50   # a quick run

It makes running games (four seats, an API token each) in a throwaway
database (SQLite in a temporary folder, or the DATABASE_URL server's), starts
the API as production serves it (gunicorn with uvicorn's worker, one worker,
versailles_site.asgi, DEBUG off), and opens --waits long polls spread over
the games' seats (one a seat by default), each on a connection of its own.
Once the worker has admitted them all (its CPU settles), it prints the
worker's threads, memory and open files and a spectator's GET
/api/v1/games/<id> (20 in turn: p50, p99). Then one game moves (a step
played from this process, as a worker would): how long its waits took to
answer; then every other game, one after another: how long each wait took
after its own game moved (p50, p99, max) and what they answered. It prints
the figures; nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import resource
import socket
import subprocess
import sys
import time
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
BENCH_DIR = Path(__file__).resolve().parent
sys.path[:0] = [str(BASE_DIR), str(BENCH_DIR)]

from bench._common import backends_end, django_on_a_throwaway_database, http_get, percentile, proc_stat, with_path  # noqa: E402

_tmp = django_on_a_throwaway_database("versailles-bench-waits-", "versailles_site.settings")

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import setup_databases, teardown_databases  # noqa: E402

from tests.api.helpers import api_tokens  # noqa: E402
from tests.factories import play_steps, started_game  # noqa: E402


def server_start(port: int) -> subprocess.Popen:
    # The API process's settings, as docker-compose.yml's api service runs it.
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="versailles_site.api_settings")
    database = connection.settings_dict
    if connection.vendor == "sqlite":
        env["SQLITE_PATH"] = database["NAME"]
    else:
        env["DATABASE_URL"] = with_path(env["DATABASE_URL"], "/" + database["NAME"])
    log_path = Path(_tmp.name) / "server.log"
    with log_path.open("wb") as log:
        server = subprocess.Popen(
            [
                str(BASE_DIR / ".venv" / "bin" / "gunicorn"), "-c", "versailles_site/gunicorn_conf.py",
                "-k", "uvicorn_worker.UvicornWorker", "--bind", f"127.0.0.1:{port}", "--workers", "1",
                "--access-logfile", "/dev/null", "--no-control-socket", "versailles_site.asgi:application",
            ],
            cwd=BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the server exited; see {log_path}:\n{log_path.read_text()[-3000:]}")
        if "Application startup complete" in log_path.read_text(errors="replace"):
            return server
        time.sleep(0.2)
    raise RuntimeError("the server did not start within 60 s")


def worker_of(server: subprocess.Popen) -> int:
    return int(Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split()[0])


def worker_figures(pid: int) -> dict[str, int]:
    status = Path(f"/proc/{pid}/status").read_text()
    return {
        "threads": int(re.search(r"^Threads:\s+(\d+)", status, re.M).group(1)),
        "rss_mib": int(re.search(r"^VmRSS:\s+(\d+)", status, re.M).group(1)) // 1024,
        "open_files": len(os.listdir(f"/proc/{pid}/fd")),
    }


async def one_wait(port: int, secret: str, seen: int, game_id: int, moved_at: dict[int, float]) -> tuple[int, float]:
    """Wait past ``seen``: the status, and the seconds from the game's move
    to the answer (negative if it came before the move)."""
    status, body = await http_get(port, f"/api/v1/seat?wait={seen}", secret)
    answered = time.monotonic()
    moved = status == 200 and json.loads(body)["game"]["version"] > seen
    return (status if moved else -status), answered - moved_at.get(game_id, float("inf"))


def cpu_seconds(pid: int) -> float:
    fields = proc_stat(pid) or []
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK") if fields else 0.0


async def settled(pid: int) -> float:
    """Seconds until the worker spends under a tenth of a core: every wait
    admitted (its token read, its limits counted) and waiting."""
    started = time.monotonic()
    while True:
        before = cpu_seconds(pid)
        await asyncio.sleep(1)
        if cpu_seconds(pid) - before < 0.1:
            return time.monotonic() - started - 1


async def run(port: int, games: list, secrets: list[dict[int, str]], waits: int, pid: int) -> None:
    moved_at: dict[int, float] = {}
    tasks = []
    for n in range(waits):
        game = games[n % len(games)]
        tasks.append(asyncio.create_task(
            one_wait(port, secrets[n % len(games)][n // len(games) % 4], game.version, game.pk, moved_at)
        ))
    admitted_in = await settled(pid)
    figures = worker_figures(pid)
    still_open = sum(not task.done() for task in tasks)
    print(f"{waits} waits sent; all admitted and waiting after {admitted_in:.1f} s; {still_open} open")
    print(f"worker with them open: {figures['threads']} threads, {figures['rss_mib']} MiB resident, "
          f"{figures['open_files']} open files")
    spectator = []
    for _ in range(20):
        started = time.monotonic()
        status, _body = await http_get(port, f"/api/v1/games/{games[0].public_id}")
        assert status == 200, status
        spectator.append(time.monotonic() - started)
    print(f"a spectator's GET meanwhile: p50 {percentile(spectator, 0.5) * 1000:.1f} ms, "
          f"p99 {percentile(spectator, 0.99) * 1000:.1f} ms (20 in turn)")
    # One game moves, as in play: only its waiters wake.
    first = games[0]
    moved_at[first.pk] = time.monotonic()
    await asyncio.to_thread(play_steps, first, 1)
    mine = [task for n, task in enumerate(tasks) if n % len(games) == 0]
    one = [delay for status, delay in await asyncio.gather(*mine)]
    print(f"one game moves: its {len(one)} waits answered after p50 {percentile(one, 0.5):.2f} s, "
          f"max {max(one):.2f} s (the watcher reads every {settings.API_WAIT_POLL_SECONDS} s)")
    started = time.monotonic()
    for game in games[1:]:
        moved_at[game.pk] = time.monotonic()
        await asyncio.to_thread(play_steps, game, 1)
    results = await asyncio.gather(*tasks)
    delays = [delay for status, delay in results if status == 200]
    statuses = {status: sum(1 for result in results if result[0] == status) for status in {r[0] for r in results}}
    print(f"then every other game moves, one after another ({time.monotonic() - started:.1f} s in all):")
    print(f"answers: {statuses} (200: answered with a newer version; negative: answered before the move)")
    print(f"from a game's move to each answer: p50 {percentile(delays, 0.5):.2f} s, "
          f"p99 {percentile(delays, 0.99):.2f} s, max {max(delays):.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--waits", type=int, default=1000)
    parser.add_argument("--games", type=int, default=250)
    args = parser.parse_args()
    # Each wait is a socket here and one in the server (which inherits the
    # limit); root may raise the hard limit too.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = max(soft, 2 * args.waits + 500)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, max(hard, wanted)))
    except (ValueError, PermissionError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, wanted), hard))
    print(f"open files allowed: {resource.getrlimit(resource.RLIMIT_NOFILE)[0]}")
    old_config = setup_databases(verbosity=0, interactive=False, serialized_aliases=set())
    server = None
    try:
        games = [started_game(4) for _ in range(args.games)]
        secrets = [api_tokens(game) for game in games]
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        server = server_start(port)
        print(f"{connection.vendor}, cache {settings.CACHES['default']['BACKEND'].rsplit('.', 1)[-1]}, "
              f"gunicorn + uvicorn worker (1 worker), {args.games} games, {os.cpu_count()} cores")
        print(f"worker idle: {worker_figures(worker_of(server))}")
        asyncio.run(run(port, games, secrets, args.waits, worker_of(server)))
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=30)
        if connection.vendor == "postgresql":
            backends_end(connection, connection.settings_dict["NAME"])
        teardown_databases(old_config, verbosity=0)
        _tmp.cleanup()


if __name__ == "__main__":
    main()
