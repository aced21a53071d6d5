"""Each hand-written statement (games/services/statements.py) against the
queryset it replaces, in this process, on the deep game of bench/web.py.

A statement is kept only while it beats its queryset by a margin worth its
upkeep; this prints the margin. Each figure is the median of --repeat calls,
the queryset's and the statement's calls alternating, so both meet the same
machine. Run it with DATABASE_URL and REDIS_URL as bench/web.py (without
them, SQLite in a temporary folder)."""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
BENCH_DIR = Path(__file__).resolve().parent
sys.path[:0] = [str(BASE_DIR), str(BENCH_DIR)]

from bench._common import django_on_a_throwaway_database  # noqa: E402

_tmp = django_on_a_throwaway_database("versailles-bench-statements-", "web_site")

from django.db import connection, transaction  # noqa: E402

from bench._games import deep_game_on_a_test_database  # noqa: E402
from games.models import ActionRecord, Game, Seat  # noqa: E402
from games.selectors.seat import SEAT_HISTORY_LIMIT  # noqa: E402
from games.services import statements  # noqa: E402


def medians(pair: tuple[Callable[[], object], Callable[[], object]], repeat: int) -> tuple[float, float]:
    """The medians, in ms, of ``repeat`` calls of each, one after the other."""
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(repeat):
        for call, kept in zip(pair, times, strict=True):
            start = time.perf_counter()
            call()
            kept.append((time.perf_counter() - start) * 1000)
    return statistics.median(times[0]), statistics.median(times[1])


def locked(read: Callable[[], object]) -> Callable[[], object]:
    def in_a_transaction() -> object:
        with transaction.atomic():
            return read()

    return in_a_transaction


def pairs(game: Game) -> dict[str, tuple[Callable[[], object], Callable[[], object]]]:
    """By what is read: (the queryset, the statement)."""
    return {
        "the game": (lambda: Game.objects.get(pk=game.pk), lambda: statements.game_by_id(game.pk)),
        "the game, locked": (
            locked(lambda: Game.objects.select_for_update().get(pk=game.pk)),
            locked(lambda: statements.game_locked(game.pk)),
        ),
        "the seats": (
            lambda: list(Seat.objects.filter(game_id=game.pk).order_by("position")),
            lambda: statements.seats_of_game(game.pk),
        ),
        f"the history's latest {SEAT_HISTORY_LIMIT}": (
            lambda: list(
                ActionRecord.objects.filter(game_id=game.pk, seq__lte=game.version)
                .exclude(events=[])
                .order_by("-seq")
                .values_list(*statements.TOLD_FIELDS)[:SEAT_HISTORY_LIMIT]
            ),
            lambda: statements.told_records(game.pk, game.version, SEAT_HISTORY_LIMIT),
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1000, help="calls of each per figure (default 1000)")
    parser.add_argument("--seed", type=int, default=6)
    args = parser.parse_args()
    try:
        with deep_game_on_a_test_database(args.seed) as game:
            records = ActionRecord.objects.filter(game=game).count()
            figures = {name: medians(pair, args.repeat) for name, pair in pairs(game).items()}
    finally:
        _tmp.cleanup()
    print(f"\n{connection.vendor}, in process, the deep game ({records} log records): medians of {args.repeat} calls\n")
    print(f"{'what is read':<30}{'queryset ms':>13}{'statement ms':>14}{'saved ms':>10}")
    for name, (queryset, statement) in figures.items():
        print(f"{name:<30}{queryset:>13.3f}{statement:>14.3f}{queryset - statement:>10.3f}")


if __name__ == "__main__":
    main()
