"""Fitting the expert player's numbers by self-play on paired seeds.

    .venv/bin/python bench/fit_expert.py [--games 1000] [--jobs 2] [--seed 1] \\
        [--variant NAME=VALUE[,NAME=VALUE...] ...] [--out FILE]

Every variant plays --games four-player games of the expert against three
simple players through the engine alone, the expert's seat rotated, on the
same seeds as every other variant and as bench/players.py's tables (the same
deals and dice wherever the decisions agree). The first line is the expert as
it is (games/players/expert.py); each --variant changes some of its numbers
(expert.parameters() names them). Printed for each: wins, the win rate with
its 95 % (Wilson) interval, and against the expert as it is, game by game,
how many games only the variant won and only the expert as it is, with a
sign test. --out appends the table, with the command, to a file.

Without --variant it runs the last fit's neighbourhood: each number a step
either way, one at a time."""

from __future__ import annotations

import argparse
import os
import sys
import time
from multiprocessing import Pool

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from players import PLAYERS, play_table, sign_test, wilson

from games.players import expert

AS_IT_IS = expert.parameters()
# Each number's step either way, for the neighbourhood.
STEPS = {"MARGIN": 3.0, "LATER_RACE_WEIGHT": 0.15, "LEADER_SHARE": 0.5}


def parsed(text: str) -> dict[str, float]:
    changes = {}
    for part in text.split(","):
        name, _, value = part.partition("=")
        if name not in AS_IT_IS:
            raise SystemExit(f"no number {name!r}; the expert's are {', '.join(AS_IT_IS)}")
        changes[name] = type(AS_IT_IS[name])(float(value))
    return changes


def neighbourhood() -> list[dict[str, float]]:
    variants = []
    for name, step in STEPS.items():
        for sign in (-1, 1):
            value = AS_IT_IS[name] + sign * step
            if name == "LEADER_SHARE" and not 0 <= value <= 1:
                continue
            variants.append({name: round(value, 3)})
    return variants


def play(args: tuple[dict[str, float], int, int]) -> bool:
    changes, seat, seed = args
    for name, value in {**AS_IT_IS, **changes}.items():
        setattr(expert, name, value)
    return play_table(("simple",) * (PLAYERS - 1), seat, seed, "expert")["won"]


def label(changes: dict[str, float]) -> str:
    return ", ".join(f"{name}={value}" for name, value in changes.items()) or "as it is"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", action="append", default=[], help="NAME=VALUE[,NAME=VALUE...]")
    parser.add_argument("--out", help="a file to append the table to")
    args = parser.parse_args()
    variants = [{}] + ([parsed(text) for text in args.variant] or neighbourhood())
    seeds = [(game % PLAYERS, args.seed * 10_000_000 + game * 2) for game in range(args.games)]
    work = [(changes, seat, seed) for changes in variants for seat, seed in seeds]
    started = time.monotonic()
    with Pool(args.jobs) as pool:
        won = pool.map(play, work, chunksize=10)
    elapsed = time.monotonic() - started
    runs = [won[index * args.games:(index + 1) * args.games] for index in range(len(variants))]
    lines = [
        f"$ .venv/bin/python bench/fit_expert.py {' '.join(sys.argv[1:])}",
        f"{args.games:,} games a variant, the expert against three simple players, seats rotated, paired seeds; "
        f"{elapsed:.0f} s in {args.jobs} processes; the expert as it is: {label(AS_IT_IS)}",
        "",
        f"{'variant':<34}{'wins':>6}{'win rate':>10}{'95 % CI':>18}{'only it':>9}{'only as is':>12}{'p':>8}",
    ]
    for changes, results in zip(variants, runs, strict=True):
        wins = sum(results)
        low, high = wilson(wins, len(results))
        only_it = sum(1 for it, base in zip(results, runs[0], strict=True) if it and not base)
        only_base = sum(1 for it, base in zip(results, runs[0], strict=True) if base and not it)
        lines.append(
            f"{label(changes):<34}{wins:>6}{wins / len(results):>10.1%}{f'{low:.1%} to {high:.1%}':>18}"
            f"{only_it:>9}{only_base:>12}{sign_test(only_it, only_base):>8.3f}"
        )
    print("\n".join(lines))
    if args.out:
        with open(args.out, "a", encoding="utf-8") as out:
            out.write("\n".join(lines) + "\n\n")


if __name__ == "__main__":
    main()
