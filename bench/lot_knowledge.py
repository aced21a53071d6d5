"""What knowing a lot's hidden cards would be worth to the expert player: a
ceiling for any reading of the other bidders' cards.

    .venv/bin/python bench/lot_knowledge.py [--games 600] [--jobs 2] [--seed 1]

Two lines on the same seeds as bench/players.py's (seats rotated, the
expert against three simple players): the expert as it plays, and the same
expert bidding as if it saw every card of the lot (the rivals' hidden cards
put among its own; everything else it decides from its observation as
always). Not a player anyone meets: the gap between the lines is how much
of the expert's game is lost to what it cannot see at auctions."""

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

SEEING = "expert seeing the lot"


def choose_seeing_the_lot(state: State, seat: int, level: str, rng: random.Random):
    if level == SEEING and decision_kind(state) == "bid":
        assert state.auction is not None
        view = observe(state, seat)
        auction = view["auction"]
        assert auction is not None
        hidden = [card for card in state.auction.lot() if card not in state.auction.face_up]
        auction["my_cards"] = [{"id": card, "code": state.ruleset.code_of(card)} for card in hidden]
        return expert.decide(view, state.ruleset, rng)
    return choose(state, seat, "expert" if level == SEEING else level, rng)


def play(args: tuple[str, int, int]) -> bool:
    level, seat, seed = args
    return play_table(("simple",) * (PLAYERS - 1), seat, seed, level)["won"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    players.choose = choose_seeing_the_lot  # play_table decides through it
    seeds = [(game % PLAYERS, args.seed * 10_000_000 + game * 2) for game in range(args.games)]
    started = time.monotonic()
    with Pool(args.jobs, initializer=warm_up, initargs=(CLASSIC,)) as pool:
        won = {level: pool.map(play, [(level, *seed) for seed in seeds], chunksize=10) for level in ("expert", SEEING)}
    print(f"{args.games:,} games a line, the expert against three simple players, seats rotated, paired seeds; "
          f"{time.monotonic() - started:.0f} s in {args.jobs} processes\n")
    for level, wins in won.items():
        low, high = wilson(sum(wins), len(wins))
        print(f"{level:<24}{sum(wins):>6} wins {sum(wins) / len(wins):>7.1%}   95 % CI {low:.1%} to {high:.1%}")
    only_seeing = sum(s and not e for e, s in zip(won["expert"], won[SEEING], strict=True))
    only_playing = sum(e and not s for e, s in zip(won["expert"], won[SEEING], strict=True))
    print(f"\ngames only the seeing expert won: {only_seeing}; only the expert as it plays: {only_playing}; "
          f"sign test p = {sign_test(only_seeing, only_playing):.2g}")


if __name__ == "__main__":
    main()
