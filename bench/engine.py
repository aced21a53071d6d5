"""Complete random games per second, on one core (CPU time of this process).

    python bench/engine.py [--games N] [--seed S]

Every action (chance outcomes included) is drawn uniformly from legal_actions,
so the figure covers the legal-move generator as well as apply. Each run plays
the same games (same seed); this machine's timing varies from run to run by a
third or more, so the best run is the truest figure of what the code costs
and the median says what to expect on a busy machine."""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.engine import CLASSIC, apply, is_over, new_game, to_move
from games.players.autoplay import random_action


def play_one(players: int, rng: random.Random) -> int:
    state = new_game(CLASSIC, CLASSIC.colours[:players])
    steps = 0
    while not is_over(state):
        state = apply(state, to_move(state), random_action(state, rng))
        steps += 1
    return steps


def measure(players: int, games: int, seed: int) -> tuple[float, float]:
    rng = random.Random(seed)
    steps = 0
    started = time.process_time()
    for _ in range(games):
        steps += play_one(players, rng)
    elapsed = time.process_time() - started
    return games / elapsed, steps / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {args.games} games x {args.repeats} runs per player count")
    print(f"{'players':>7} {'games/s (median)':>17} {'best':>8} {'steps/game':>11}")
    for players in (3, 4, 6):
        rates = []
        for _repeat in range(args.repeats):
            rate, steps = measure(players, args.games, args.seed)
            rates.append(rate)
        print(f"{players:>7} {statistics.median(rates):>17.1f} {max(rates):>8.1f} {steps:>11.0f}")


if __name__ == "__main__":
    main()
