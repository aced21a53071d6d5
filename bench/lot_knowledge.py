"""What knowing a lot's hidden cards would be worth to the expert player: a
ceiling for any reading of the other bidders' cards.

    .venv/bin/python bench/lot_knowledge.py [--games 600] [--jobs 2] [--seed 1] [--lines expert,every]

Lines on the same seeds as bench/players.py's (seats rotated, the expert
against three simple players): the expert as it plays ("expert"), and the
same expert bidding as if it saw every card of the lot (the rivals' hidden
cards put among its own; everything else it decides from its observation
as always) at every auction ("every"), at the start auctions only
("start") or at the substitute auctions only ("substitute"). Not a player
anyone meets: the gap between the lines is how much of the expert's game
is lost to what it cannot see at auctions. With both "expert" and another
line, the games only one of the two won are compared (sign test)."""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from multiprocessing import Pool

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import players
from players import PLAYERS, play_table, sign_test, wilson

from games.engine import CLASSIC, State, decision_kind, observe
from games.players import choose, expert, warm_up

# What each line's expert sees of the lot: at which auctions.
LINES = {
    "expert": (),
    "every": ("start_auction", "substitute_auction"),
    "start": ("start_auction",),
    "substitute": ("substitute_auction",),
}


def choose_seeing_the_lot(state: State, seat: int, level: str, rng: random.Random):
    if level not in LINES:
        return choose(state, seat, level, rng)
    if decision_kind(state) == "bid" and state.auction is not None and state.auction.kind in LINES[level]:
        view = observe(state, seat)
        auction = view["auction"]
        assert auction is not None
        hidden = [card for card in state.auction.lot() if card not in state.auction.face_up]
        auction["my_cards"] = [{"id": card, "code": state.ruleset.code_of(card)} for card in hidden]
        return expert.decide(view, state.ruleset, rng)
    return choose(state, seat, "expert", rng)


def play(args: tuple[str, int, int]) -> bool:
    level, seat, seed = args
    return play_table(("simple",) * (PLAYERS - 1), seat, seed, level)["won"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--lines", default="expert,every", help=f"some of {', '.join(LINES)} (default expert,every)")
    args = parser.parse_args()
    lines = args.lines.split(",")
    if not set(lines) <= set(LINES):
        raise SystemExit(f"lines are some of {', '.join(LINES)}")
    players.choose = choose_seeing_the_lot  # play_table decides through it
    seeds = [(game % PLAYERS, args.seed * 10_000_000 + game * 2) for game in range(args.games)]
    started = time.monotonic()
    with Pool(args.jobs, initializer=warm_up, initargs=(CLASSIC,)) as pool:
        won = {line: pool.map(play, [(line, *seed) for seed in seeds], chunksize=10) for line in lines}
    print(f"{args.games:,} games a line, the expert against three simple players, seats rotated, paired seeds; "
          f"{time.monotonic() - started:.0f} s in {args.jobs} processes\n")
    for line, wins in won.items():
        low, high = wilson(sum(wins), len(wins))
        label = "expert as it plays" if line == "expert" else f"seeing the lot: {line}"
        print(f"{label:<30}{sum(wins):>6} wins {sum(wins) / len(wins):>7.1%}   95 % CI {low:.1%} to {high:.1%}")
    compared = [line for line in won if line != "expert"] if "expert" in won else []
    for line in compared:
        only_seeing = sum(s and not e for e, s in zip(won["expert"], won[line], strict=True))
        only_playing = sum(e and not s for e, s in zip(won["expert"], won[line], strict=True))
        print(f"\n{line}: games only the seeing expert won: {only_seeing}; only the expert as it plays: "
              f"{only_playing}; sign test p = {sign_test(only_seeing, only_playing):.2g}")


if __name__ == "__main__":
    main()
