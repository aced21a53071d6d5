"""The expert computer player: the strong player's judgement of teams, with
the race played out where the model is weakest, and the game's winner as
its aim once few races are left. From its observation alone.

- A Devil's push is chosen by playing the rest of the race out
  (race_sim), every candidate on the same dice, with the rivals pushing as
  the default does. It pushes after its own chair has finished too: what
  is left to it then is keeping the rivals' prizes low.
- What a push is worth: in the last race, the chance of ending the game
  first in gold; before it, the gold margin over the richest rival blended
  with the margin over the rivals' average (LEADER_SHARE).
- A lot is valued as the strong player values it, on draws made from the
  observation itself (common random numbers): the same observation always
  gets the same value, and more draws than the strong player's. At the
  substitute auctions before the last race it is bought for the chance of
  ending the game first it adds (win_chance), not for its gold.
- Removals and rolls as the strong player's."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping

from games.engine import Action, Bid, Pass, Push, Roll, Ruleset, lowest_bid
from games.engine.observe import Observation

from . import race_sim, strong, win_chance
from .view import my_seat, seat_of, team_of

# Rests of a race played out for each candidate push.
PLAYOUTS = 160
# Before the last race: how much of a push's worth is the margin over the
# richest rival (the rest: over the rivals' average).
LEADER_SHARE = 0.5
# Ways the unseen cards of a lot are drawn, the same for the same observation.
LOT_DRAWS = 24
# Gold kept back from a lot's worth.
MARGIN = 1.0
# A team's worth in a later race counts this much less for each race between.
LATER_RACE_WEIGHT = 0.8
# From the substitute auctions before this race on, a lot is bought for the
# chance of ending the game first it adds, not for its gold.
WIN_FROM_RACE = 6
# The chance of ending first a lot must add to be bought then.
WIN_MARGIN = 0.002


def decide(view: Observation, ruleset: Ruleset, rng: random.Random) -> Action | None:
    decision = view["decision"]
    if decision == "bid":
        return _bid(view, ruleset)
    if decision == "roll":
        return Roll()
    if decision == "push":
        return _push(view, ruleset)
    if decision == "remove":
        return strong.decide(view, ruleset, rng)
    return None


def observed_seed(view: Observation) -> int:
    """A number that depends on the observation and nothing else."""
    return int.from_bytes(hashlib.blake2b(repr(view).encode(), digest_size=8).digest(), "big")


# --- bids --------------------------------------------------------------------


def _bid(view: Observation, ruleset: Ruleset) -> Action:
    auction = view["auction"]
    assert auction is not None  # a bid is asked for in an auction
    lowest = lowest_bid(auction["high_bid"])
    gold = view["players"][my_seat(view)]["gold"]
    if lowest > gold:
        return Pass()
    if auction["kind"] == "substitute_auction" and len(view["results"]) + 1 >= WIN_FROM_RACE:
        return Bid(lowest) if _win_chance_gained(view, ruleset, lowest) > WIN_MARGIN else Pass()
    worth = strong.lot_worth(
        view, ruleset, random.Random(observed_seed(view)), samples=LOT_DRAWS, later_weight=LATER_RACE_WEIGHT
    )
    return Bid(lowest) if lowest <= min(gold, worth - MARGIN) else Pass()


def _win_chance_gained(view: Observation, ruleset: Ruleset, price: int) -> float:
    """How much buying the lot at ``price`` adds to the chance of ending the
    game first, over the same draws of its unseen cards as lot_worth's."""
    me = my_seat(view)
    teams = [team_of(view, seat) for seat in range(len(view["players"]))]
    gold = [player["gold"] for player in view["players"]]
    first_race = len(view["results"]) + 1
    now = win_chance.table_chance(teams, gold, me, ruleset, first_race, LATER_RACE_WEIGHT)
    paid = [have - price if seat == me else have for seat, have in enumerate(gold)]
    chances = []
    for lot in strong.lot_teams(view, ruleset, random.Random(observed_seed(view)), LOT_DRAWS):
        teams[me] = lot
        chances.append(win_chance.table_chance(teams, paid, me, ruleset, first_race, LATER_RACE_WEIGHT))
    return sum(chances) / len(chances) - now


# --- the Devil's push ----------------------------------------------------------


def table_of(view: Observation, ruleset: Ruleset) -> race_sim.Table:
    race = view["race"]
    assert race is not None  # a push is decided during a race
    by_code = {bearer.code: (bearer.move, bearer.push) for bearer in ruleset.bearers}
    colours = [player["colour"] for player in view["players"]]
    chairs = race["chairs"]
    return race_sim.Table(
        number=race["number"],
        first=seat_of(view, race["first"]),
        positions=[chairs[colour]["position"] for colour in colours],
        status=[chairs[colour]["status"] for colour in colours],
        arrivals=[seat_of(view, colour) for colour in race["arrivals"]],
        fallen=[seat_of(view, colour) for colour in race["fallen"]],
        rolls=race["rolls"],
        teams=[[by_code[card["code"]] for card in player["display"] if card is not None] for player in view["players"]],
    )


def _push(view: Observation, ruleset: Ruleset) -> Action:
    race = view["race"]
    assert race is not None and race["last_roll"] is not None  # a push follows a Devil's roll
    me = my_seat(view)
    table = table_of(view, ruleset)
    push = next(bearer.push for bearer in ruleset.bearers if bearer.code == race["last_roll"]["code"])
    candidates = [None] + [
        seat for seat in range(len(table.positions)) if seat != me and table.status[seat] == race_sim.RACING
    ]
    seeds = random.Random(observed_seed(view)).sample(range(1 << 30), PLAYOUTS)
    gold = [player["gold"] for player in view["players"]]
    last_race = race["number"] == ruleset.races
    best, best_worth = None, float("-inf")
    for target in candidates:
        played = race_sim.outcomes(table, ruleset, me, target, push, seeds)
        worth = sum(_worth(gold, paid, ranked, me, last_race=last_race) for paid, ranked in played)
        if worth > best_worth + 1e-9:
            best, best_worth = target, worth
    return Push(None if best is None else view["players"][best]["colour"])


def _worth(gold: list[int], paid: list[int], ranked: list[int], me: int, *, last_race: bool) -> float:
    after = [have + won for have, won in zip(gold, paid, strict=True)]
    if last_race:
        place = {seat: index for index, seat in enumerate(ranked)}
        first = min(range(len(after)), key=lambda seat: (-after[seat], place[seat], seat))
        return 1.0 if first == me else 0.0
    others = [have for seat, have in enumerate(after) if seat != me]
    return after[me] - LEADER_SHARE * max(others) - (1 - LEADER_SHARE) * sum(others) / len(others)


def parameters() -> Mapping[str, float]:
    """The fitted numbers, for the bench's record."""
    return {
        "PLAYOUTS": PLAYOUTS,
        "LEADER_SHARE": LEADER_SHARE,
        "LOT_DRAWS": LOT_DRAWS,
        "MARGIN": MARGIN,
        "LATER_RACE_WEIGHT": LATER_RACE_WEIGHT,
        "WIN_FROM_RACE": WIN_FROM_RACE,
        "WIN_MARGIN": WIN_MARGIN,
    }
