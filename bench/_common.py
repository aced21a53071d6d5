"""What several benches need: the local servers they default to, URLs with
another database, percentiles, a process's fields and CPU from /proc, and a bot's GET. No Django
here but in django_on_a_throwaway_database, which sets it up."""

from __future__ import annotations

import asyncio
import math
import os
import tempfile
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/versailles"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
# The benches' throwaway databases hold nothing a real key would protect.
BENCH_SECRET_KEY = "bench-only-secret-key-" + "x" * 40


def with_path(url: str, path: str) -> str:
    """``url`` naming another database: "/13" for Redis, "/name" for PostgreSQL."""
    return urlunsplit(urlsplit(url)._replace(path=path))


def percentile(values: list[float], fraction: float) -> float:
    """Nearest rank: the smallest value with at least ``fraction`` of them at
    or below it; NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def proc_stat(pid: int | str) -> list[str] | None:
    """The fields of /proc/<pid>/stat after the command name (so field 3 of
    proc(5), the state, is [0]); None for a process that is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command name is in parentheses and may hold spaces.
    return text.rsplit(")", 1)[1].split()


def proc_cpu(pid: int | str) -> float | None:
    """A process's CPU seconds with its ended children's (utime, stime,
    cutime, cstime: fields 14-17 of proc(5)); None for a process that is gone."""
    fields = proc_stat(pid)
    if fields is None:
        return None
    return sum(int(value) for value in fields[11:15]) / os.sysconf("SC_CLK_TCK")


async def http_get(port: int, path: str, secret: str | None = None) -> tuple[int, bytes]:
    """One GET to 127.0.0.1:``port`` on a connection of its own, as a bot
    with a long poll holds one each: the status and the body. A connection
    closed without an answer (the server out of files, say) is status 0."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    headers = f"Authorization: Bearer {secret}\r\n" if secret else ""
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{headers}Connection: close\r\n\r\n".encode())
    await writer.drain()
    answer = await reader.read()
    writer.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    return (int(head.split()[1]) if head else 0), body


def backends_end(connection, name: str) -> None:
    """The services' connections may outlive them by a moment; the database
    cannot be dropped while any is open."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            [name],
        )


def django_on_a_throwaway_database(prefix: str, settings_module: str) -> tempfile.TemporaryDirectory:
    """Django set up as in production (DEBUG off, the API's limits out of a
    bench's way but still counted) on a test database the bench creates and
    drops itself: a temporary SQLite file, or with DATABASE_URL a PostgreSQL
    database named "bench_<name>_<pid>"; the cache in a temporary folder, or
    with REDIS_URL Redis database 13. The folder is returned: keep it alive."""
    folder = tempfile.TemporaryDirectory(prefix=prefix)
    os.environ["DJANGO_SETTINGS_MODULE"] = settings_module
    os.environ["DEBUG"] = "false"
    os.environ.setdefault("SECRET_KEY", BENCH_SECRET_KEY)
    os.environ["API_REQUESTS_PER_MINUTE_PER_TOKEN"] = os.environ["API_REQUESTS_PER_MINUTE_PER_CLIENT"] = str(10**7)
    os.environ["VAR_DIR"] = folder.name
    if os.environ.get("REDIS_URL"):
        os.environ["REDIS_URL"] = with_path(os.environ["REDIS_URL"], "/13")

    import django
    from django.conf import settings

    database = settings.DATABASES["default"]
    if database["ENGINE"].endswith("sqlite3"):
        database["TEST"] = {"NAME": str(Path(folder.name) / "bench.sqlite3")}
    else:
        database["TEST"] = {"NAME": f"bench_{database['NAME']}_{os.getpid()}"}
    django.setup()
    return folder
