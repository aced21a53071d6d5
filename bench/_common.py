"""What several benches need: the local servers they default to, URLs with
another database, percentiles, and a process's CPU from /proc. No Django
here: the benches import it before Django is set up."""

from __future__ import annotations

import math
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
