"""A tournament of computer players: how often the strong player wins
against three simple players and against three random ones, and how long
its decisions take.

    .venv/bin/python bench/players.py [--games 2000] [--jobs 2] [--seed 1]

Every game has four players through the engine alone (no database): the
strong player and three opponents of one kind, the strong player's seat
rotating 0, 1, 2, 3 from game to game (the start player is drawn by chance,
as in every game). Chance is drawn uniformly, as the service draws it.

Printed for each kind of opponent: the strong player's win rate with its 95 %
confidence interval (Wilson), against the fair share of 25 %; its average
gold margin over the best of the other three, and over their average. Then
the CPU time of the strong player's decisions by kind (p50, p99, max), each
decision timed alone on one core.

The yardstick: --playout-games games (on the same seeds as the strong
player's first games against simple players) of the engine-playout player
(games/players/playout.py: Monte-Carlo playouts of the whole rest of the
game over re-dealt hidden cards, 150 ms of CPU a decision) against three
simple players, with its figures printed the same way.

The games run in --jobs processes (this machine has two cores); a decision's
time is its own process's CPU time, which the other process does not
lengthen."""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from multiprocessing import Pool

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.engine import CHANCE, CLASSIC, apply, decision_kind, is_over, new_game, to_move
from games.engine.state import standings
from games.players import choose
from games.players.autoplay import chance_action, random_action

PLAYERS = 4
OPPONENTS = ("simple", "random")


def opponent_action(kind: str, state, seat: int, rng: random.Random):
    if kind == "random":
        return random_action(state, rng)
    return choose(state, seat, kind, rng)


def play(args: tuple[str, int, int, str]) -> dict:
    """One game: (kind of opponent, the measured player's seat, seed, the
    measured player's level)."""
    kind, strong_seat, seed, level = args
    rng = random.Random(seed)
    strong_rng = random.Random(seed + 1)
    state = new_game(CLASSIC, CLASSIC.colours[:PLAYERS])
    times: dict[str, list[float]] = {}
    while not is_over(state):
        seat = to_move(state)
        if seat == CHANCE:
            action = chance_action(state, rng)
        elif seat == strong_seat:
            kind_now = decision_kind(state)
            started = time.process_time()
            action = choose(state, seat, level, strong_rng)
            times.setdefault(kind_now, []).append(time.process_time() - started)
        else:
            action = opponent_action(kind, state, seat, rng)
        state = apply(state, seat, action)
    others = [state.gold[s] for s in range(PLAYERS) if s != strong_seat]
    return {
        "level": level,
        "kind": kind,
        "won": standings(state)[0] == strong_seat,
        "margin_best": state.gold[strong_seat] - max(others),
        "margin_mean": state.gold[strong_seat] - sum(others) / len(others),
        "times": times,
    }


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    if games == 0:
        return 0.0, 0.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games against each kind of opponent (default 2000)")
    parser.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--playout-games", type=int, default=200,
                        help="games of the engine-playout player against three simple ones (default 200; 0: none)")
    args = parser.parse_args()
    work = [
        (kind, game % PLAYERS, args.seed * 10_000_000 + index * 100_000 + game * 2, "strong")
        for index, kind in enumerate(OPPONENTS)
        for game in range(args.games)
    ] + [
        # The same seeds as the strong player's first games against simple players.
        ("simple", game % PLAYERS, args.seed * 10_000_000 + game * 2, "playout")
        for game in range(args.playout_games)
    ]
    started = time.monotonic()
    with Pool(args.jobs) as pool:
        results = pool.map(play, work, chunksize=20)
    elapsed = time.monotonic() - started

    print(f"\n{args.games:,} four-player games against each kind of opponent, the strong player's seat rotated; "
          f"{elapsed:.0f} s in {args.jobs} processes\n")
    print(
        f"{'player v opponents':<26}{'games':>6}{'wins':>7}{'win rate':>10}{'95 % CI':>18}"
        f"{'margin/best':>13}{'margin/mean':>13}"
    )
    verdicts = []
    rows = [("strong", kind) for kind in OPPONENTS] + ([("playout", "simple")] if args.playout_games else [])
    for level, kind in rows:
        games = [r for r in results if r["kind"] == kind and r["level"] == level]
        wins = sum(r["won"] for r in games)
        low, high = wilson(wins, len(games))
        best = statistics.mean(r["margin_best"] for r in games)
        mean = statistics.mean(r["margin_mean"] for r in games)
        label = f"{level} v three {kind}"
        print(f"{label:<26}{len(games):>6}{wins:>7}{wins / len(games):>10.1%}{f'{low:.1%} to {high:.1%}':>18}"
              f"{best:>13.1f}{mean:>13.1f}")
        if level == "strong":
            verdicts.append(low > 0.25)
    slowest = 0.0
    for level in dict.fromkeys(level for level, _kind in rows):
        print(f"\nthe {level} player's decisions, CPU ms on one core")
        print(f"{'decision':<10}{'count':>9}{'p50':>9}{'p99':>9}{'max':>9}")
        for kind_now in ("bid", "roll", "push", "remove"):
            times = [t * 1000 for r in results if r["level"] == level for t in r["times"].get(kind_now, [])]
            if times:
                p99 = percentile(times, 0.99)
                if level == "strong":
                    slowest = max(slowest, p99)
                print(f"{kind_now:<10}{len(times):>9}{statistics.median(times):>9.2f}{p99:>9.2f}{max(times):>9.2f}")
    print("\ntargets: win rate above 25 % at 95 % confidence against both kinds; p99 under 200 ms for every kind:",
          "met" if all(verdicts) and slowest < 200 else "NOT MET")


if __name__ == "__main__":
    main()
